#include "text/scalar_literal.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace byoc {

namespace {

/// Shortest decimal text that reads back to the same value at the given precision.
std::string shortestDecimal(double value, int maxDigits) {
  char buffer[40];
  for (int digits = 1; digits <= maxDigits; ++digits) {
    std::snprintf(buffer, sizeof buffer, "%.*g", digits, value);
    double back = std::strtod(buffer, nullptr);
    bool same = maxDigits <= 9 ? static_cast<float>(back) == static_cast<float>(value) : back == value;
    if (same) break;
  }
  return buffer;
}

}  // namespace

std::optional<std::string> scalarLiteralText(const TensorData& data) {
  if (!data.isScalar()) return std::nullopt;
  double value = data.elementAsDouble(0);
  switch (data.dtype()) {
    case DType::Int32: return std::to_string(static_cast<int64_t>(value));
    case DType::Int64: return std::to_string(static_cast<int64_t>(value)) + "i64";
    case DType::Int8: return std::to_string(static_cast<int64_t>(value)) + "i8";
    case DType::Int16: return std::to_string(static_cast<int64_t>(value)) + "i16";
    case DType::UInt8: return std::to_string(static_cast<int64_t>(value)) + "u8";
    case DType::Bool: return value != 0.0 ? std::string("True") : std::string("False");
    case DType::Float32:
      if (!std::isfinite(value)) return std::nullopt;
      return shortestDecimal(value, 9) + "f";
    case DType::Float16:
      if (!std::isfinite(value)) return std::nullopt;
      return shortestDecimal(value, 5) + "f16";
    case DType::Float64:
      if (!std::isfinite(value)) return std::nullopt;
      return shortestDecimal(value, 17) + "f64";
    case DType::BFloat16:
      return std::nullopt;
  }
  return std::nullopt;
}

std::optional<DType> literalSuffixDType(std::string_view suffix, bool isFloatLiteral) {
  if (suffix.empty()) return isFloatLiteral ? DType::Float32 : DType::Int32;
  if (suffix == "f" || suffix == "f32") return DType::Float32;
  if (suffix == "f16") return DType::Float16;
  if (suffix == "f64") return DType::Float64;
  if (isFloatLiteral) return std::nullopt;
  if (suffix == "i64") return DType::Int64;
  if (suffix == "i32") return DType::Int32;
  if (suffix == "i16") return DType::Int16;
  if (suffix == "i8") return DType::Int8;
  if (suffix == "u8") return DType::UInt8;
  return std::nullopt;
}

}  // namespace byoc
