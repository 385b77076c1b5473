/// \file
/// The ops of shapes known only at run time, as Relay has them: `shape_of` (a tensor's shape as a
/// 1-D integer tensor, what ONNX `Shape` of a tensor with unknown dimensions becomes),
/// `dyn.reshape` (reshape to a shape given as a tensor) and `argwhere` (the indices of the non-zero
/// elements: ONNX NonZero). Their results have unknown dimensions where the shapes depend on
/// values; the executor computes them per run.

#include "ir/ops/op_helpers.h"

namespace byoc::ops {

namespace {

Result<Type> shapeOfRelation(const TypeRelationInput& input) {
  const std::string op = "shape_of";
  BYOC_ASSIGN_OR_RETURN(const TensorTypeNode* data, tensorArg(op, input, 0));
  const std::string name = stringAttr(input.attrs, "dtype");
  std::optional<DType> dtype = parseDType(name);
  if (!dtype || (*dtype != DType::Int32 && *dtype != DType::Int64))
    return makeError(op + ": dtype \"" + name + "\" is not supported; expected int32 or int64");
  return tensorType({static_cast<int64_t>(data->shape.size())}, *dtype);
}

/// data, newshape (a 1-D integer tensor of known length) → a tensor of that rank whose dimensions
/// are known only once newshape's values are.
Result<Type> dynReshapeRelation(const TypeRelationInput& input) {
  const std::string op = "dyn.reshape";
  BYOC_ASSIGN_OR_RETURN(const TensorTypeNode* data, tensorArg(op, input, 0));
  BYOC_ASSIGN_OR_RETURN(const TensorTypeNode* newshape, tensorArg(op, input, 1));
  if (!isInteger(newshape->dtype) || newshape->shape.size() != 1 || newshape->shape[0] == kAnyDim)
    return makeError(op + ": newshape must be a 1-D integer tensor of known length, found " +
                     typeToString(input.args[1]));
  BYOC_TRY(checkResultRank(op, newshape->shape[0]));
  return tensorType(Shape(static_cast<std::size_t>(newshape->shape[0]), kAnyDim), data->dtype);
}

/// data of rank r → Tensor[(?, r), int32]: one row of indices per non-zero element.
Result<Type> argwhereRelation(const TypeRelationInput& input) {
  const std::string op = "argwhere";
  BYOC_ASSIGN_OR_RETURN(const TensorTypeNode* data, tensorArg(op, input, 0));
  if (data->shape.empty()) return makeError(op + ": data must have rank at least 1, found a scalar");
  return tensorType({kAnyDim, static_cast<int64_t>(data->shape.size())}, DType::Int32);
}

}  // namespace

void registerDynamicShapeOps(OpRegistry& registry) {
  declare(registry, "shape_of", "the shape of a tensor, as a 1-D integer tensor", {"data"}, {tvmRequired("dtype", "int32")},
          FusionKind::Injective, shapeOfRelation);
  declare(registry, "dyn.reshape", "reshape to a shape given as a tensor (0 copies, -1 is inferred)", {"data", "newshape"},
          {{"allowzero", 0}}, FusionKind::Injective, dynReshapeRelation);
  declare(registry, "argwhere", "the indices of the non-zero elements, one row per element in row-major order",
          {"condition"}, {}, FusionKind::Opaque, argwhereRelation);
}

}  // namespace byoc::ops
