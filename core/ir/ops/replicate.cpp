/// \file
/// Data movement that repeats or reorders elements, with TVM's attributes: tile, broadcast_to and
/// reverse.

#include "ir/ops/op_helpers.h"

namespace byoc::ops {

namespace {

/// `shape` with leading 1s up to `rank` (shorter operands align to the right, as numpy does).
Shape padLeft(const Shape& shape, std::size_t rank) {
  Shape out(rank - shape.size(), 1);
  out.insert(out.end(), shape.begin(), shape.end());
  return out;
}

/// TVM's tile: reps and the data shape are aligned to the right; each axis is repeated reps times.
Result<Type> tileRelation(const TypeRelationInput& input) {
  const std::string op = "tile";
  BYOC_ASSIGN_OR_RETURN(const TensorTypeNode* data, tensorArg(op, input, 0));
  BYOC_ASSIGN_OR_RETURN(std::vector<int64_t> reps, intsAttr(op, input.attrs, "reps"));
  if (reps.empty()) return makeError(op + ": reps must list at least one repetition count");
  BYOC_TRY(checkResultRank(op, static_cast<int64_t>(reps.size())));
  const std::size_t rank = std::max(reps.size(), data->shape.size());
  const Shape dims = padLeft(data->shape, rank);
  const Shape counts = padLeft(Shape(reps.begin(), reps.end()), rank);
  Shape out(rank);
  for (std::size_t i = 0; i < rank; ++i) {
    if (counts[i] < 0)
      return makeError(op + ": reps " + AttrValue::ints(reps).str() + " has a negative count; expected counts of 0 or more");
    if (dims[i] == kAnyDim) {
      out[i] = kAnyDim;
      continue;
    }
    std::optional<int64_t> size = (CheckedSize(dims[i]) * counts[i]).value();
    if (!size) return makeError(op + ": axis " + std::to_string(i) + " of " + shapeText(data->shape) + " repeated " +
                                std::to_string(counts[i]) + " times overflows");
    out[i] = *size;
  }
  return tensorType(std::move(out), data->dtype);
}

/// TVM's broadcast_to: the data must broadcast to `shape` (each of its axes, aligned to the right,
/// is 1 or the target's size).
Result<Type> broadcastToRelation(const TypeRelationInput& input) {
  const std::string op = "broadcast_to";
  BYOC_ASSIGN_OR_RETURN(const TensorTypeNode* data, tensorArg(op, input, 0));
  BYOC_ASSIGN_OR_RETURN(std::vector<int64_t> target, intsAttr(op, input.attrs, "shape"));
  BYOC_TRY(checkResultRank(op, static_cast<int64_t>(target.size())));
  Shape out(target.begin(), target.end());
  if (data->shape.size() > out.size())
    return makeError(op + ": cannot broadcast " + shapeText(data->shape) + " to the lower rank of " + shapeText(out));
  const Shape dims = padLeft(data->shape, out.size());
  for (std::size_t i = 0; i < out.size(); ++i) {
    if (out[i] < 0) return makeError(op + ": shape " + shapeText(out) + " has a negative dimension");
    if (dims[i] != 1 && dims[i] != kAnyDim && dims[i] != out[i])
      return makeError(op + ": cannot broadcast " + shapeText(data->shape) + " to " + shapeText(out) + ": axis " +
                       std::to_string(i) + " is " + std::to_string(dims[i]) + ", expected 1 or " + std::to_string(out[i]));
  }
  return tensorType(std::move(out), data->dtype);
}

Result<Type> reverseRelation(const TypeRelationInput& input) {
  const std::string op = "reverse";
  BYOC_ASSIGN_OR_RETURN(const TensorTypeNode* data, tensorArg(op, input, 0));
  BYOC_ASSIGN_OR_RETURN(int64_t axis, intAttr(op, input.attrs, "axis"));
  BYOC_TRY(normalizeAxis(op, axis, data->shape.size()).status());
  return tensorType(data->shape, data->dtype);
}

}  // namespace

void registerReplicateOps(OpRegistry& registry) {
  declare(registry, "tile", "repeats the whole tensor `reps` times along each axis", {"data"},
          {tvmRequired("reps", AttrValue::ints({}))}, FusionKind::Injective, tileRelation);
  // TVM's InitOpAttrs: broadcast_to leaves its dtype unset.
  declare(registry, "broadcast_to", "broadcasts the tensor to `shape`", {"data"},
          {tvmRequired("shape", AttrValue::ints({})), {"dtype", AttrValue()}}, FusionKind::Broadcast,
          broadcastToRelation);
  declare(registry, "reverse", "reverses the order of the elements along `axis`", {"data"},
          {tvmRequired("axis", 0)}, FusionKind::Injective, reverseRelation);
}

}  // namespace byoc::ops
