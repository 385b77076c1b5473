#pragma once
/// \file
/// The lowering of the `dnnl.qnn.conv2d` and `dnnl.qnn.dense` composites (qnn_composite.h) to
/// oneDNN int8 primitives, and of qnn.quantize, qnn.dequantize, qnn.add and qnn.subtract to
/// reorders and binaries.

#include <vector>

#include "runtime/dnnl/lowering.h"

namespace byoc::dnnl_backend {

/// One int8 convolution or inner product: u8/s8 data, s8 weights, the float32 bias, the output
/// scale as oneDNN's output scales (per tensor or per output channel), then post-ops clip,
/// the activation scale and the output zero point, stored rounded and saturated to the result's type.
/// A `_sum` composite accumulates into its residual's memory in place when `residualOverwritable`
/// (see lowerCompositeCall).
Result<std::vector<Tensor>> lowerQnnComposite(Lowering& lowering, const Kernel& kernel, const std::vector<Tensor>& inputs,
                                              bool residualOverwritable);

/// qnn.quantize with a constant per-tensor scale and zero point: one binary division by the scale,
/// rounded to nearest even, the zero point added after, saturated (as QuantizeLinear states it).
Result<std::vector<Tensor>> lowerQuantize(Lowering& lowering, const Kernel& kernel, const std::vector<Tensor>& inputs);

/// qnn.dequantize with a constant per-tensor scale and zero point: one reorder to f32 with the zero
/// point as the source's and output scale `scale`.
Result<std::vector<Tensor>> lowerDequantize(Lowering& lowering, const Kernel& kernel, const std::vector<Tensor>& inputs);

/// qnn.add of a tensor of the result's shape and one that broadcasts to it (either way round), or
/// qnn.subtract of such a tensor and one broadcasting to it, with constant per-tensor parameters:
/// both dequantized, added or subtracted in f32 and quantized to the output's parameters as
/// qnn.quantize is, rounding once (TVM's kernel requantizes each operand first, so the two may
/// differ by a step).
Result<std::vector<Tensor>> lowerQnnAddOrSubtract(Lowering& lowering, const Kernel& kernel,
                                                  const std::vector<Tensor>& inputs);

/// qnn.concatenate with constant per-tensor parameters: each tensor whose parameters are not the
/// output's requantized by one reorder (rounding to nearest even, where TVM's requantize rounds a
/// tie upward, so the two may differ by a step), then one oneDNN concat.
Result<std::vector<Tensor>> lowerQnnConcatenate(Lowering& lowering, const Kernel& kernel,
                                                const std::vector<Tensor>& inputs);

}  // namespace byoc::dnnl_backend
