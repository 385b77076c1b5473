/// \file
/// Gathering and scattering by index tuples, with TVM's attributes: gather_nd and scatter_nd.
/// Their indices put the tuple axis first: shape (M, Y_0, …, Y_{K-1}) addresses the first M axes
/// of the data (ONNX puts it last; its importer transposes).

#include "ir/ops/op_helpers.h"

namespace byoc::ops {

namespace {

/// The index tensor's type, checked to be an integer tensor of rank 1 or more.
Result<const TensorTypeNode*> indicesArg(const std::string& op, const TypeRelationInput& input, std::size_t index) {
  BYOC_ASSIGN_OR_RETURN(const TensorTypeNode* indices, tensorArg(op, input, index));
  if (!isInteger(indices->dtype))
    return makeError(op + ": indices must be integers, found " + std::string(dtypeName(indices->dtype)));
  if (indices->shape.empty()) return makeError(op + ": indices must have rank 1 or more (the index tuples on axis 0)");
  if (indices->shape[0] == kAnyDim) return makeError(op + ": the length of the index tuples (axis 0 of indices) must be known");
  return indices;
}

/// TVM's GatherNDRel: (X_0..X_{N-1}) gathered by (M, Y_0..Y_{K-1}) with B batch axes gives
/// (Y_0..Y_{K-1}, X_{B+M}..X_{N-1}), the first B of the Y being the data's batch axes.
Result<Type> gatherNdRelation(const TypeRelationInput& input) {
  const std::string op = "gather_nd";
  BYOC_ASSIGN_OR_RETURN(const TensorTypeNode* data, tensorArg(op, input, 0));
  BYOC_ASSIGN_OR_RETURN(const TensorTypeNode* indices, indicesArg(op, input, 1));
  BYOC_ASSIGN_OR_RETURN(int64_t batchDims, intAttr(op, input.attrs, "batch_dims"));
  const int64_t tuple = indices->shape[0];
  const AttrValue* indexRank = input.attrs.find("index_rank");
  if (indexRank && !indexRank->isNone()) {
    BYOC_ASSIGN_OR_RETURN(int64_t rank, intAttr(op, input.attrs, "index_rank"));
    if (rank != tuple)
      return makeError(op + ": index_rank " + std::to_string(rank) + " differs from the index tuples' length " +
                       std::to_string(tuple) + " (axis 0 of indices " + shapeText(indices->shape) + ")");
  }
  const auto dataRank = static_cast<int64_t>(data->shape.size());
  const auto indexAxes = static_cast<int64_t>(indices->shape.size()) - 1;
  if (batchDims < 0 || batchDims > indexAxes || tuple < 1 || batchDims + tuple > dataRank)
    return makeError(op + ": indices " + shapeText(indices->shape) + " with batch_dims " + std::to_string(batchDims) +
                     " do not fit data " + shapeText(data->shape) +
                     "; expected 1 <= M and batch_dims + M <= the data's rank, M = axis 0 of indices");
  for (int64_t b = 0; b < batchDims; ++b)
    if (indices->shape[static_cast<std::size_t>(b + 1)] != data->shape[static_cast<std::size_t>(b)])
      return makeError(op + ": batch axis " + std::to_string(b) + " is " + std::to_string(data->shape[static_cast<std::size_t>(b)]) +
                       " in data " + shapeText(data->shape) + " but " +
                       std::to_string(indices->shape[static_cast<std::size_t>(b + 1)]) + " in indices " + shapeText(indices->shape));
  Shape out(indices->shape.begin() + 1, indices->shape.end());
  out.insert(out.end(), data->shape.begin() + batchDims + tuple, data->shape.end());
  return tensorType(std::move(out), data->dtype);
}

/// TVM's ScatterNDRel: updates of shape (Y_0..Y_{K-1}, X_M..X_{N-1}) written into a copy of the data.
Result<Type> scatterNdRelation(const TypeRelationInput& input) {
  const std::string op = "scatter_nd";
  BYOC_ASSIGN_OR_RETURN(const TensorTypeNode* data, tensorArg(op, input, 0));
  BYOC_ASSIGN_OR_RETURN(const TensorTypeNode* indices, indicesArg(op, input, 1));
  BYOC_ASSIGN_OR_RETURN(const TensorTypeNode* updates, tensorArg(op, input, 2));
  const std::string mode = stringAttr(input.attrs, "mode");
  if (mode != "update" && mode != "add" && mode != "mul" && mode != "min" && mode != "max")
    return makeError(op + ": mode \"" + mode + "\"; expected update, add, mul, min or max");
  if (updates->dtype != data->dtype)
    return makeError(op + ": updates " + std::string(dtypeName(updates->dtype)) + " differ in dtype from data " +
                     std::string(dtypeName(data->dtype)));
  const int64_t tuple = indices->shape[0];
  if (tuple < 1 || tuple > static_cast<int64_t>(data->shape.size()))
    return makeError(op + ": index tuples of length " + std::to_string(tuple) + " do not fit data " + shapeText(data->shape) +
                     "; expected 1 to its rank");
  Shape expected(indices->shape.begin() + 1, indices->shape.end());
  expected.insert(expected.end(), data->shape.begin() + tuple, data->shape.end());
  if (updates->shape != expected)
    return makeError(op + ": updates " + shapeText(updates->shape) + " do not fit indices " + shapeText(indices->shape) +
                     " and data " + shapeText(data->shape) + "; expected " + shapeText(expected));
  return tensorType(data->shape, data->dtype);
}

}  // namespace

void registerIndexingOps(OpRegistry& registry) {
  declare(registry, "gather_nd", "gathers slices of the data addressed by index tuples", {"data", "indices"},
          {{"batch_dims", 0}, {"index_rank", AttrValue()}}, FusionKind::Injective, gatherNdRelation);
  declare(registry, "scatter_nd", "writes (or accumulates) updates into a copy of the data at index tuples",
          {"data", "indices", "updates"}, {tvmRequired("mode", "update")}, FusionKind::Opaque, scatterNdRelation);
}

}  // namespace byoc::ops
