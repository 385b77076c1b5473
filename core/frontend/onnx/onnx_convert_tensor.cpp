/// \file
/// Converters of the ONNX ops that move, reshape, select or reduce data, and of the ops that
/// produce constants (Constant, ConstantOfShape, and Shape, which folds to the input's static shape
/// and is the run-time shape_of otherwise). Shape-like inputs (Slice's bounds, Pad's pads, …) must
/// be constants; Reshape's may be computed at run time.

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>

#include "frontend/onnx/onnx_converters.h"
#include "frontend/onnx/onnx_tensor.h"
#include "support/limits.h"

namespace byoc::onnx_import {

namespace {

Result<OnnxOutputs> concat(const OnnxNodeContext& c) {
  std::vector<OnnxValue> fields;
  for (std::size_t i = 0; i < c.inputCount(); ++i) {
    BYOC_ASSIGN_OR_RETURN(OnnxValue field, c.input(i));
    fields.push_back(field);
  }
  BYOC_ASSIGN_OR_RETURN(int64_t axis, c.attrs.getInt("axis"));
  if (!fields.empty()) BYOC_TRY(onnxAxis(axis, fields[0].rank()).status());
  return single(c.call("concatenate", {c.tuple(std::move(fields))}, {{"axis", axis}}));
}

/// Einsum: its operands become the tuple Relay's einsum takes, as TVM's importer writes it.
Result<OnnxOutputs> einsum(const OnnxNodeContext& c) {
  std::vector<OnnxValue> operands;
  for (std::size_t i = 0; i < c.inputCount(); ++i) {
    BYOC_ASSIGN_OR_RETURN(OnnxValue operand, c.input(i));
    operands.push_back(operand);
  }
  BYOC_ASSIGN_OR_RETURN(std::string equation, c.attrs.getString("equation"));
  return single(c.call("einsum", {c.tuple(std::move(operands))}, {{"equation", equation}}));
}

/// Checks Reshape's target against the limits before the op's relation computes with it: its
/// values are -1 (inferred), 0 (copied from the input) or sizes, and the shape they name, with -1
/// and unknown copied dimensions counted as 1, must be within the limits.
Status checkReshapeTarget(const OnnxValue& x, const std::vector<int64_t>& target) {
  Shape counted;
  for (std::size_t i = 0; i < target.size(); ++i) {
    int64_t value = target[i];
    if (value < -1)
      return makeError("shape value " + std::to_string(value) + " at position " + std::to_string(i) +
                       "; expected -1, 0 or a size");
    counted.push_back(value == 0 && i < x.rank() ? x.shape()[i] : std::max<int64_t>(value, 1));
  }
  Status limited = checkShape(counted, true);
  if (!limited) return makeError("the new shape " + listString(target) + " gives " + limited.error().message);
  return Status::ok();
}

/// The static newshape of a target computed at run time, when the import knows all its values but
/// one size: that one becomes -1 (inferred from the element count, as it must be that size).
std::optional<std::vector<int64_t>> staticTarget(const OnnxValue& target) {
  if (!target.partial) return std::nullopt;
  std::vector<int64_t> shape;
  int unknown = 0;
  for (const std::optional<int64_t>& value : *target.partial) {
    if (value == -1 || (!value && ++unknown > 1)) return std::nullopt;
    shape.push_back(value.value_or(-1));
  }
  return shape;
}

/// Reshape to a target computed at run time: a static reshape when the import knows every size but
/// one, else `dyn.reshape`.
Result<OnnxOutputs> reshapeToRunTimeTarget(const OnnxNodeContext& c, const OnnxValue& x, const OnnxValue& target,
                                           int64_t allowZero) {
  if (std::optional<std::vector<int64_t>> shape = staticTarget(target)) {
    if (allowZero != 0 && std::find(shape->begin(), shape->end(), 0) != shape->end())
      return makeError("Reshape with allowzero=1 and a 0 in the shape is not supported");
    BYOC_TRY(checkReshapeTarget(x, *shape));
    return single(c.call("reshape", {x}, {{"newshape", AttrValue::ints(*shape)}}));
  }
  if (allowZero != 0) return makeError("Reshape with allowzero=1 to a shape computed at run time is not supported");
  return single(c.call("dyn.reshape", {x, target}));
}

Result<OnnxOutputs> reshape(const OnnxNodeContext& c) {
  BYOC_ASSIGN_OR_RETURN(OnnxValue x, c.input(0));
  BYOC_ASSIGN_OR_RETURN(int64_t allowZero, c.attrs.getInt("allowzero", 0));
  BYOC_ASSIGN_OR_RETURN(OnnxValue target, c.input(1));
  if (!target.constant()) return reshapeToRunTimeTarget(c, x, target, allowZero);
  BYOC_ASSIGN_OR_RETURN(std::vector<int64_t> shape, c.constantInts(1));
  if (allowZero != 0 && std::find(shape.begin(), shape.end(), 0) != shape.end())
    return makeError("Reshape with allowzero=1 and a 0 in the shape is not supported");
  BYOC_TRY(checkReshapeTarget(x, shape));
  return single(c.call("reshape", {x}, {{"newshape", AttrValue::ints(shape)}}));
}

/// Flatten at axis 1 is nn.batch_flatten (as TVM imports it); other axes reshape to 2-D.
Result<OnnxOutputs> flatten(const OnnxNodeContext& c) {
  BYOC_ASSIGN_OR_RETURN(OnnxValue x, c.input(0));
  BYOC_ASSIGN_OR_RETURN(int64_t axis, c.attrs.getInt("axis", 1));
  if (axis < 0) axis += static_cast<int64_t>(x.rank());
  auto rank = static_cast<int64_t>(x.rank());
  if (axis < 0 || axis > rank)
    return makeError("axis " + std::to_string(axis) + " is out of range for rank " + std::to_string(rank) +
                     "; expected " + std::to_string(-rank) + " to " + std::to_string(rank));
  if (axis == 1) return single(c.call("nn.batch_flatten", {x}));
  int64_t outer = 1;
  for (int64_t i = 0; i < axis; ++i) {
    int64_t dim = x.shape()[static_cast<std::size_t>(i)];
    if (dim == kAnyDim)
      return makeError("Flatten at axis " + std::to_string(axis) + " of a tensor of shape " + shapeString(x.shape()) +
                       " needs the sizes before the axis; dimension " + std::to_string(i) + " is unknown");
    outer *= dim;
  }
  return single(c.call("reshape", {x}, {{"newshape", AttrValue::ints({outer, -1})}}));
}

Result<OnnxOutputs> transpose(const OnnxNodeContext& c) {
  BYOC_ASSIGN_OR_RETURN(OnnxValue x, c.input(0));
  std::vector<int64_t> reversed(x.rank());
  for (std::size_t i = 0; i < reversed.size(); ++i) reversed[i] = static_cast<int64_t>(reversed.size() - 1 - i);
  BYOC_ASSIGN_OR_RETURN(std::vector<int64_t> perm, c.attrs.getInts("perm", reversed));
  if (perm.size() != x.rank())
    return makeError("perm " + listString(perm) + " lists " + std::to_string(perm.size()) + " axes; expected " +
                     std::to_string(x.rank()) + ", the input's rank");
  BYOC_TRY(onnxAxes(perm, x.rank()).status());
  return single(c.call("transpose", {x}, {{"axes", AttrValue::ints(perm)}}));
}

/// The axes of Squeeze, Unsqueeze and the reductions: input `inputIndex` from opset `inputFrom`
/// (13 for Squeeze, Unsqueeze and ReduceSum, 18 for the other reductions), an attribute before.
Result<std::optional<std::vector<int64_t>>> axesOf(const OnnxNodeContext& c, std::size_t inputIndex, int64_t inputFrom = 13) {
  if (c.opset >= inputFrom && c.inputCount() > inputIndex) {
    if (!c.hasInput(inputIndex)) return std::optional<std::vector<int64_t>>();
    BYOC_ASSIGN_OR_RETURN(std::vector<int64_t> axes, c.constantInts(inputIndex));
    return std::optional<std::vector<int64_t>>(axes);
  }
  if (!c.attrs.has("axes")) return std::optional<std::vector<int64_t>>();
  BYOC_ASSIGN_OR_RETURN(std::vector<int64_t> axes, c.attrs.getInts("axes"));
  return std::optional<std::vector<int64_t>>(axes);
}

Result<OnnxOutputs> squeeze(const OnnxNodeContext& c) {
  BYOC_ASSIGN_OR_RETURN(OnnxValue x, c.input(0));
  BYOC_ASSIGN_OR_RETURN(std::optional<std::vector<int64_t>> axes, axesOf(c, 1));
  if (axes) BYOC_TRY(onnxAxes(*axes, x.rank()).status());
  return single(c.call("squeeze", {x}, {{"axis", axes ? AttrValue::ints(*axes) : AttrValue()}}));
}

/// Unsqueeze as one expand_dims per new axis, in increasing order of output position.
Result<OnnxOutputs> unsqueeze(const OnnxNodeContext& c) {
  BYOC_ASSIGN_OR_RETURN(OnnxValue x, c.input(0));
  BYOC_ASSIGN_OR_RETURN(std::optional<std::vector<int64_t>> given, axesOf(c, 1));
  if (!given) return makeError("missing axes");
  // The rank is checked first: it bounds the work (one expand_dims per axis, each of that rank).
  if (x.rank() + given->size() > static_cast<std::size_t>(limits::kMaxRank))
    return makeError("adding " + std::to_string(given->size()) + " axes to rank " + std::to_string(x.rank()) +
                     " exceeds the limit of " + std::to_string(limits::kMaxRank) + " dimensions");
  BYOC_ASSIGN_OR_RETURN(std::vector<int64_t> axes, onnxAxes(*given, x.rank() + given->size()));
  std::sort(axes.begin(), axes.end());
  OnnxValue result = x;
  for (int64_t axis : axes) {
    BYOC_ASSIGN_OR_RETURN(result, c.call("expand_dims", {result}, {{"axis", axis}, {"num_newaxis", 1}}));
  }
  return OnnxOutputs{result};
}

/// Slice: the bounds are constant inputs (opset 10 on). Bounds beyond the axis (exporters write
/// INT64_MAX for "to the end") are clamped to it.
Result<OnnxOutputs> slice(const OnnxNodeContext& c) {
  BYOC_ASSIGN_OR_RETURN(OnnxValue x, c.input(0));
  BYOC_ASSIGN_OR_RETURN(std::vector<int64_t> starts, c.constantInts(1));
  BYOC_ASSIGN_OR_RETURN(std::vector<int64_t> ends, c.constantInts(2));
  std::vector<int64_t> axes, steps;
  if (c.hasInput(3)) {
    BYOC_ASSIGN_OR_RETURN(axes, c.constantInts(3));
  }
  if (c.hasInput(4)) {
    BYOC_ASSIGN_OR_RETURN(steps, c.constantInts(4));
  }
  if (axes.empty())
    for (std::size_t i = 0; i < starts.size(); ++i) axes.push_back(static_cast<int64_t>(i));
  if (steps.empty()) steps.assign(starts.size(), 1);
  if (ends.size() != starts.size() || axes.size() != starts.size() || steps.size() != starts.size())
    return makeError("starts, ends, axes and steps must have the same length");
  BYOC_ASSIGN_OR_RETURN(axes, onnxAxes(axes, x.rank()));
  for (std::size_t i = 0; i < axes.size(); ++i) {
    int64_t extent = x.shape()[static_cast<std::size_t>(axes[i])];
    // An axis of unknown size is at most the longest a tensor may be; the slice is computed at run time.
    if (extent == kAnyDim) extent = limits::kMaxElements;
    auto clampBound = [extent](int64_t bound) { return std::clamp<int64_t>(bound, -extent - 1, extent); };
    starts[i] = clampBound(starts[i]);
    ends[i] = clampBound(ends[i]);
    // A step longer than the axis takes one element, as a step of the axis' length does.
    int64_t longest = std::max<int64_t>(extent, 1);
    steps[i] = std::clamp<int64_t>(steps[i], -longest, longest);
  }
  return single(c.call("strided_slice", {x},
                       {{"begin", AttrValue::ints(starts)},
                        {"end", AttrValue::ints(ends)},
                        {"strides", AttrValue::ints(steps)},
                        {"axes", AttrValue::ints(axes)}}));
}

/// Checks that split sizes are not negative and add up to the axis' size `extent`.
Status checkSplitSizes(const std::vector<int64_t>& sizes, int64_t axis, int64_t extent) {
  int64_t total = 0;
  for (int64_t size : sizes) {
    std::optional<int64_t> sum = limits::checkedAdd(total, size);
    if (size < 0 || !sum)
      return makeError("split size " + std::to_string(size) + " in " + listString(sizes) + "; expected sizes of 0 or more");
    total = *sum;
  }
  if (total != extent)
    return makeError("split sizes " + listString(sizes) + " add up to " + std::to_string(total) + "; expected " +
                     (extent == kAnyDim ? std::string("axis ") + std::to_string(axis) + " of known size"
                                        : std::to_string(extent) + ", the size of axis " + std::to_string(axis)));
  return Status::ok();
}

/// The part sizes of Split's `num_outputs` (opset 18): equal parts of ceil(extent / n), the last
/// one smaller when the axis does not divide evenly.
Result<std::vector<int64_t>> numOutputsSizes(const OnnxNodeContext& c, int64_t extent) {
  BYOC_ASSIGN_OR_RETURN(int64_t parts, c.attrs.getInt("num_outputs"));
  if (parts != c.node.output_size())
    return makeError("num_outputs " + std::to_string(parts) + " differs from the " + std::to_string(c.node.output_size()) +
                     " outputs of the node");
  if (extent == kAnyDim) return makeError("num_outputs splits an axis of unknown size; expected a known size");
  const int64_t chunk = (extent + parts - 1) / parts;
  const int64_t last = extent - chunk * (parts - 1);
  if (last <= 0)
    return makeError("num_outputs " + std::to_string(parts) + " cannot split an axis of size " + std::to_string(extent) +
                     " into parts of " + std::to_string(chunk) + " with a smaller last one");
  std::vector<int64_t> sizes(static_cast<std::size_t>(parts - 1), chunk);
  sizes.push_back(last);
  return sizes;
}

/// Split into the sizes of the `split` input (opset 13) or attribute (before), or equal parts.
Result<OnnxOutputs> split(const OnnxNodeContext& c) {
  BYOC_ASSIGN_OR_RETURN(OnnxValue x, c.input(0));
  BYOC_ASSIGN_OR_RETURN(int64_t axis, c.attrs.getInt("axis", 0));
  BYOC_ASSIGN_OR_RETURN(axis, onnxAxis(axis, x.rank()));
  std::vector<int64_t> sizes;
  if (c.opset >= 13) {
    if (c.hasInput(1)) {
      BYOC_ASSIGN_OR_RETURN(sizes, c.constantInts(1));
    } else if (c.opset >= 18 && c.attrs.has("num_outputs")) {
      BYOC_ASSIGN_OR_RETURN(sizes, numOutputsSizes(c, x.shape()[static_cast<std::size_t>(axis)]));
    }
  } else {
    BYOC_ASSIGN_OR_RETURN(sizes, c.attrs.getInts("split", std::vector<int64_t>{}));
  }
  auto outputs = static_cast<int64_t>(c.node.output_size());
  AttrValue sections = outputs;
  if (!sizes.empty()) {
    if (static_cast<int64_t>(sizes.size()) != outputs)
      return makeError("split lists " + std::to_string(sizes.size()) + " sizes for " + std::to_string(outputs) + " outputs");
    BYOC_TRY(checkSplitSizes(sizes, axis, x.shape()[static_cast<std::size_t>(axis)]));
    std::vector<int64_t> indices;
    int64_t offset = 0;
    for (std::size_t i = 0; i + 1 < sizes.size(); ++i) indices.push_back(offset += sizes[i]);
    sections = AttrValue::ints(indices);
  }
  BYOC_ASSIGN_OR_RETURN(OnnxValue parts, c.call("split", {x}, {{"indices_or_sections", sections}, {"axis", axis}}));
  OnnxOutputs result;
  for (int i = 0; i < static_cast<int>(outputs); ++i) {
    BYOC_ASSIGN_OR_RETURN(OnnxValue part, c.getItem(parts, i));
    result.push_back(part);
  }
  return result;
}

/// Gather → take; constant indices are checked against the axis (take would clip them) and
/// negative ones made positive. Indices computed at run time take mode "fast", which assumes
/// them in range and which the runtime checks, as ONNX requires.
Result<OnnxOutputs> gather(const OnnxNodeContext& c) {
  BYOC_ASSIGN_OR_RETURN(OnnxValue data, c.input(0));
  BYOC_ASSIGN_OR_RETURN(OnnxValue indices, c.input(1));
  BYOC_ASSIGN_OR_RETURN(int64_t axis, c.attrs.getInt("axis", 0));
  BYOC_ASSIGN_OR_RETURN(axis, onnxAxis(axis, data.rank()));
  const TensorData* constant = indices.constant();
  if (!constant) return single(c.call("take", {data, indices}, {{"axis", axis}, {"mode", "fast"}}));
  if (!isFloat(constant->dtype())) {
    std::vector<int64_t> values = tensorToInts(*constant);
    bool anyNegative = std::any_of(values.begin(), values.end(), [](int64_t v) { return v < 0; });
    BYOC_ASSIGN_OR_RETURN(values, gatherIndices(std::move(values), axis, data.shape()[static_cast<std::size_t>(axis)]));
    if (anyNegative) indices = c.constant(intsToTensor(values, constant->shape()));
  }
  return single(c.call("take", {data, indices}, {{"axis", axis}}));
}

/// Checks the shape `pads` give `shape` (ONNX's [begins…, ends…]; negative pads crop) with
/// checked arithmetic against the limits; an axis of unknown size may not be padded.
Status checkPaddedShape(const Shape& shape, const std::vector<int64_t>& pads) {
  Shape padded;
  for (std::size_t i = 0; i < shape.size(); ++i) {
    int64_t before = pads[i];
    int64_t after = pads[i + shape.size()];
    if (shape[i] == kAnyDim) {
      if (before != 0 || after != 0)
        return makeError("pads " + listString(pads) + " pad axis " + std::to_string(i) + ", whose size is unknown");
      padded.push_back(kAnyDim);
      continue;
    }
    std::optional<int64_t> size = limits::checkedAdd(shape[i], before);
    if (size) size = limits::checkedAdd(*size, after);
    if (!size || *size < 0)
      return makeError("pads " + listString(pads) + " make axis " + std::to_string(i) + " of size " +
                       std::to_string(shape[i]) + " negative or too large");
    padded.push_back(*size);
  }
  Status limited = checkShape(padded, true);
  if (!limited) return makeError("pads " + listString(pads) + " give " + limited.error().message);
  return Status::ok();
}

/// Pad's `pads` for the listed `axes` (opset 18: begins then ends, one pair per listed axis)
/// spread over every axis of a tensor of `rank`, the others unpadded.
Result<std::vector<int64_t>> padsOfAllAxes(const std::vector<int64_t>& pads, const std::vector<int64_t>& axes,
                                           std::size_t rank) {
  BYOC_ASSIGN_OR_RETURN(std::vector<int64_t> normalized, onnxAxes(axes, rank));
  if (pads.size() != 2 * axes.size())
    return makeError("pads must have " + std::to_string(2 * axes.size()) + " values for axes " + listString(axes) +
                     ", found " + std::to_string(pads.size()));
  std::vector<int64_t> all(2 * rank, 0);
  for (std::size_t i = 0; i < normalized.size(); ++i) {
    const auto axis = static_cast<std::size_t>(normalized[i]);
    all[axis] = pads[i];
    all[axis + rank] = pads[i + axes.size()];
  }
  return all;
}

/// Pad: the pads, the optional constant value and the optional axes (opset 18) are constant inputs.
Result<OnnxOutputs> pad(const OnnxNodeContext& c) {
  BYOC_ASSIGN_OR_RETURN(OnnxValue x, c.input(0));
  BYOC_ASSIGN_OR_RETURN(std::vector<int64_t> pads, c.constantInts(1));
  double value = 0.0;
  if (c.hasInput(2)) {
    BYOC_ASSIGN_OR_RETURN(std::vector<double> values, c.constantFloats(2));
    if (values.size() != 1) return makeError("constant_value must be a scalar");
    value = values[0];
  }
  if (c.hasInput(3)) {
    BYOC_ASSIGN_OR_RETURN(std::vector<int64_t> axes, c.constantInts(3));
    BYOC_ASSIGN_OR_RETURN(pads, padsOfAllAxes(pads, axes, x.rank()));
  }
  if (pads.size() != 2 * x.rank())
    return makeError("pads must have " + std::to_string(2 * x.rank()) + " values, found " + std::to_string(pads.size()));
  BYOC_TRY(checkPaddedShape(x.shape(), pads));
  BYOC_ASSIGN_OR_RETURN(std::string mode, c.attrs.getString("mode", "constant"));
  if (mode != "constant" && mode != "reflect" && mode != "edge")
    return makeError("Pad mode \"" + mode + "\" is not supported; expected constant, reflect or edge");
  AttrValue::List width;
  for (std::size_t i = 0; i < x.rank(); ++i) width.push_back(AttrValue::ints({pads[i], pads[i + x.rank()]}));
  DType dtype = x.tensor() ? x.tensor()->dtype : DType::Float32;
  return single(c.call("nn.pad", {x, c.scalar(dtype, value)}, {{"pad_width", width}, {"pad_mode", mode}}));
}

/// ReduceMean and friends; their axes become an input from opset `axesInputFrom` (13 for
/// ReduceSum, 18 for the others).
OnnxConverter reduce(std::string op, int64_t axesInputFrom) {
  return [op, axesInputFrom](const OnnxNodeContext& c) -> Result<OnnxOutputs> {
    BYOC_ASSIGN_OR_RETURN(OnnxValue x, c.input(0));
    BYOC_ASSIGN_OR_RETURN(std::optional<std::vector<int64_t>> axes, axesOf(c, 1, axesInputFrom));
    if (axes) BYOC_TRY(onnxAxes(*axes, x.rank()).status());
    BYOC_ASSIGN_OR_RETURN(int64_t keepdims, c.attrs.getInt("keepdims", 1));
    BYOC_ASSIGN_OR_RETURN(int64_t noopWithEmptyAxes, c.attrs.getInt("noop_with_empty_axes", 0));
    if (noopWithEmptyAxes && (!axes || axes->empty())) return OnnxOutputs{x};
    return single(c.call(op, {x}, {{"axis", axes ? AttrValue::ints(*axes) : AttrValue()}, {"keepdims", keepdims != 0}}));
  };
}

/// Shape folds to a constant when the input's shape is static. Otherwise it is the run-time
/// `shape_of` (sliced to [start, end)), whose known sizes are attached for folding.
Result<OnnxOutputs> shape(const OnnxNodeContext& c) {
  BYOC_ASSIGN_OR_RETURN(OnnxValue x, c.input(0));
  const Shape& dims = x.shape();
  auto rank = static_cast<int64_t>(dims.size());
  BYOC_ASSIGN_OR_RETURN(int64_t start, c.attrs.getInt("start", 0));
  BYOC_ASSIGN_OR_RETURN(int64_t end, c.attrs.getInt("end", rank));
  if (start < 0) start += rank;
  if (end < 0) end += rank;
  start = std::clamp<int64_t>(start, 0, rank);
  end = std::clamp<int64_t>(end, start, rank);
  std::vector<int64_t> values(dims.begin() + start, dims.begin() + end);
  if (std::find(values.begin(), values.end(), kAnyDim) == values.end())
    return OnnxOutputs{c.constant(intsToTensor(values, {end - start}))};
  BYOC_ASSIGN_OR_RETURN(OnnxValue result, c.call("shape_of", {x}, {{"dtype", "int64"}}));
  if (start != 0 || end != rank) {
    BYOC_ASSIGN_OR_RETURN(result, c.call("strided_slice", {result},
                                         {{"begin", AttrValue::ints({start})},
                                          {"end", AttrValue::ints({end})},
                                          {"strides", AttrValue::ints({1})},
                                          {"axes", AttrValue::ints({0})}}));
  }
  auto partial = std::make_shared<std::vector<std::optional<int64_t>>>();
  for (int64_t dim : values) partial->push_back(dim == kAnyDim ? std::nullopt : std::optional<int64_t>(dim));
  result.partial = std::move(partial);
  return OnnxOutputs{result};
}

/// NonZero: the indices of the non-zero elements as [rank, count] int64, TVM's
/// transpose(cast(argwhere(x), "int64")); count is known only at run time.
Result<OnnxOutputs> nonZero(const OnnxNodeContext& c) {
  BYOC_ASSIGN_OR_RETURN(OnnxValue x, c.input(0));
  if (x.rank() == 0) return makeError("NonZero of a scalar is not supported; expected rank 1 or more");
  BYOC_ASSIGN_OR_RETURN(OnnxValue rows, c.call("argwhere", {x}));
  BYOC_ASSIGN_OR_RETURN(OnnxValue wide, c.call("cast", {rows}, {{"dtype", "int64"}}));
  return single(c.call("transpose", {wide}, {{"axes", AttrValue::ints({1, 0})}}));
}

/// The tensor of the `value` attribute. Its data must be inside the model: external data is read
/// only for initializers, whose location is resolved in the model's directory.
Result<TensorData> valueAttribute(const OnnxNodeContext& c) {
  BYOC_ASSIGN_OR_RETURN(const onnx::TensorProto* proto, c.attrs.getTensor("value"));
  if (proto->data_location() == onnx::TensorProto::EXTERNAL)
    return makeError("attribute 'value' keeps its data outside the model; expected it inside (external data is "
                     "supported for initializers)");
  return tensorFromProto(*proto, "");
}

/// Constant: the `value` tensor, or one of the scalar/list shorthands.
Result<OnnxOutputs> constant(const OnnxNodeContext& c) {
  std::string name = c.node.output_size() > 0 ? c.node.output(0) : std::string();
  if (c.attrs.has("value")) {
    BYOC_ASSIGN_OR_RETURN(TensorData data, valueAttribute(c));
    return OnnxOutputs{c.constant(std::move(data), name)};
  }
  if (c.attrs.has("value_float")) {
    BYOC_ASSIGN_OR_RETURN(double value, c.attrs.getFloat("value_float"));
    return OnnxOutputs{c.constant(TensorData::scalar(DType::Float32, value), name)};
  }
  if (c.attrs.has("value_int")) {
    BYOC_ASSIGN_OR_RETURN(int64_t value, c.attrs.getInt("value_int"));
    return OnnxOutputs{c.constant(intsToTensor({value}, {}), name)};
  }
  if (c.attrs.has("value_ints")) {
    BYOC_ASSIGN_OR_RETURN(std::vector<int64_t> values, c.attrs.getInts("value_ints"));
    return OnnxOutputs{c.constant(intsToTensor(values, {static_cast<int64_t>(values.size())}), name)};
  }
  if (c.attrs.has("value_floats")) {
    BYOC_ASSIGN_OR_RETURN(std::vector<float> values, c.attrs.getFloats("value_floats"));
    std::span<const std::byte> bytes(reinterpret_cast<const std::byte*>(values.data()), values.size() * sizeof(float));
    return OnnxOutputs{c.constant(TensorData::fromBytes(DType::Float32, {static_cast<int64_t>(values.size())}, bytes), name)};
  }
  return makeError("Constant has none of the supported attributes value, value_float, value_int, value_ints, value_floats");
}

/// ConstantOfShape: a constant filled with the one element of `value` (default float 0); of a
/// shape computed at run time, `dyn.full` of that value (TVM's full with a tensor shape).
Result<OnnxOutputs> constantOfShape(const OnnxNodeContext& c) {
  TensorData fill = TensorData::scalar(DType::Float32, 0.0);
  if (c.attrs.has("value")) {
    BYOC_ASSIGN_OR_RETURN(fill, valueAttribute(c));
    if (fill.numElements() != 1) return makeError("the value of ConstantOfShape must hold one element");
  }
  BYOC_ASSIGN_OR_RETURN(OnnxValue shapeInput, c.input(0));
  if (!shapeInput.constant()) {
    OnnxValue value = c.constant(TensorData::fromBytes(fill.dtype(), {}, fill.bytes()));
    return single(c.call("dyn.full", {value, shapeInput}, {{"dtype", std::string(dtypeName(fill.dtype()))}}));
  }
  BYOC_ASSIGN_OR_RETURN(std::vector<int64_t> shape, c.constantInts(0));
  BYOC_TRY(checkShape(shape));
  int64_t count = *limits::elementCount(shape);
  std::size_t size = dtypeSize(fill.dtype());
  if (count > limits::kMaxFoldedBytes / static_cast<int64_t>(size))
    return makeError("shape " + listString(shape) + " of " + std::string(dtypeName(fill.dtype())) +
                     ": more than " + std::to_string(limits::kMaxFoldedBytes) + " bytes (the limit of a folded constant)");
  std::vector<std::byte> bytes(static_cast<std::size_t>(count) * size);
  for (std::size_t i = 0; i < static_cast<std::size_t>(count); ++i)
    std::memcpy(bytes.data() + i * size, fill.bytes().data(), size);
  return OnnxOutputs{c.constant(TensorData(fill.dtype(), shape, std::make_shared<const std::vector<std::byte>>(std::move(bytes))))};
}

/// The size Resize gives an axis of size `extent` scaled by `scale`, floored as ONNX does; an
/// error for a scale that is not a positive number or a size beyond the element limit.
Result<int64_t> scaledSize(int64_t extent, double scale, std::size_t axis) {
  if (extent == kAnyDim)
    return makeError("Resize by scales of axis " + std::to_string(axis) + ", whose size is unknown, is not supported");
  double scaled = std::floor(static_cast<double>(extent) * scale);
  if (!(scale > 0.0) || !(scaled <= static_cast<double>(limits::kMaxElements))) {
    char text[32];
    std::string shortest(text, std::to_chars(text, text + sizeof(text), scale).ptr);
    return makeError("scale " + shortest + " of axis " + std::to_string(axis) + " (size " +
                     std::to_string(extent) + ") is not supported; expected a positive number giving at most " +
                     std::to_string(limits::kMaxElements) + " elements");
  }
  return static_cast<int64_t>(scaled);
}

std::string resizeMethod(const std::string& mode) {
  if (mode == "nearest") return "nearest_neighbor";
  return mode;
}

/// Resize's `sizes` (input 3) or `scales` (input 2) for all four axes: opset 18's `axes` lists the
/// axes they are given for, the others keeping their size (scale 1).
template <typename T>
Result<std::vector<T>> resizeValuesOfAllAxes(const OnnxNodeContext& c, std::vector<T> values, const char* what, T keep,
                                            const Shape& shape) {
  BYOC_ASSIGN_OR_RETURN(std::vector<int64_t> axes, c.attrs.getInts("axes", std::vector<int64_t>{0, 1, 2, 3}));
  BYOC_ASSIGN_OR_RETURN(axes, onnxAxes(axes, shape.size()));
  if (values.size() != axes.size())
    return makeError(std::string(what) + " must have " + std::to_string(axes.size()) + " values, one per axis of " +
                     listString(axes) + ", found " + std::to_string(values.size()));
  std::vector<T> all(shape.size(), keep);
  for (std::size_t i = 0; i < axes.size(); ++i) all[static_cast<std::size_t>(axes[i])] = values[i];
  if constexpr (std::is_same_v<T, int64_t>)
    for (std::size_t axis = 0; axis < all.size(); ++axis)
      if (all[axis] == kAnyDim) all[axis] = shape[axis];
  return all;
}

/// Resize of the two spatial axes of an NCHW tensor, to constant sizes or scales (opsets 11–20;
/// antialiasing, aspect-ratio policies and half_pixel_symmetric are refused).
Result<OnnxOutputs> resize(const OnnxNodeContext& c) {
  BYOC_ASSIGN_OR_RETURN(OnnxValue x, c.input(0));
  if (x.rank() != 4) return makeError("only rank-4 (NCHW) Resize is supported, found rank " + std::to_string(x.rank()));
  BYOC_ASSIGN_OR_RETURN(int64_t antialias, c.attrs.getInt("antialias", 0));
  if (antialias != 0) return makeError("Resize with antialias is not supported");
  BYOC_ASSIGN_OR_RETURN(std::string policy, c.attrs.getString("keep_aspect_ratio_policy", "stretch"));
  if (policy != "stretch")
    return makeError("Resize keep_aspect_ratio_policy \"" + policy + "\" is not supported; expected stretch");
  std::vector<int64_t> size;
  if (c.hasInput(3)) {
    BYOC_ASSIGN_OR_RETURN(std::vector<int64_t> given, c.constantInts(3));
    BYOC_ASSIGN_OR_RETURN(std::vector<int64_t> sizes, resizeValuesOfAllAxes<int64_t>(c, given, "sizes", kAnyDim, x.shape()));
    size = {sizes[2], sizes[3]};
    if (size[0] < 0 || size[1] < 0)
      return makeError("sizes " + listString(given) + " hold a negative size; expected sizes of 0 or more");
  } else {
    BYOC_ASSIGN_OR_RETURN(std::vector<double> given, c.constantFloats(2));
    BYOC_ASSIGN_OR_RETURN(std::vector<double> scales, resizeValuesOfAllAxes<double>(c, given, "scales", 1.0, x.shape()));
    if (scales[0] != 1.0 || scales[1] != 1.0) return makeError("Resize of the batch or channel axis is not supported");
    for (std::size_t axis : {2, 3}) {
      BYOC_ASSIGN_OR_RETURN(int64_t scaled, scaledSize(x.shape()[axis], scales[axis], axis));
      size.push_back(scaled);
    }
  }
  BYOC_ASSIGN_OR_RETURN(std::string mode, c.attrs.getString("mode", "nearest"));
  BYOC_ASSIGN_OR_RETURN(std::string transform, c.attrs.getString("coordinate_transformation_mode", "half_pixel"));
  BYOC_ASSIGN_OR_RETURN(std::string nearestMode, c.attrs.getString("nearest_mode", "round_prefer_floor"));
  BYOC_ASSIGN_OR_RETURN(double cubicA, c.attrs.getFloat("cubic_coeff_a", -0.75f));
  BYOC_ASSIGN_OR_RETURN(int64_t excludeOutside, c.attrs.getInt("exclude_outside", 0));
  BYOC_ASSIGN_OR_RETURN(double extrapolation, c.attrs.getFloat("extrapolation_value", 0.0f));
  if (mode != "nearest" && mode != "linear" && mode != "cubic")
    return makeError("Resize mode \"" + mode + "\" is not supported; expected nearest, linear or cubic");
  if (transform != "half_pixel" && transform != "pytorch_half_pixel" && transform != "align_corners" &&
      transform != "asymmetric" && transform != "tf_half_pixel_for_nn")
    return makeError("Resize coordinate_transformation_mode \"" + transform + "\" is not supported; expected half_pixel, "
                     "pytorch_half_pixel, align_corners, asymmetric or tf_half_pixel_for_nn");
  return single(c.call("image.resize2d", {x},
                       {{"size", AttrValue::ints(size)},
                        {"layout", "NCHW"},
                        {"method", resizeMethod(mode)},
                        {"coordinate_transformation_mode", transform},
                        {"rounding_method", mode == "nearest" ? nearestMode : std::string()},
                        {"cubic_alpha", cubicA},
                        {"cubic_exclude", excludeOutside},
                        {"extrapolation_value", extrapolation}}));
}

}  // namespace

void addTensorConverters(OnnxConverterTable& table) {
  table["Concat"] = concat;
  table["Einsum"] = einsum;
  table["Reshape"] = reshape;
  table["Flatten"] = flatten;
  table["Transpose"] = transpose;
  table["Squeeze"] = squeeze;
  table["Unsqueeze"] = unsqueeze;
  table["Slice"] = slice;
  table["Split"] = split;
  table["Gather"] = gather;
  table["Pad"] = pad;
  table["ReduceMean"] = reduce("mean", 18);
  table["ReduceSum"] = reduce("sum", 13);
  table["ReduceMax"] = reduce("max", 18);
  table["ReduceMin"] = reduce("min", 18);
  table["ReduceProd"] = reduce("prod", 18);
  table["Shape"] = shape;
  table["NonZero"] = nonZero;
  table["Constant"] = constant;
  table["ConstantOfShape"] = constantOfShape;
  table["Resize"] = resize;
}

}  // namespace byoc::onnx_import
