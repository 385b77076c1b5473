/// \file
/// The reference constant evaluator: element-wise arithmetic in double precision, converted
/// back to the inputs' dtype element by element. A result larger than `limits::kMaxFoldedBytes`
/// is not folded.

#include "pass/analysis/constant_evaluator.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <string>
#include <unordered_map>
#include <vector>

#include "support/limits.h"

namespace byoc {

namespace {

using Binary = std::function<double(double, double)>;
using Unary = std::function<double(double)>;

/// Builds a tensor of `dtype` and `shape` from element values.
TensorData fromValues(DType dtype, const Shape& shape, const std::vector<double>& values) {
  const std::size_t size = dtypeSize(dtype);
  auto bytes = std::make_shared<std::vector<std::byte>>(values.size() * size);
  for (std::size_t i = 0; i < values.size(); ++i) {
    TensorData element = TensorData::scalar(dtype, values[i]);
    std::memcpy(bytes->data() + i * size, element.bytes().data(), size);
  }
  return TensorData(dtype, shape, std::move(bytes));
}

/// Numpy broadcasting of two shapes, or nothing.
std::optional<Shape> broadcast(const Shape& lhs, const Shape& rhs) {
  std::size_t rank = std::max(lhs.size(), rhs.size());
  Shape out(rank, 1);
  for (std::size_t i = 0; i < rank; ++i) {
    int64_t a = i < rank - lhs.size() ? 1 : lhs[i - (rank - lhs.size())];
    int64_t b = i < rank - rhs.size() ? 1 : rhs[i - (rank - rhs.size())];
    if (a != b && a != 1 && b != 1) return std::nullopt;
    out[i] = a == 1 ? b : a;
  }
  return out;
}

/// Strides of `shape` seen through broadcasting to `out` (0 on broadcast dimensions).
std::vector<int64_t> broadcastStrides(const Shape& shape, const Shape& out) {
  std::vector<int64_t> strides(out.size(), 0);
  int64_t stride = 1;
  for (std::size_t i = shape.size(); i-- > 0;) {
    std::size_t o = i + (out.size() - shape.size());
    strides[o] = shape[i] == 1 ? 0 : stride;
    stride *= shape[i];
  }
  return strides;
}

std::optional<TensorData> evaluateBinary(const TensorData& lhs, const TensorData& rhs, const Binary& op) {
  if (lhs.dtype() != rhs.dtype()) return std::nullopt;
  std::optional<Shape> out = broadcast(lhs.shape(), rhs.shape());
  if (!out) return std::nullopt;
  std::vector<int64_t> lhsStrides = broadcastStrides(lhs.shape(), *out);
  std::vector<int64_t> rhsStrides = broadcastStrides(rhs.shape(), *out);
  std::optional<int64_t> count = limits::elementCount(*out);
  if (!count || *count > limits::kMaxFoldedBytes / static_cast<int64_t>(dtypeSize(lhs.dtype()))) return std::nullopt;
  std::vector<double> values(static_cast<std::size_t>(*count));
  std::vector<int64_t> index(out->size(), 0);
  int64_t lhsAt = 0;
  int64_t rhsAt = 0;
  for (int64_t flat = 0; flat < *count; ++flat) {
    values[static_cast<std::size_t>(flat)] = op(lhs.elementAsDouble(lhsAt), rhs.elementAsDouble(rhsAt));
    for (std::size_t d = out->size(); d-- > 0;) {  // odometer increment, last axis fastest
      ++index[d];
      lhsAt += lhsStrides[d];
      rhsAt += rhsStrides[d];
      if (index[d] < (*out)[d]) break;
      lhsAt -= lhsStrides[d] * index[d];
      rhsAt -= rhsStrides[d] * index[d];
      index[d] = 0;
    }
  }
  return fromValues(lhs.dtype(), *out, values);
}

std::optional<TensorData> evaluateUnary(const TensorData& input, const Unary& op) {
  std::vector<double> values(static_cast<std::size_t>(input.numElements()));
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = op(input.elementAsDouble(static_cast<int64_t>(i)));
  return fromValues(input.dtype(), input.shape(), values);
}

std::optional<TensorData> evaluateExpandDims(const TensorData& input, const Attrs& attrs) {
  const AttrValue* axisValue = attrs.find("axis");
  const AttrValue* countValue = attrs.find("num_newaxis");
  if (!axisValue || !countValue || !axisValue->isInt() || !countValue->isInt()) return std::nullopt;
  int64_t rank = static_cast<int64_t>(input.shape().size());
  int64_t axis = axisValue->asInt() < 0 ? axisValue->asInt() + rank + 1 : axisValue->asInt();
  if (axis < 0 || axis > rank || countValue->asInt() < 0) return std::nullopt;
  Shape shape = input.shape();
  shape.insert(shape.begin() + axis, static_cast<std::size_t>(countValue->asInt()), 1);
  return TensorData::fromBytes(input.dtype(), std::move(shape), input.bytes());
}

/// squeeze: the same elements without the given unit axes (every unit axis when none are given).
std::optional<TensorData> evaluateSqueeze(const TensorData& input, const Attrs& attrs) {
  const AttrValue* axisValue = attrs.find("axis");
  const int64_t rank = static_cast<int64_t>(input.shape().size());
  std::vector<bool> dropped(input.shape().size(), false);
  if (axisValue && axisValue->isList()) {
    const std::optional<std::vector<int64_t>> axes = axisValue->asInts();
    if (!axes) return std::nullopt;
    for (int64_t axis : *axes) {
      if (axis < 0) axis += rank;
      if (axis < 0 || axis >= rank || input.shape()[static_cast<std::size_t>(axis)] != 1) return std::nullopt;
      dropped[static_cast<std::size_t>(axis)] = true;
    }
  } else {
    for (std::size_t i = 0; i < dropped.size(); ++i) dropped[i] = input.shape()[i] == 1;
  }
  Shape shape;
  for (std::size_t i = 0; i < dropped.size(); ++i)
    if (!dropped[i]) shape.push_back(input.shape()[i]);
  return TensorData::fromBytes(input.dtype(), std::move(shape), input.bytes());
}

class ReferenceConstantEvaluator final : public ConstantEvaluator {
 public:
  std::optional<TensorData> evaluate(const OpDef& def, const Attrs& attrs,
                                     std::span<const TensorData> inputs) const override {
    for (const TensorData& input : inputs)
      if (!isFloat(input.dtype()) && !isInteger(input.dtype())) return std::nullopt;
    if (def.name == "expand_dims" && inputs.size() == 1) return evaluateExpandDims(inputs[0], attrs);
    if (def.name == "squeeze" && inputs.size() == 1) return evaluateSqueeze(inputs[0], attrs);
    if (def.name == "power" && inputs.size() == 2) {
      // In float32, as the kernels compute it, so that folding changes no bit of the result.
      if (inputs[0].dtype() != DType::Float32 || inputs[1].dtype() != DType::Float32) return std::nullopt;
      return evaluateBinary(inputs[0], inputs[1],
                            [](double a, double b) { return static_cast<double>(std::pow(static_cast<float>(a), static_cast<float>(b))); });
    }
    if (auto it = binary_.find(def.name); it != binary_.end() && inputs.size() == 2) {
      if (def.name == "divide" && !isFloat(inputs[0].dtype())) return std::nullopt;
      return evaluateBinary(inputs[0], inputs[1], it->second);
    }
    if (auto it = unary_.find(def.name); it != unary_.end() && inputs.size() == 1) {
      if ((def.name == "sqrt" || def.name == "exp") && !isFloat(inputs[0].dtype())) return std::nullopt;
      return evaluateUnary(inputs[0], it->second);
    }
    return std::nullopt;
  }

 private:
  const std::unordered_map<std::string, Binary> binary_{
      {"add", [](double a, double b) { return a + b; }},
      {"subtract", [](double a, double b) { return a - b; }},
      {"multiply", [](double a, double b) { return a * b; }},
      {"divide", [](double a, double b) { return a / b; }},
      {"maximum", [](double a, double b) { return std::max(a, b); }},
      {"minimum", [](double a, double b) { return std::min(a, b); }},
  };
  const std::unordered_map<std::string, Unary> unary_{
      {"negative", [](double a) { return -a; }},
      {"sqrt", [](double a) { return std::sqrt(a); }},
      {"exp", [](double a) { return std::exp(a); }},
      {"nn.relu", [](double a) { return std::max(a, 0.0); }},
  };
};

}  // namespace

const ConstantEvaluator& referenceConstantEvaluator() {
  static const ReferenceConstantEvaluator evaluator;
  return evaluator;
}

}  // namespace byoc
