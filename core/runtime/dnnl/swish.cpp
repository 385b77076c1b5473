#include "runtime/dnnl/swish.h"

#include <algorithm>
#include <bit>
#include <cmath>

namespace byoc::dnnl_backend {

namespace {

/// e^t for t ≤ 0, clamped below at e^-87 (a normal float): t = n·ln 2 + r with |r| ≤ ln 2 / 2,
/// then e^r by its Taylor polynomial of degree 6 (truncation below 1.3e-7 relative) scaled by 2^n
/// written straight into the exponent bits. Branch-free, so that the loop below vectorizes.
inline float expOfNonPositive(float t) {
  t = t < -87.0f ? -87.0f : t;
  // Adding 1.5 · 2^23 rounds t / ln 2 to the nearest integer n, which lands in the low mantissa
  // bits of `shifted`.
  constexpr float kRoundingShift = 12582912.0f;
  const float shifted = t * 1.44269504088896341f + kRoundingShift;
  const float n = shifted - kRoundingShift;
  // ln 2 in two parts: n · kLn2High is exact for the n that occur here.
  constexpr float kLn2High = 0.693145751953125f;
  constexpr float kLn2Low = 1.42860682028622680e-6f;
  const float r = (t - n * kLn2High) - n * kLn2Low;
  float p = 1.0f / 720;
  p = p * r + 1.0f / 120;
  p = p * r + 1.0f / 24;
  p = p * r + 1.0f / 6;
  p = p * r + 0.5f;
  p = p * r + 1.0f;
  p = p * r + 1.0f;
  const std::int32_t exponent = std::bit_cast<std::int32_t>(shifted) - std::bit_cast<std::int32_t>(kRoundingShift);
  return p * std::bit_cast<float>((exponent + 127) << 23);
}

// On x86-64 the loop is compiled for AVX-512, AVX2 and the baseline, and the CPU picks one at load.
#if defined(__x86_64__)
#define BYOC_SWISH_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define BYOC_SWISH_CLONES
#endif

/// One span of the values.
BYOC_SWISH_CLONES void swishSpan(float* values, std::int64_t count) {
#pragma omp simd
  for (std::int64_t i = 0; i < count; ++i) {
    const float x = values[i];
    // sigmoid(x) = 1 / (1 + e^-x) for x ≥ 0 and e^x / (1 + e^x) below: e^-|x| never overflows.
    const float e = expOfNonPositive(-std::fabs(x));
    values[i] = x * ((std::signbit(x) ? e : 1.0f) / (1.0f + e));
  }
}

}  // namespace

void swishInPlace(float* values, std::int64_t count) {
  // Spans of 4096 floats (16 KiB): on the region's 64-byte aligned buffers no two threads write
  // to the same cache line.
  constexpr std::int64_t kSpan = 4096;
  const std::int64_t spans = (count + kSpan - 1) / kSpan;
#pragma omp parallel for schedule(static) if (spans > 1)
  for (std::int64_t s = 0; s < spans; ++s) swishSpan(values + s * kSpan, std::min(kSpan, count - s * kSpan));
}

}  // namespace byoc::dnnl_backend
