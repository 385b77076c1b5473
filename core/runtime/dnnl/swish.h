#pragma once
/// \file
/// Swish (x · sigmoid(x)) in place over float32 memory, the activation of EfficientNet-style
/// networks. The dnnl codegen runs it after a composite's primitive instead of oneDNN's swish
/// post-op: oneDNN 2.6's took longer than the convolution it followed on the zoo's early
/// EfficientNet layers (on a 16 → 96 channel 1×1 convolution at 112×112, 0.52 ms of 0.72), about
/// twice this loop's time (docs/runtime.md).

#include <cstdint>

namespace byoc::dnnl_backend {

/// values[i] = values[i] · sigmoid(values[i]) for i < count, on the process's OpenMP pool. Within
/// 3e-7 of the exact value relative to it; NaN stays NaN, +∞ stays +∞, −∞ gives −∞.
void swishInPlace(float* values, std::int64_t count);

}  // namespace byoc::dnnl_backend
