/// \file
/// The ops of shapes known only at run time, as Relay has them: `shape_of` (a tensor's shape as a
/// 1-D integer tensor, what ONNX `Shape` of a tensor with unknown dimensions becomes),
/// `dyn.reshape` (reshape to a shape given as a tensor), `argwhere` (the indices of the non-zero
/// elements: ONNX NonZero), `arange` (ONNX Range of run-time bounds), and the forms of topk, full,
/// strided_slice, tile and broadcast_to whose sizes are tensors (`dyn.topk`, `dyn.full`,
/// `dyn.strided_slice`, `dyn.tile`, `dyn.broadcast_to`: ONNX TopK, ConstantOfShape,
/// NonMaxSuppression's slice, Tile and Expand with sizes computed at run time). Their results have
/// unknown dimensions where the shapes depend on values; the executor computes them per run (each
/// `dyn.` op's shape function gives its static op the values as attributes).

#include <algorithm>

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

/// A 1-D integer tensor of known length (a shape, begin, end or strides given as a tensor).
Result<int64_t> vectorLength(const std::string& op, const TypeRelationInput& input, std::size_t index,
                             const char* what) {
  BYOC_ASSIGN_OR_RETURN(const TensorTypeNode* vector, tensorArg(op, input, index));
  if (!isInteger(vector->dtype) || vector->shape.size() != 1 || vector->shape[0] == kAnyDim)
    return makeError(op + ": " + what + " must be a 1-D integer tensor of known length, found " +
                     typeToString(input.args[index]));
  return vector->shape[0];
}

/// Relay's DynTopKRel: topk whose k is a one-element integer tensor; the axis's size is unknown.
Result<Type> dynTopkRelation(const TypeRelationInput& input) {
  const std::string op = "dyn.topk";
  BYOC_ASSIGN_OR_RETURN(const TensorTypeNode* data, tensorArg(op, input, 0));
  BYOC_ASSIGN_OR_RETURN(const TensorTypeNode* k, tensorArg(op, input, 1));
  if (!isInteger(k->dtype) || k->shape.size() > 1 || (k->shape.size() == 1 && k->shape[0] != 1))
    return makeError(op + ": k must be an integer scalar or a tensor of one element, found " +
                     typeToString(input.args[1]));
  Attrs attrs = input.attrs;
  attrs.set("k", AttrValue(int64_t{0}));  // the whole axis, then unknown
  const Type dataType = input.args[0];
  BYOC_ASSIGN_OR_RETURN(Type type,
                        OpRegistry::global().find("topk")->relation({std::span<const Type>(&dataType, 1), attrs}));
  BYOC_ASSIGN_OR_RETURN(int64_t axis, intAttr(op, input.attrs, "axis"));
  BYOC_ASSIGN_OR_RETURN(axis, normalizeAxis(op, axis, data->shape.size()));
  std::vector<Type> fields;
  for (const TypeNode* field : flattenTupleTypes(type)) {
    const auto* tensor = field->as<TensorTypeNode>();
    Shape shape = tensor->shape;
    shape[static_cast<std::size_t>(axis)] = kAnyDim;
    fields.push_back(tensorType(std::move(shape), tensor->dtype));
  }
  if (fields.size() == 1) return fields[0];
  return tupleType(std::move(fields));
}

/// Relay's dyn.full: a scalar fill value and a 1-D shape tensor give a tensor of that rank whose
/// dimensions are known only once the shape's values are.
Result<Type> dynFullRelation(const TypeRelationInput& input) {
  const std::string op = "dyn.full";
  BYOC_ASSIGN_OR_RETURN(const TensorTypeNode* fill, tensorArg(op, input, 0));
  if (!fill->shape.empty() && !(fill->shape.size() == 1 && fill->shape[0] == 1))
    return makeError(op + ": fill_value must be a scalar, found " + typeToString(input.args[0]));
  BYOC_ASSIGN_OR_RETURN(int64_t rank, vectorLength(op, input, 1, "shape"));
  BYOC_TRY(checkResultRank(op, rank));
  const std::string name = stringAttr(input.attrs, "dtype");
  std::optional<DType> dtype = name.empty() ? fill->dtype : parseDType(name);
  if (!dtype) return makeError(op + ": dtype \"" + name + "\" is not a dtype");
  return tensorType(Shape(static_cast<std::size_t>(rank), kAnyDim), *dtype);
}

/// Relay's DynStridedSliceRel: begin, end and strides as 1-D tensors of one length, covering the
/// first axes, whose sizes become unknown; the other axes keep theirs.
Result<Type> dynStridedSliceRelation(const TypeRelationInput& input) {
  const std::string op = "dyn.strided_slice";
  BYOC_ASSIGN_OR_RETURN(const TensorTypeNode* data, tensorArg(op, input, 0));
  BYOC_ASSIGN_OR_RETURN(int64_t count, vectorLength(op, input, 1, "begin"));
  for (std::size_t i : {std::size_t{2}, std::size_t{3}}) {
    BYOC_ASSIGN_OR_RETURN(int64_t length, vectorLength(op, input, i, i == 2 ? "end" : "strides"));
    if (length != count)
      return makeError(op + ": begin has " + std::to_string(count) + " elements but " + (i == 2 ? "end" : "strides") +
                       " has " + std::to_string(length) + "; expected one per sliced axis");
  }
  if (count > static_cast<int64_t>(data->shape.size()))
    return makeError(op + ": " + std::to_string(count) + " axes sliced of " + shapeText(data->shape));
  const std::string mode = stringAttr(input.attrs, "slice_mode");
  if (mode != "end" && mode != "size") return makeError(op + ": slice_mode \"" + mode + "\"; expected end or size");
  Shape out = data->shape;
  std::fill(out.begin(), out.begin() + count, kAnyDim);
  return tensorType(std::move(out), data->dtype);
}

/// Relay's dyn.tile and dyn.broadcast_to: the reps or shape as a 1-D tensor give a result of rank
/// max(data's, its length) whose dimensions are known once its values are.
TypeRelation sizedByVector(std::string op, const char* what) {
  return [op, what](const TypeRelationInput& input) -> Result<Type> {
    BYOC_ASSIGN_OR_RETURN(const TensorTypeNode* data, tensorArg(op, input, 0));
    BYOC_ASSIGN_OR_RETURN(int64_t length, vectorLength(op, input, 1, what));
    const int64_t rank = std::max(length, static_cast<int64_t>(data->shape.size()));
    BYOC_TRY(checkResultRank(op, rank));
    return tensorType(Shape(static_cast<std::size_t>(rank), kAnyDim), data->dtype);
  };
}

/// Relay's arange of tensors: start, stop and step scalars of one numeric dtype give a 1-D tensor
/// whose length is known once their values are.
Result<Type> arangeRelation(const TypeRelationInput& input) {
  const std::string op = "arange";
  std::optional<DType> dtype;
  for (std::size_t i = 0; i < 3; ++i) {
    BYOC_ASSIGN_OR_RETURN(const TensorTypeNode* bound, tensorArg(op, input, i));
    if (!bound->shape.empty() || bound->dtype == DType::Bool || (dtype && bound->dtype != *dtype))
      return makeError(op + ": start, stop and step must be numeric scalars of one dtype, found " +
                       typeToString(input.args[0]) + ", " + typeToString(input.args[1]) + " and " +
                       typeToString(input.args[2]));
    dtype = bound->dtype;
  }
  return tensorType({kAnyDim}, *dtype);
}

}  // namespace

void registerDynamicShapeOps(OpRegistry& registry) {
  declare(registry, "shape_of", "the shape of a tensor, as a 1-D integer tensor", {"data"}, {tvmRequired("dtype", "int32")},
          FusionKind::Injective, shapeOfRelation);
  declare(registry, "dyn.reshape", "reshape to a shape given as a tensor (0 copies, -1 is inferred)", {"data", "newshape"},
          {{"allowzero", 0}}, FusionKind::Injective, dynReshapeRelation);
  declare(registry, "argwhere", "the indices of the non-zero elements, one row per element in row-major order",
          {"condition"}, {}, FusionKind::Opaque, argwhereRelation);
  declare(registry, "dyn.topk", "topk whose k is a tensor", {"data", "k"},
          {{"axis", -1}, {"ret_type", "both"}, {"is_ascend", false}, tvmRequired("dtype", "int32")}, FusionKind::Opaque,
          dynTopkRelation);
  declare(registry, "dyn.full", "a tensor of the shape given as a tensor, filled with a scalar",
          {"fill_value", "shape"}, {tvmRequired("dtype", "")}, FusionKind::Elementwise, dynFullRelation);
  declare(registry, "dyn.strided_slice", "strided_slice whose begin, end and strides are tensors",
          {"data", "begin", "end", "strides"}, {{"slice_mode", "end"}}, FusionKind::Injective, dynStridedSliceRelation);
  declare(registry, "dyn.tile", "tile whose reps are a tensor", {"data", "reps"}, {}, FusionKind::Injective,
          sizedByVector("dyn.tile", "reps"));
  declare(registry, "dyn.broadcast_to",
          "broadcasts the tensor and a shape given as a tensor to the shape both broadcast to", {"data", "shape"}, {},
          FusionKind::Broadcast, sizedByVector("dyn.broadcast_to", "shape"));
  declare(registry, "arange", "start, start + step, ... up to stop (excluded), from scalar tensors",
          {"start", "stop", "step"}, {}, FusionKind::Opaque, arangeRelation);
}

}  // namespace byoc::ops
