#include "ir/tensor_data.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <string_view>

#include "support/limits.h"
#include "support/result.h"

namespace byoc {

namespace {

// Half-precision conversions for scalar literals and printing only.
/// IEEE binary16 nearest to `value`, ties to even, with subnormals; beyond the largest half,
/// infinity.
uint16_t floatToHalf(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, 4);
  const auto sign = static_cast<uint16_t>((bits >> 16) & 0x8000u);
  const uint32_t magnitude = bits & 0x7fffffffu;
  if (magnitude >= 0x7f800000u) return sign | 0x7c00u | (magnitude > 0x7f800000u ? 0x200u : 0u);  // inf, nan
  if (magnitude >= 0x477ff000u) return sign | 0x7c00u;  // at or past the midpoint after 65504
  if (magnitude < 0x38800000u) {  // below 2^-14: a subnormal half, counted in steps of 2^-24
    const float steps = std::nearbyint(std::fabs(value) * 16777216.0f);
    return static_cast<uint16_t>(sign | static_cast<uint16_t>(steps));
  }
  // Rebias the exponent (127 → 15) and keep 10 of the 23 mantissa bits, rounding the 13 dropped.
  uint32_t half = (magnitude - 0x38000000u) >> 13;
  const uint32_t dropped = magnitude & 0x1fffu;
  if (dropped > 0x1000u || (dropped == 0x1000u && (half & 1u))) ++half;  // a carry moves into the exponent, as it should
  return static_cast<uint16_t>(sign | half);
}

/// bfloat16 nearest to `value`, ties to even.
uint16_t floatToBFloat16(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, 4);
  if ((bits & 0x7fffffffu) > 0x7f800000u) return static_cast<uint16_t>((bits >> 16) | 0x40u);  // a quiet nan
  bits += 0x7fffu + ((bits >> 16) & 1u);
  return static_cast<uint16_t>(bits >> 16);
}

float halfToFloat(uint16_t half) {
  uint32_t sign = (half & 0x8000u) << 16;
  uint32_t exponent = (half >> 10) & 0x1f;
  uint32_t mantissa = half & 0x3ffu;
  uint32_t bits;
  if (exponent == 0) {
    float value = std::ldexp(static_cast<float>(mantissa), -24);
    return sign ? -value : value;
  }
  if (exponent == 31) bits = sign | 0x7f800000u | (mantissa << 13);
  else bits = sign | ((exponent - 15 + 127) << 23) | (mantissa << 13);
  float value;
  std::memcpy(&value, &bits, 4);
  return value;
}

/// `value` as the integer type T, saturated to its range, NaN as 0: converting a floating-point value
/// outside the range of an integer type is undefined behaviour in C++.
template <typename T>
T saturated(double value) {
  if (std::isnan(value)) return 0;
  if (value <= static_cast<double>(std::numeric_limits<T>::min())) return std::numeric_limits<T>::min();
  if (value >= static_cast<double>(std::numeric_limits<T>::max())) return std::numeric_limits<T>::max();
  return static_cast<T>(value);
}

template <typename T>
void store(std::byte* out, T value) {
  std::memcpy(out, &value, sizeof(T));
}

template <typename T>
T load(const std::byte* in) {
  T value;
  std::memcpy(&value, in, sizeof(T));
  return value;
}

}  // namespace

TensorData::TensorData(DType dtype, Shape shape, std::shared_ptr<const std::vector<std::byte>> bytes)
    : dtype_(dtype), shape_(std::move(shape)), bytes_(std::move(bytes)) {
  BYOC_CHECK(bytes_ && static_cast<int64_t>(bytes_->size()) == numElements() * static_cast<int64_t>(dtypeSize(dtype_)),
             "tensor byte count does not match its shape and dtype");
}

TensorData TensorData::scalar(DType dtype, double value) {
  auto bytes = std::make_shared<std::vector<std::byte>>(dtypeSize(dtype));
  std::byte* out = bytes->data();
  switch (dtype) {
    case DType::Float32: store(out, static_cast<float>(value)); break;
    case DType::Float64: store(out, value); break;
    case DType::Float16: store(out, floatToHalf(static_cast<float>(value))); break;
    case DType::BFloat16: store(out, floatToBFloat16(static_cast<float>(value))); break;
    case DType::Int8: store(out, saturated<int8_t>(value)); break;
    case DType::Int16: store(out, saturated<int16_t>(value)); break;
    case DType::Int32: store(out, saturated<int32_t>(value)); break;
    case DType::Int64: store(out, saturated<int64_t>(value)); break;
    case DType::UInt8: store(out, saturated<uint8_t>(value)); break;
    case DType::Bool: store(out, static_cast<uint8_t>(value != 0.0)); break;
  }
  return TensorData(dtype, {}, std::move(bytes));
}

TensorData TensorData::zeros(DType dtype, Shape shape) {
  std::optional<int64_t> count = limits::elementCount(shape);
  BYOC_CHECK(count.has_value(), "zeros: the shape exceeds the limits (check it when reading it)");
  auto bytes = std::make_shared<std::vector<std::byte>>(static_cast<std::size_t>(*count) * dtypeSize(dtype));
  return TensorData(dtype, std::move(shape), std::move(bytes));
}

TensorData TensorData::fromBytes(DType dtype, Shape shape, std::span<const std::byte> bytes) {
  auto copy = std::make_shared<std::vector<std::byte>>(bytes.begin(), bytes.end());
  return TensorData(dtype, std::move(shape), std::move(copy));
}

int64_t TensorData::numElements() const {
  // The constructor checks the bytes against this count, so a tensor never holds a shape past the limits.
  std::optional<int64_t> count = limits::elementCount(shape_);
  return count ? *count : -1;
}

std::span<const std::byte> TensorData::bytes() const {
  if (!bytes_) return {};
  return {bytes_->data(), bytes_->size()};
}

double TensorData::elementAsDouble(int64_t index) const {
  const std::byte* in = bytes_->data() + index * static_cast<int64_t>(dtypeSize(dtype_));
  switch (dtype_) {
    case DType::Float32: return load<float>(in);
    case DType::Float64: return load<double>(in);
    case DType::Float16: return halfToFloat(load<uint16_t>(in));
    case DType::BFloat16: {
      uint32_t bits = static_cast<uint32_t>(load<uint16_t>(in)) << 16;
      float value;
      std::memcpy(&value, &bits, 4);
      return value;
    }
    case DType::Int8: return load<int8_t>(in);
    case DType::Int16: return load<int16_t>(in);
    case DType::Int32: return load<int32_t>(in);
    case DType::Int64: return static_cast<double>(load<int64_t>(in));
    case DType::UInt8: return load<uint8_t>(in);
    case DType::Bool: return load<uint8_t>(in) != 0;
  }
  return 0.0;
}

bool TensorData::operator==(const TensorData& other) const {
  if (dtype_ != other.dtype_ || shape_ != other.shape_) return false;
  if (bytes_ == other.bytes_) return true;
  auto a = bytes();
  auto b = other.bytes();
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin());
}

std::size_t TensorData::hash() const {
  std::size_t seed = static_cast<std::size_t>(dtype_);
  for (int64_t dim : shape_) seed = seed * 31 + std::hash<int64_t>()(dim);
  auto data = bytes();
  std::string_view view(reinterpret_cast<const char*>(data.data()), data.size());
  return seed ^ (std::hash<std::string_view>()(view) + 0x9e3779b97f4a7c15ULL + (seed << 6));
}

TensorData transposed2d(const TensorData& matrix) {
  BYOC_CHECK(matrix.shape().size() == 2, "transposed2d: expects a 2-D tensor");
  const auto rows = static_cast<std::size_t>(matrix.shape()[0]);
  const auto cols = static_cast<std::size_t>(matrix.shape()[1]);
  const std::size_t size = dtypeSize(matrix.dtype());
  std::vector<std::byte> bytes(matrix.bytes().size());
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t c = 0; c < cols; ++c)
      std::memcpy(bytes.data() + (c * rows + r) * size, matrix.bytes().data() + (r * cols + c) * size, size);
  return TensorData::fromBytes(matrix.dtype(), {matrix.shape()[1], matrix.shape()[0]}, bytes);
}

}  // namespace byoc
