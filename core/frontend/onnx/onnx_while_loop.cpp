#include "frontend/onnx/onnx_while_loop.h"

#include <algorithm>

#include "frontend/onnx/onnx_converters.h"
#include "ir/ops/type_join.h"

namespace byoc::onnx_import {

namespace {

/// `value`, passed to a loop variable of `type`: its own type, or with `?` for some of its sizes
/// (a static value passed where the loop's variable changes shape).
Result<OnnxValue> passedAs(const OnnxValue& value, const Type& type) {
  if (!ops::typeAccepts(type, value.type))
    return makeError("cannot pass " + typeToString(value.type) + " as " + typeToString(type));
  return value;
}

bool hasUnknownDim(const Type& type) {
  const auto* tensor = type ? type->as<TensorTypeNode>() : nullptr;
  return !tensor || std::find(tensor->shape.begin(), tensor->shape.end(), kAnyDim) != tensor->shape.end();
}

/// The variables of one round of typing: one per loop variable, of `types`.
std::vector<OnnxValue> variablesOf(const OnnxNodeContext& c, const LoopSpec& spec, const std::vector<Type>& types) {
  std::vector<OnnxValue> variables;
  for (std::size_t i = 0; i < types.size(); ++i)
    variables.push_back({VarNode::make(spec.variables[i].name, types[i], c.nodeOrigin()), types[i]});
  return variables;
}

/// The loop's variables and what one iteration gives them and the scan outputs.
struct TypedLoop {
  std::vector<OnnxValue> variables;
  std::vector<OnnxValue> updates;
};

/// The loop's variables, typed: their initial types joined with what the body gives them, until
/// the body gives nothing new (every round adds a `?`, so this ends); the imports of the body
/// with the narrower types are rolled back.
Result<TypedLoop> typeVariables(const OnnxNodeContext& c, const LoopSpec& spec, SubgraphImporter& subgraphs) {
  std::vector<Type> types;
  for (const LoopVariable& variable : spec.variables) types.push_back(variable.initial.type);
  while (true) {
    const NodeId mark = subgraphs.checkpoint();
    std::vector<OnnxValue> variables = variablesOf(c, spec, types);
    BYOC_ASSIGN_OR_RETURN(std::vector<OnnxValue> updates, spec.body(variables));
    bool changed = false;
    for (std::size_t i = 0; i < types.size(); ++i) {
      std::optional<Type> joined = ops::joinTypes(types[i], updates[i].type);
      if (!joined)
        return makeError(spec.describeUpdate(i) + " gives " + typeToString(updates[i].type) + " to '" +
                         spec.variables[i].name + "', which is " + typeToString(types[i]) +
                         " before; expected the same dtype and rank in every iteration");
      changed = changed || !typeEqual(*joined, types[i]);
      types[i] = *joined;
    }
    if (!changed) return TypedLoop{std::move(variables), std::move(updates)};
    subgraphs.rollBack(mark);
  }
}

/// The type of a scan output gathering `slice`s along `axis`, with the error for an axis or a
/// slice it cannot gather.
Result<Type> scanType(const ScanOutput& scan, const Type& slice) {
  if (hasUnknownDim(slice))
    return makeError("scan output '" + scan.name + "' is " + typeToString(slice) +
                     " in an iteration; expected a tensor of the same static shape in every iteration");
  Shape shape = slice->as<TensorTypeNode>()->shape;
  const auto rank = static_cast<int64_t>(shape.size()) + 1;
  if (scan.axis < -rank || scan.axis >= rank)
    return makeError("scan output '" + scan.name + "' has the axis " + std::to_string(scan.axis) + "; expected -" +
                     std::to_string(rank) + " to " + std::to_string(rank - 1) + " for slices of " +
                     typeToString(slice));
  shape.insert(shape.begin() + (scan.axis < 0 ? scan.axis + rank : scan.axis), kAnyDim);
  return tensorType(std::move(shape), slice->as<TensorTypeNode>()->dtype);
}

}  // namespace

Result<OnnxValue> whileLoop(const OnnxNodeContext& c, const LoopSpec& spec, SubgraphImporter& subgraphs) {
  BYOC_ASSIGN_OR_RETURN(TypedLoop typed, typeVariables(c, spec, subgraphs));
  const std::vector<OnnxValue>& variables = typed.variables;
  const std::vector<OnnxValue>& updates = typed.updates;
  BYOC_ASSIGN_OR_RETURN(OnnxValue more, spec.condition(variables));

  std::vector<Var> params;
  std::vector<Type> types;
  std::vector<Expr> next;
  std::vector<Expr> initial;
  for (std::size_t i = 0; i < variables.size(); ++i) {
    params.push_back(downcast<VarNode>(variables[i].expr));
    types.push_back(variables[i].type);
    BYOC_ASSIGN_OR_RETURN(OnnxValue update, passedAs(updates[i], variables[i].type));
    next.push_back(update.expr);
    BYOC_ASSIGN_OR_RETURN(OnnxValue start, passedAs(spec.variables[i].initial, variables[i].type));
    initial.push_back(start.expr);
  }
  for (std::size_t j = 0; j < spec.scans.size(); ++j) {
    const ScanOutput& scan = spec.scans[j];
    const OnnxValue& slice = updates[variables.size() + j];
    BYOC_ASSIGN_OR_RETURN(Type type, scanType(scan, slice.type));
    Shape emptyShape = type->as<TensorTypeNode>()->shape;
    const auto axis = static_cast<int64_t>(std::find(emptyShape.begin(), emptyShape.end(), kAnyDim) - emptyShape.begin());
    emptyShape[static_cast<std::size_t>(axis)] = 0;
    OnnxValue empty = c.constant(TensorData::zeros(type->as<TensorTypeNode>()->dtype, emptyShape));
    BYOC_ASSIGN_OR_RETURN(OnnxValue start, passedAs(empty, type));
    initial.push_back(start.expr);
    OnnxValue gathered{VarNode::make(scan.name, type, c.nodeOrigin()), type};
    params.push_back(downcast<VarNode>(gathered.expr));
    types.push_back(type);
    BYOC_ASSIGN_OR_RETURN(OnnxValue expanded, c.call("expand_dims", {slice}, {{"axis", axis}, {"num_newaxis", 1}}));
    OnnxValue pair = scan.prepend ? c.tuple({expanded, gathered}) : c.tuple({gathered, expanded});
    BYOC_ASSIGN_OR_RETURN(OnnxValue grown, c.call("concatenate", {pair}, {{"axis", axis}}));
    BYOC_ASSIGN_OR_RETURN(grown, passedAs(grown, type));
    next.push_back(grown.expr);
  }

  Type resultType = tupleType(types);
  Type loopType = funcType(types, resultType);
  Var loop = VarNode::make("while_loop", loopType, c.nodeOrigin());
  std::vector<Expr> current(params.begin(), params.end());
  Expr body = IfNode::make(more.expr, CallNode::make(loop, std::move(next), {}, c.nodeOrigin(), resultType),
                           TupleNode::make(std::move(current), c.nodeOrigin(), resultType), c.nodeOrigin(), resultType);
  Function function = FunctionNode::make(std::move(params), body, resultType, {}, c.nodeOrigin(), loopType);
  Expr start = CallNode::make(loop, std::move(initial), {}, c.nodeOrigin(), resultType);
  return OnnxValue{LetNode::make(loop, function, start, c.nodeOrigin(), resultType), resultType};
}

}  // namespace byoc::onnx_import
