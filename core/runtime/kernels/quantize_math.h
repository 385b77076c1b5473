#pragma once
/// \file
/// The integer arithmetic of Relay's qnn ops, exactly as TVM lowers them: the fixed-point
/// multiplier of a real scale ratio, its multiply-and-shift with either rounding mode, and
/// saturation to a quantized dtype.

#include <cstdint>
#include <optional>
#include <string_view>

#include "ir/dtype.h"
#include "support/result.h"

namespace byoc::kernels {

/// How a fixed-point product rounds a tie: `Upward` toward +infinity (TVM's default), `ToNearest`
/// away from zero.
enum class QnnRounding : unsigned char { Upward, ToNearest };

/// "UPWARD" or "TONEAREST"; any other text is read as Upward (the type relation refuses it first).
QnnRounding parseRounding(std::string_view text);

/// A real multiplier as significand * 2^(shift - 31), the significand in [2^30, 2^31) (TVM's
/// GetFixedPointMultiplierShift); zero for a zero multiplier.
struct FixedPoint {
  int32_t significand = 0;
  int shift = 0;
};

/// The fixed-point form of `multiplier`.
FixedPoint fixedPointOf(double multiplier);

/// round(value * multiplier) computed as TVM's FixedPointMultiply: left shift, multiply by the
/// significand, add the rounding constant, arithmetic right shift by 31 - shift. Wider
/// intermediates than TVM's int64 keep very large products exact; the result saturates to int64.
int64_t fixedPointMultiply(int64_t value, FixedPoint multiplier, QnnRounding rounding);

/// The smallest and largest values of an integer dtype.
struct IntRange {
  int64_t min, max;
};
/// The range of `dtype` (int8, uint8, int16, int32, int64).
IntRange intRange(DType dtype);

/// Refuses a quantization scale that is not finite and positive, naming input `index` of `op` and
/// the `channel` of a per-channel scale: a fixed-point multiplier, or a division by the scale, is
/// meaningless for the others. The reference kernels and the oneDNN codegen both check with it.
Status checkScale(std::string_view op, std::size_t index, float scale, std::optional<std::size_t> channel = std::nullopt);
/// The same check of a scale named `what` in the error ("input_scales (argument 1) field 2").
Status checkScale(std::string_view op, const std::string& what, float scale, std::optional<std::size_t> channel);

}  // namespace byoc::kernels
