#include "frontend/onnx/onnx_converters.h"

namespace byoc::onnx_import {

const OnnxConverterTable& onnxConverters() {
  static const OnnxConverterTable table = [] {
    OnnxConverterTable built;
    addElementwiseConverters(built);
    addNeuralNetConverters(built);
    addTensorConverters(built);
    addQuantizationConverters(built);
    addIndexingConverters(built);
    addVisionConverters(built);
    return built;
  }();
  return table;
}

const OnnxConverterTable& onnxFolders() {
  static const OnnxConverterTable table = [] {
    OnnxConverterTable built;
    addFolders(built);
    addFloatFolders(built);
    return built;
  }();
  return table;
}

Result<int64_t> onnxAxis(int64_t axis, std::size_t rank) {
  auto r = static_cast<int64_t>(rank);
  if (axis < -r || axis >= r)
    return makeError("axis " + std::to_string(axis) + " is out of range for rank " + std::to_string(rank) +
                     (r == 0 ? "; a scalar has no axes" : "; expected " + std::to_string(-r) + " to " + std::to_string(r - 1)));
  return axis < 0 ? axis + r : axis;
}

Result<std::vector<int64_t>> onnxAxes(const std::vector<int64_t>& axes, std::size_t rank) {
  std::vector<int64_t> normalized;
  std::vector<bool> seen(rank, false);
  for (int64_t axis : axes) {
    BYOC_ASSIGN_OR_RETURN(int64_t a, onnxAxis(axis, rank));
    if (seen[static_cast<std::size_t>(a)])
      return makeError("axis " + std::to_string(axis) + " names axis " + std::to_string(a) +
                       " a second time; expected each axis once");
    seen[static_cast<std::size_t>(a)] = true;
    normalized.push_back(a);
  }
  return normalized;
}

Result<std::vector<int64_t>> gatherIndices(std::vector<int64_t> indices, int64_t axis, int64_t extent) {
  for (int64_t& index : indices) {
    if (extent == kAnyDim) {
      if (index < 0)
        return makeError("index " + std::to_string(index) + " counts from the end of axis " + std::to_string(axis) +
                         ", whose size is unknown; expected a non-negative index");
      continue;
    }
    if (index < -extent || index >= extent)
      return makeError("index " + std::to_string(index) + " is out of range for axis " + std::to_string(axis) +
                       " of size " + std::to_string(extent) +
                       (extent == 0 ? "; the axis is empty" : "; expected -" + std::to_string(extent) + " to " +
                                                                  std::to_string(extent - 1)));
    if (index < 0) index += extent;
  }
  return indices;
}

}  // namespace byoc::onnx_import
