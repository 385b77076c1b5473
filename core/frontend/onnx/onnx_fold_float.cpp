/// \file
/// Folding of small floating-point computations on constants at import. Exporters sometimes
/// compute sizes in float: torchvision pads a batch of images to a multiple of 32 through
/// `ceil(float(max(sizes)) / 32) * 32`, cast back to an integer that becomes Pad's pads. Once the
/// sizes are constants, the Cast, ReduceMax, Div and Ceil of that chain are evaluated here (in
/// double, rounded to the result's dtype), so that Pad receives constant pads. Like the integer
/// folders (onnx_fold.cpp) a folder returns no outputs when it does not apply, and the next folder
/// or the ordinary converter runs.

#include <cmath>
#include <functional>

#include "frontend/onnx/onnx_converters.h"
#include "frontend/onnx/onnx_tensor.h"

namespace byoc::onnx_import {

namespace {

/// Only shape-sized constants fold; larger float computations stay ops.
constexpr int64_t kMaxFoldedFloats = 64;

/// A small constant read as doubles.
struct Numbers {
  Shape shape;
  DType dtype;
  std::vector<double> values;
};

/// All inputs as numbers when every one is a small constant and at least one is floating-point.
std::optional<std::vector<Numbers>> floatInputs(const OnnxNodeContext& c) {
  std::vector<Numbers> inputs;
  bool anyFloat = false;
  for (std::size_t i = 0; i < c.inputCount(); ++i) {
    if (!c.hasInput(i)) return std::nullopt;
    const TensorData* data = c.input(i)->constant();
    if (!data || data->numElements() > kMaxFoldedFloats) return std::nullopt;
    Numbers numbers{data->shape(), data->dtype(), {}};
    for (int64_t e = 0; e < data->numElements(); ++e) numbers.values.push_back(data->elementAsDouble(e));
    anyFloat = anyFloat || isFloat(data->dtype());
    inputs.push_back(std::move(numbers));
  }
  if (!anyFloat) return std::nullopt;
  return inputs;
}

/// A constant of `dtype` holding `values`, each converted as TensorData::scalar converts.
OnnxValue numbersConstant(const OnnxNodeContext& c, const Shape& shape, DType dtype,
                          const std::vector<double>& values) {
  std::vector<std::byte> bytes;
  for (double value : values) {
    TensorData element = TensorData::scalar(dtype, value);
    bytes.insert(bytes.end(), element.bytes().begin(), element.bytes().end());
  }
  return c.constant(TensorData::fromBytes(dtype, shape, bytes));
}

/// Unary ops and binary ops whose operands have one shape or a scalar (what size arithmetic
/// meets); anything else is left to the converter.
OnnxConverter floatElementwise(std::function<double(double, double)> fn) {
  return [fn](const OnnxNodeContext& c) -> Result<OnnxOutputs> {
    auto inputs = floatInputs(c);
    if (!inputs || inputs->empty() || inputs->size() > 2) return OnnxOutputs{};
    const Numbers& a = (*inputs)[0];
    const Numbers& b = inputs->back();
    if (a.dtype != b.dtype) return OnnxOutputs{};
    const Numbers& wide = a.values.size() >= b.values.size() ? a : b;
    // A one-element operand broadcasts to the other's shape when its rank is not higher.
    auto fits = [&](const Numbers& x) {
      return x.shape == wide.shape || (x.values.size() == 1 && x.shape.size() <= wide.shape.size());
    };
    if (!fits(a) || !fits(b)) return OnnxOutputs{};
    std::vector<double> out;
    for (std::size_t i = 0; i < wide.values.size(); ++i)
      out.push_back(fn(a.values[a.values.size() == 1 ? 0 : i], b.values[b.values.size() == 1 ? 0 : i]));
    return OnnxOutputs{numbersConstant(c, wide.shape, a.dtype, out)};
  };
}

/// Cast from or to a floating-point type. A float cast to bool is whether it is non-zero; to
/// int32 or int64 it truncates, as ONNX does, and is left to run time when a value is not finite
/// or does not fit (as are casts to the other integer types).
Result<OnnxOutputs> castFloat(const OnnxNodeContext& c) {
  if (c.inputCount() != 1 || !c.hasInput(0)) return OnnxOutputs{};
  const TensorData* data = c.input(0)->constant();
  if (!data || data->numElements() > kMaxFoldedFloats) return OnnxOutputs{};
  BYOC_ASSIGN_OR_RETURN(int64_t to, c.attrs.getInt("to"));
  BYOC_ASSIGN_OR_RETURN(DType dtype, dtypeFromOnnx(static_cast<int32_t>(to)));
  if (!isFloat(dtype) && !isFloat(data->dtype())) return OnnxOutputs{};  // the integer folder's
  std::vector<double> values;
  for (int64_t e = 0; e < data->numElements(); ++e) {
    double value = data->elementAsDouble(e);
    if (dtype == DType::Bool) {
      value = value != 0 ? 1 : 0;
    } else if (!isFloat(dtype)) {
      const double limit = dtype == DType::Int64 ? 0x1p63 : dtype == DType::Int32 ? 0x1p31 : 0;
      if (!(std::fabs(std::trunc(value)) < limit)) return OnnxOutputs{};
      value = std::trunc(value);
    }
    values.push_back(value);
  }
  return OnnxOutputs{numbersConstant(c, data->shape(), dtype, values)};
}

/// ReduceMax and ReduceMin over every axis (no axes given), as `torch.max` of a stacked list
/// exports.
OnnxConverter reduceAll(bool takeMax) {
  return [takeMax](const OnnxNodeContext& c) -> Result<OnnxOutputs> {
    auto inputs = floatInputs(c);
    if (!inputs || inputs->size() != 1 || c.attrs.has("axes") || (*inputs)[0].values.empty()) return OnnxOutputs{};
    BYOC_ASSIGN_OR_RETURN(int64_t keepDims, c.attrs.getInt("keepdims", 1));
    BYOC_ASSIGN_OR_RETURN(int64_t noopWithoutAxes, c.attrs.getInt("noop_with_empty_axes", 0));
    if (noopWithoutAxes != 0) return OnnxOutputs{};  // no axes then reduce nothing
    const Numbers& x = (*inputs)[0];
    double result = x.values[0];
    for (double value : x.values) result = takeMax ? std::max(result, value) : std::min(result, value);
    Shape shape = keepDims ? Shape(x.shape.size(), 1) : Shape{};
    return OnnxOutputs{numbersConstant(c, shape, x.dtype, {result})};
  };
}

/// `first`, and `second` when `first` does not apply.
OnnxConverter orElse(OnnxConverter first, OnnxConverter second) {
  if (!second) return first;
  return [first = std::move(first), second = std::move(second)](const OnnxNodeContext& c) -> Result<OnnxOutputs> {
    BYOC_ASSIGN_OR_RETURN(OnnxOutputs outputs, first(c));
    if (!outputs.empty()) return outputs;
    return second(c);
  };
}

}  // namespace

void addFloatFolders(OnnxConverterTable& table) {
  auto add = [&table](const char* opType, OnnxConverter folder) {
    auto existing = table.find(opType);
    table[opType] = orElse(std::move(folder), existing == table.end() ? OnnxConverter() : existing->second);
  };
  add("Add", floatElementwise([](double a, double b) { return a + b; }));
  add("Sub", floatElementwise([](double a, double b) { return a - b; }));
  add("Mul", floatElementwise([](double a, double b) { return a * b; }));
  add("Div", floatElementwise([](double a, double b) { return a / b; }));
  add("Ceil", floatElementwise([](double a, double) { return std::ceil(a); }));
  add("Floor", floatElementwise([](double a, double) { return std::floor(a); }));
  add("Cast", castFloat);
  add("ReduceMax", reduceAll(true));
  add("ReduceMin", reduceAll(false));
}

}  // namespace byoc::onnx_import
