/// \file
/// Converters of the ONNX ops that index, repeat and scan: Expand, Tile, Range, TopK, GatherND,
/// ScatterND and CumSum, written as TVM's importer writes them. Sizes computed at run time give
/// TVM's dynamic forms: dyn.broadcast_to, dyn.tile, arange of tensors and dyn.topk.

#include "frontend/onnx/onnx_converters.h"
#include "frontend/onnx/onnx_tensor.h"
#include "ir/ops/op_helpers.h"
#include "ir/ops/range_count.h"
#include "support/limits.h"

namespace byoc::onnx_import {

namespace {

/// Expand: numpy broadcasting of the input and the target shape, both ways, as broadcast_to; a
/// shape computed at run time gives dyn.broadcast_to, which broadcasts both ways too.
Result<OnnxOutputs> expand(const OnnxNodeContext& c) {
  BYOC_ASSIGN_OR_RETURN(OnnxValue x, c.input(0));
  BYOC_ASSIGN_OR_RETURN(OnnxValue targetInput, c.input(1));
  if (!targetInput.constant()) return single(c.call("dyn.broadcast_to", {x, targetInput}));
  BYOC_ASSIGN_OR_RETURN(std::vector<int64_t> target, c.constantInts(1));
  BYOC_TRY(checkShape(target));
  BYOC_ASSIGN_OR_RETURN(Shape shape, ops::broadcastShapes("Expand", x.shape(), Shape(target.begin(), target.end())));
  return single(c.call("broadcast_to", {x}, {{"shape", AttrValue::ints(shape)}}));
}

/// Tile: tile(reps), or dyn.tile of repeats computed at run time.
Result<OnnxOutputs> tile(const OnnxNodeContext& c) {
  BYOC_ASSIGN_OR_RETURN(OnnxValue x, c.input(0));
  BYOC_ASSIGN_OR_RETURN(OnnxValue reps, c.input(1));
  if (!reps.constant()) {
    if (reps.rank() != 1 || reps.shape()[0] != static_cast<int64_t>(x.rank()))
      return makeError("repeats of type " + typeToString(reps.type) + ": expected " + std::to_string(x.rank()) +
                       " counts, one per axis of the input");
    return single(c.call("dyn.tile", {x, reps}));
  }
  BYOC_ASSIGN_OR_RETURN(std::vector<int64_t> repeats, c.constantInts(1));
  if (repeats.size() != x.rank())
    return makeError("repeats " + listString(repeats) + ": expected " + std::to_string(x.rank()) +
                     " counts, one per axis of the input");
  return single(c.call("tile", {x}, {{"reps", AttrValue::ints(repeats)}}));
}

/// Refuses a Range whose values (computed as 8-byte numbers before they become the folded
/// constant) would take more than a folded constant may.
Status checkFoldedRange(int64_t count) {
  if (count > limits::kMaxFoldedBytes / 8)
    return makeError("Range has " + std::to_string(count) + " elements: more than " +
                     std::to_string(limits::kMaxFoldedBytes) + " bytes (the limit of a folded constant)");
  return Status::ok();
}

/// Integer Range: start + i * delta, exact for every int64 bound.
Result<std::vector<int64_t>> integerRange(int64_t start, int64_t limit, int64_t delta) {
  BYOC_ASSIGN_OR_RETURN(int64_t count, ops::rangeLength(start, limit, delta));
  BYOC_TRY(checkFoldedRange(count));
  std::vector<int64_t> values(static_cast<std::size_t>(count));
  // Every value lies between start and limit, so none overflows.
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = start + static_cast<int64_t>(i) * delta;
  return values;
}

/// Floating-point Range: start + i * delta.
Result<std::vector<double>> floatRange(double start, double limit, double delta) {
  BYOC_ASSIGN_OR_RETURN(int64_t count, ops::rangeLength(start, limit, delta));
  BYOC_TRY(checkFoldedRange(count));
  std::vector<double> values(static_cast<std::size_t>(count));
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = start + static_cast<double>(i) * delta;
  return values;
}

/// Range of constant bounds folds to its constant (TVM's arange of constants, after FoldConstant);
/// bounds computed at run time give arange of the scalars, whose length is then unknown.
Result<OnnxOutputs> range(const OnnxNodeContext& c) {
  bool constant = true;
  std::vector<OnnxValue> scalars;
  for (std::size_t i = 0; i < 3; ++i) {
    BYOC_ASSIGN_OR_RETURN(OnnxValue bound, c.input(i));
    if (!bound.tensor() || bound.tensor()->numElements() != 1)
      return makeError("Range's input " + std::to_string(i) + " is " + typeToString(bound.type) +
                       "; expected a scalar");
    constant = constant && bound.constant();
    scalars.push_back(bound);
  }
  if (!constant) {
    for (OnnxValue& scalar : scalars)
      if (scalar.rank() != 0) {
        BYOC_ASSIGN_OR_RETURN(scalar, c.call("reshape", {scalar}, {{"newshape", AttrValue::ints({})}}));
      }
    return single(c.call("arange", scalars));
  }
  const DType dtype = c.input(0)->constant()->dtype();
  std::vector<double> values;
  if (!isFloat(dtype)) {
    std::vector<int64_t> bounds;
    for (std::size_t i = 0; i < 3; ++i) bounds.push_back(c.constantInts(i)->front());
    BYOC_ASSIGN_OR_RETURN(std::vector<int64_t> ints, integerRange(bounds[0], bounds[1], bounds[2]));
    const auto count = static_cast<int64_t>(ints.size());
    if (dtype == DType::Int64) return OnnxOutputs{c.constant(intsToTensor(ints, {count}))};
    values.assign(ints.begin(), ints.end());  // int16 and int32 values are exact as doubles
  } else {
    std::vector<double> bounds;
    for (std::size_t i = 0; i < 3; ++i) bounds.push_back(c.constantFloats(i)->front());
    BYOC_ASSIGN_OR_RETURN(values, floatRange(bounds[0], bounds[1], bounds[2]));
  }
  std::vector<std::byte> bytes;
  bytes.reserve(values.size() * dtypeSize(dtype));
  for (double value : values) {
    TensorData element = TensorData::scalar(dtype, value);
    bytes.insert(bytes.end(), element.bytes().begin(), element.bytes().end());
  }
  return OnnxOutputs{c.constant(TensorData::fromBytes(dtype, {static_cast<int64_t>(values.size())}, bytes))};
}

/// TopK → topk with int64 indices; largest=0 sorts ascending. A K computed at run time makes it
/// dyn.topk (TVM's topk with a tensor k).
Result<OnnxOutputs> topK(const OnnxNodeContext& c) {
  BYOC_ASSIGN_OR_RETURN(OnnxValue x, c.input(0));
  BYOC_ASSIGN_OR_RETURN(OnnxValue kInput, c.input(1));
  BYOC_ASSIGN_OR_RETURN(int64_t axis, c.attrs.getInt("axis", -1));
  BYOC_ASSIGN_OR_RETURN(axis, onnxAxis(axis, x.rank()));
  BYOC_ASSIGN_OR_RETURN(int64_t largest, c.attrs.getInt("largest", 1));
  Attrs attrs{{"axis", axis}, {"is_ascend", largest == 0}, {"dtype", "int64"}};
  OnnxValue both;
  if (kInput.constant()) {
    BYOC_ASSIGN_OR_RETURN(std::vector<int64_t> k, c.constantInts(1));
    if (k.size() != 1 || k[0] < 1) return makeError("K " + listString(k) + ": expected one positive count");
    attrs.set("k", AttrValue(k[0]));
    BYOC_ASSIGN_OR_RETURN(both, c.call("topk", {x}, attrs));
  } else {
    BYOC_ASSIGN_OR_RETURN(both, c.call("dyn.topk", {x, kInput}, attrs));
  }
  BYOC_ASSIGN_OR_RETURN(OnnxValue values, c.getItem(both, 0));
  BYOC_ASSIGN_OR_RETURN(OnnxValue indices, c.getItem(both, 1));
  return OnnxOutputs{values, indices};
}

/// ONNX's index tuples lie on the last axis; the IR's on the first, so they are transposed.
Result<OnnxValue> tuplesFirst(const OnnxNodeContext& c, const OnnxValue& indices) {
  if (indices.rank() == 0) return makeError("indices must have rank 1 or more; found a scalar");
  std::vector<int64_t> axes{static_cast<int64_t>(indices.rank()) - 1};
  for (std::size_t i = 0; i + 1 < indices.rank(); ++i) axes.push_back(static_cast<int64_t>(i));
  return c.call("transpose", {indices}, {{"axes", AttrValue::ints(axes)}});
}

Result<OnnxOutputs> gatherNd(const OnnxNodeContext& c) {
  BYOC_ASSIGN_OR_RETURN(OnnxValue data, c.input(0));
  BYOC_ASSIGN_OR_RETURN(OnnxValue indices, c.input(1));
  BYOC_ASSIGN_OR_RETURN(int64_t batchDims, c.attrs.getInt("batch_dims", 0));
  BYOC_ASSIGN_OR_RETURN(OnnxValue tuples, tuplesFirst(c, indices));
  return single(c.call("gather_nd", {data, tuples}, {{"batch_dims", batchDims}, {"index_rank", indices.shape().back()}}));
}

Result<OnnxOutputs> scatterNd(const OnnxNodeContext& c) {
  BYOC_ASSIGN_OR_RETURN(OnnxValue data, c.input(0));
  BYOC_ASSIGN_OR_RETURN(OnnxValue indices, c.input(1));
  BYOC_ASSIGN_OR_RETURN(OnnxValue updates, c.input(2));
  BYOC_ASSIGN_OR_RETURN(std::string reduction, c.attrs.getString("reduction", "none"));
  if (reduction != "none" && reduction != "add" && reduction != "mul" && reduction != "min" && reduction != "max")
    return makeError("reduction \"" + reduction + "\"; expected none, add, mul, min or max");
  BYOC_ASSIGN_OR_RETURN(OnnxValue tuples, tuplesFirst(c, indices));
  return single(c.call("scatter_nd", {data, tuples, updates}, {{"mode", reduction == "none" ? "update" : reduction}}));
}

/// CumSum; reverse=1 runs it between two reverses, as TVM's importer does.
Result<OnnxOutputs> cumSum(const OnnxNodeContext& c) {
  BYOC_ASSIGN_OR_RETURN(OnnxValue x, c.input(0));
  BYOC_ASSIGN_OR_RETURN(std::vector<int64_t> axes, c.constantInts(1));
  if (axes.size() != 1) return makeError("axis " + listString(axes) + ": expected one axis");
  BYOC_ASSIGN_OR_RETURN(int64_t axis, onnxAxis(axes[0], x.rank()));
  BYOC_ASSIGN_OR_RETURN(int64_t exclusive, c.attrs.getInt("exclusive", 0));
  BYOC_ASSIGN_OR_RETURN(int64_t reverse, c.attrs.getInt("reverse", 0));
  const Attrs scan{{"axis", axis}, {"exclusive", exclusive != 0}};
  if (!reverse) return single(c.call("cumsum", {x}, scan));
  BYOC_ASSIGN_OR_RETURN(OnnxValue reversed, c.call("reverse", {x}, {{"axis", axis}}));
  BYOC_ASSIGN_OR_RETURN(OnnxValue sums, c.call("cumsum", {reversed}, scan));
  return single(c.call("reverse", {sums}, {{"axis", axis}}));
}

}  // namespace

void addIndexingConverters(OnnxConverterTable& table) {
  table["Expand"] = expand;
  table["Tile"] = tile;
  table["Range"] = range;
  table["TopK"] = topK;
  table["GatherND"] = gatherNd;
  table["ScatterND"] = scatterNd;
  table["CumSum"] = cumSum;
}

}  // namespace byoc::onnx_import
