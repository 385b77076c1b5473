#include "text/scalar_literal.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>

#include "support/limits.h"

namespace byoc {

namespace {

/// Shortest decimal text that reads back to `value`, an element of float dtype `dtype`; `maxDigits`
/// significant digits always do.
std::string shortestDecimal(double value, DType dtype, int maxDigits) {
  char buffer[40];
  for (int digits = 1; digits <= maxDigits; ++digits) {
    std::snprintf(buffer, sizeof buffer, "%.*g", digits, value);
    if (TensorData::scalar(dtype, std::strtod(buffer, nullptr)).elementAsDouble(0) == value) break;
  }
  return buffer;
}

/// Whether decimal literal `digits`, which does not fit a double, is too small rather than too
/// large: the power of ten of its first significant digit, plus its exponent, is negative.
bool isTooSmallForDouble(std::string_view digits) {
  std::size_t e = digits.find_first_of("eE");
  int64_t exponent = 0;
  if (e != std::string_view::npos) {
    std::string_view text = digits.substr(e + 1);
    if (!text.empty() && text[0] == '+') text.remove_prefix(1);
    auto [end, code] = std::from_chars(text.data(), text.data() + text.size(), exponent);
    if (code != std::errc()) return !text.empty() && text[0] == '-';  // an exponent beyond int64 decides alone
  }
  std::string_view mantissa = digits.substr(0, e);
  if (!mantissa.empty() && mantissa[0] == '-') mantissa.remove_prefix(1);
  std::size_t point = std::min(mantissa.find('.'), mantissa.size());
  std::size_t first = mantissa.find_first_not_of("0.");
  if (first == std::string_view::npos) return true;
  int64_t power = first < point ? static_cast<int64_t>(point - first - 1) : -static_cast<int64_t>(first - point);
  std::optional<int64_t> total = limits::checkedAdd(power, exponent);
  return total ? *total < 0 : exponent < 0;
}

std::string formatMagnitude(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%g", value);
  return buffer;
}

/// The range of the integer dtypes a literal can name.
std::pair<int64_t, int64_t> integerRange(DType dtype) {
  switch (dtype) {
    case DType::Int8: return {INT8_MIN, INT8_MAX};
    case DType::Int16: return {INT16_MIN, INT16_MAX};
    case DType::Int32: return {INT32_MIN, INT32_MAX};
    case DType::UInt8: return {0, UINT8_MAX};
    default: return {INT64_MIN, INT64_MAX};
  }
}

/// The largest finite magnitude of the float dtypes a literal can name (float16 as stored here).
double largestFloat(DType dtype) {
  switch (dtype) {
    case DType::Float16: return 65504.0;
    case DType::Float32: return std::numeric_limits<float>::max();
    default: return std::numeric_limits<double>::max();
  }
}

Result<TensorData> integerScalar(std::string_view digits, std::string_view suffix, DType dtype) {
  auto [low, high] = integerRange(dtype);
  std::optional<int64_t> value = parseIntegerLiteral(digits);
  if (!value || *value < low || *value > high)
    return makeError("integer literal '" + std::string(digits) + std::string(suffix) + "' is out of range for " +
                     std::string(dtypeName(dtype)) + "; expected " + std::to_string(low) + " to " + std::to_string(high));
  if (dtype != DType::Int64) return TensorData::scalar(dtype, static_cast<double>(*value));
  // A double holds int64 values exactly only up to 2^53: store the bytes.
  std::byte bytes[sizeof(int64_t)];
  std::memcpy(bytes, &*value, sizeof bytes);
  return TensorData::fromBytes(dtype, {}, bytes);
}

Result<TensorData> floatScalar(std::string_view digits, std::string_view suffix, DType dtype) {
  std::optional<double> value = parseFloatLiteral(digits);
  // float32 rounds values just above its largest down to it; only what would become infinite is refused.
  bool fits = value && (dtype == DType::Float32 ? std::isfinite(static_cast<float>(*value))
                                                 : std::fabs(*value) <= largestFloat(dtype));
  if (!fits)
    return makeError("float literal '" + std::string(digits) + std::string(suffix) + "' is out of range for " +
                     std::string(dtypeName(dtype)) + "; expected a magnitude up to " + formatMagnitude(largestFloat(dtype)));
  return TensorData::scalar(dtype, *value);
}

}  // namespace

std::optional<std::string> scalarLiteralText(const TensorData& data) {
  if (!data.isScalar()) return std::nullopt;
  double value = data.elementAsDouble(0);
  switch (data.dtype()) {
    case DType::Int32: return std::to_string(static_cast<int64_t>(value));
    case DType::Int64: {
      // Read exactly: a double rounds int64 values beyond 2^53.
      int64_t exact;
      std::memcpy(&exact, data.bytes().data(), sizeof exact);
      return std::to_string(exact) + "i64";
    }
    case DType::Int8: return std::to_string(static_cast<int64_t>(value)) + "i8";
    case DType::Int16: return std::to_string(static_cast<int64_t>(value)) + "i16";
    case DType::UInt8: return std::to_string(static_cast<int64_t>(value)) + "u8";
    case DType::Bool: return value != 0.0 ? std::string("True") : std::string("False");
    case DType::Float32:
      if (!std::isfinite(value)) return std::nullopt;
      return shortestDecimal(value, DType::Float32, 9) + "f";
    case DType::Float16:
      if (!std::isfinite(value)) return std::nullopt;
      return shortestDecimal(value, DType::Float16, 5) + "f16";
    case DType::Float64:
      if (!std::isfinite(value)) return std::nullopt;
      return shortestDecimal(value, DType::Float64, 17) + "f64";
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

std::optional<int64_t> parseIntegerLiteral(std::string_view digits) {
  int64_t value = 0;
  auto [end, code] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (code != std::errc() || end != digits.data() + digits.size()) return std::nullopt;
  return value;
}

std::optional<double> parseFloatLiteral(std::string_view digits) {
  double value = 0.0;
  auto [end, code] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (code == std::errc::result_out_of_range && isTooSmallForDouble(digits))
    return !digits.empty() && digits[0] == '-' ? -0.0 : 0.0;
  if (code != std::errc() || end != digits.data() + digits.size()) return std::nullopt;
  return value;
}

Result<TensorData> scalarFromLiteral(std::string_view digits, std::string_view suffix, bool isFloatLiteral) {
  std::optional<DType> dtype = literalSuffixDType(suffix, isFloatLiteral);
  if (!dtype)
    return makeError("unknown literal suffix '" + std::string(suffix) + "'; expected f, f16, f64, i8, i16, i32, i64 or u8");
  return isFloat(*dtype) ? floatScalar(digits, suffix, *dtype) : integerScalar(digits, suffix, *dtype);
}

}  // namespace byoc
