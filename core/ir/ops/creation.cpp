/// \file
/// Tensors made from attributes alone (zeros, ones), the layout change between permuted layouts
/// (layout_transform) and einsum, with TVM's attributes.

#include <map>

#include "ir/ops/einsum_equation.h"
#include "ir/ops/op_helpers.h"

namespace byoc::ops {

namespace {

TypeRelation initRelation(std::string op) {
  return [op](const TypeRelationInput& input) -> Result<Type> {
    BYOC_ASSIGN_OR_RETURN(std::vector<int64_t> shape, intsAttr(op, input.attrs, "shape"));
    for (int64_t dim : shape)
      if (dim < 0) return makeError(op + ": shape " + shapeText(shape) + " has a negative dimension");
    std::string name = stringAttr(input.attrs, "dtype");
    auto dtype = parseDType(name);
    if (!dtype) return makeError(op + ": unknown dtype \"" + name + "\"");
    BYOC_TRY(checkResultRank(op, static_cast<int64_t>(shape.size())));
    return tensorType(std::move(shape), *dtype);
  };
}

Result<Type> layoutTransformRelation(const TypeRelationInput& input) {
  const std::string op = "layout_transform";
  BYOC_ASSIGN_OR_RETURN(const TensorTypeNode* data, tensorArg(op, input, 0));
  const std::string src = stringAttr(input.attrs, "src_layout");
  BYOC_ASSIGN_OR_RETURN(std::vector<std::size_t> perm, layoutPermutation(op, src, stringAttr(input.attrs, "dst_layout")));
  if (perm.size() != data->shape.size())
    return makeError(op + ": src_layout \"" + src + "\" names " + std::to_string(perm.size()) + " axes but the data " +
                     shapeText(data->shape) + " has rank " + std::to_string(data->shape.size()));
  Shape out;
  for (std::size_t axis : perm) out.push_back(data->shape[axis]);
  return tensorType(std::move(out), data->dtype);
}

Result<Type> einsumRelation(const TypeRelationInput& input) {
  const std::string op = "einsum";
  const Type& tuple = input.args.empty() ? Type() : input.args[0];
  const auto* fields = tuple ? tuple->as<TupleTypeNode>() : nullptr;
  if (!fields || fields->fields.empty())
    return makeError(op + ": expects a non-empty tuple of tensors, found " + typeToString(tuple));
  BYOC_ASSIGN_OR_RETURN(EinsumEquation equation, parseEinsum(stringAttr(input.attrs, "equation"), fields->fields.size()));
  std::map<char, int64_t> sizes;
  const TensorTypeNode* first = nullptr;
  for (std::size_t i = 0; i < fields->fields.size(); ++i) {
    const auto* operand = fields->fields[i] ? fields->fields[i]->as<TensorTypeNode>() : nullptr;
    if (!operand) return makeError(op + ": operand " + std::to_string(i) + " must be a tensor");
    if (!first) first = operand;
    if (operand->dtype != first->dtype)
      return makeError(op + ": operand " + std::to_string(i) + " " + typeToString(fields->fields[i]) +
                       " differs in dtype from operand 0 " + typeToString(fields->fields[0]));
    const std::string& subscripts = equation.operands[i];
    if (subscripts.size() != operand->shape.size())
      return makeError(op + ": operand " + std::to_string(i) + " " + shapeText(operand->shape) + " has rank " +
                       std::to_string(operand->shape.size()) + " but its subscripts \"" + subscripts + "\" name " +
                       std::to_string(subscripts.size()) + " axes");
    for (std::size_t a = 0; a < subscripts.size(); ++a) {
      auto [entry, added] = sizes.emplace(subscripts[a], operand->shape[a]);
      if (!added && entry->second != operand->shape[a])
        return makeError(op + ": subscript '" + std::string(1, subscripts[a]) + "' is " + std::to_string(entry->second) +
                         " elsewhere but " + std::to_string(operand->shape[a]) + " in operand " + std::to_string(i) + " " +
                         shapeText(operand->shape));
    }
  }
  Shape out;
  for (char letter : equation.result) out.push_back(sizes.at(letter));
  return tensorType(std::move(out), first->dtype);
}

}  // namespace

void registerCreationOps(OpRegistry& registry) {
  // TVM's InitOpAttrs: shape has no default, dtype defaults to void.
  declare(registry, "zeros", "a tensor of zeros of the given shape and dtype", {},
          {tvmRequired("shape", AttrValue::ints({})), tvmRequired("dtype", "float32")}, FusionKind::Elementwise,
          initRelation("zeros"));
  declare(registry, "ones", "a tensor of ones of the given shape and dtype", {},
          {tvmRequired("shape", AttrValue::ints({})), tvmRequired("dtype", "float32")}, FusionKind::Elementwise,
          initRelation("ones"));
  declare(registry, "layout_transform", "permutes the axes from one named layout to another (NCHW → NHWC)", {"data"},
          {tvmRequired("src_layout", ""), tvmRequired("dst_layout", "")}, FusionKind::Injective, layoutTransformRelation);
  declare(registry, "einsum", "Einstein summation over a tuple of tensors", {"data"}, {tvmRequired("equation", "")},
          FusionKind::Injective, einsumRelation);
}

}  // namespace byoc::ops
