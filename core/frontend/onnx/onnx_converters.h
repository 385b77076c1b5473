#pragma once
/// \file
/// The table of op converters: ONNX op type (default domain) → function building the IR for one
/// node. Each family of ops registers its converters from its own file; a converter returns one
/// value per ONNX output or an error naming what is unsupported (an attribute value, a rank, a
/// non-constant input).

#include <functional>
#include <map>
#include <string>
#include <string_view>

#include "frontend/onnx/onnx_node_context.h"

namespace byoc::onnx_import {

/// Converts one node.
using OnnxConverter = std::function<Result<OnnxOutputs>(const OnnxNodeContext& context)>;

/// Op type → converter; ops of another domain than the default one are keyed "domain.OpType".
using OnnxConverterTable = std::map<std::string, OnnxConverter, std::less<>>;

/// Every converter, built once.
const OnnxConverterTable& onnxConverters();

/// Converters that fold integer computations on constants (shape arithmetic) at import. Such a
/// converter returns no outputs when it does not apply, and the ordinary converter runs.
const OnnxConverterTable& onnxFolders();

// One registration function per family.
void addElementwiseConverters(OnnxConverterTable& table);
void addNeuralNetConverters(OnnxConverterTable& table);
void addTensorConverters(OnnxConverterTable& table);
void addFolders(OnnxConverterTable& table);
/// Adds the floating-point folders in front of the integer ones (call after addFolders).
void addFloatFolders(OnnxConverterTable& table);
void addQuantizationConverters(OnnxConverterTable& table);
void addIndexingConverters(OnnxConverterTable& table);
void addVisionConverters(OnnxConverterTable& table);

/// Wraps a single value as the outputs of a node.
inline Result<OnnxOutputs> single(Result<OnnxValue> value) {
  if (!value) return value.error();
  return OnnxOutputs{std::move(value).value()};
}

/// Normalises a possibly negative ONNX axis against `rank`; error if out of range.
Result<int64_t> onnxAxis(int64_t axis, std::size_t rank);

/// Normalises a list of ONNX axes against `rank`; an error when one is out of range or two name
/// the same axis.
Result<std::vector<int64_t>> onnxAxes(const std::vector<int64_t>& axes, std::size_t rank);

/// Constant Gather `indices` into axis `axis` of size `extent`, negative ones (counted from the
/// end, as in ONNX) made non-negative; an error naming the first index outside the axis and the
/// valid range.
Result<std::vector<int64_t>> gatherIndices(std::vector<int64_t> indices, int64_t axis, int64_t extent);

}  // namespace byoc::onnx_import
