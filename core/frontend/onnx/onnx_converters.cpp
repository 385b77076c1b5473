#include "frontend/onnx/onnx_converters.h"

namespace byoc::onnx_import {

const OnnxConverterTable& onnxConverters() {
  static const OnnxConverterTable table = [] {
    OnnxConverterTable built;
    addElementwiseConverters(built);
    addNeuralNetConverters(built);
    addTensorConverters(built);
    return built;
  }();
  return table;
}

const OnnxConverterTable& onnxFolders() {
  static const OnnxConverterTable table = [] {
    OnnxConverterTable built;
    addFolders(built);
    return built;
  }();
  return table;
}

Result<int64_t> onnxAxis(int64_t axis, std::size_t rank) {
  auto r = static_cast<int64_t>(rank);
  if (axis < -r || axis >= r)
    return makeError("axis " + std::to_string(axis) + " is out of range for rank " + std::to_string(rank));
  return axis < 0 ? axis + r : axis;
}

}  // namespace byoc::onnx_import
