#include "runtime/kernels/quantize_math.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "ir/op.h"
#include "support/number_text.h"

namespace byoc::kernels {

QnnRounding parseRounding(std::string_view text) {
  return text == "TONEAREST" ? QnnRounding::ToNearest : QnnRounding::Upward;
}

FixedPoint fixedPointOf(double multiplier) {
  if (multiplier == 0.0) return {};
  int exponent = 0;
  const double significand = std::frexp(multiplier, &exponent);
  auto fixed = static_cast<int64_t>(std::round(significand * static_cast<double>(int64_t{1} << 31)));
  // Rounding may carry into bit 31: halve and move the exponent.
  if (fixed == (int64_t{1} << 31)) {
    fixed /= 2;
    ++exponent;
  }
  return {static_cast<int32_t>(fixed), exponent};
}

int64_t fixedPointMultiply(int64_t value, FixedPoint multiplier, QnnRounding rounding) {
  // Shifts beyond these only make the result saturate or vanish; clamping keeps them defined.
  const int leftShift = std::clamp(multiplier.shift, 0, 62);
  const int rightShift = std::clamp(31 - std::min(multiplier.shift, 0), 31, 126);
  const __int128 product = (static_cast<__int128>(value) << leftShift) * multiplier.significand;
  __int128 rounder = static_cast<__int128>(1) << (rightShift - 1);
  if (rounding == QnnRounding::ToNearest && product < 0) rounder -= 1;
  const __int128 shifted = (product + rounder) >> rightShift;
  const __int128 lo = std::numeric_limits<int64_t>::min();
  const __int128 hi = std::numeric_limits<int64_t>::max();
  return static_cast<int64_t>(std::clamp(shifted, lo, hi));
}

IntRange intRange(DType dtype) {
  switch (dtype) {
    case DType::Int8: return {-128, 127};
    case DType::UInt8: return {0, 255};
    case DType::Int16: return {-32768, 32767};
    case DType::Int32: return {std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max()};
    default: return {std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max()};
  }
}

Status checkScale(std::string_view op, const std::string& what, float scale, std::optional<std::size_t> channel) {
  if (std::isfinite(scale) && scale > 0.0f) return Status::ok();
  return makeError(std::string(op) + ": " + what + " is " + numberText(scale) +
                   (channel ? " at channel " + std::to_string(*channel) : "") + "; expected a finite positive scale");
}

Status checkScale(std::string_view op, std::size_t index, float scale, std::optional<std::size_t> channel) {
  const OpDef* def = OpRegistry::global().find(op);
  const std::string name = def && index < def->inputs.size() ? def->inputs[index] : "scale";
  return checkScale(op, name + " (argument " + std::to_string(index) + ")", scale, channel);
}

}  // namespace byoc::kernels
