#pragma once
/// \file
/// FakeQuantizationToInteger, as TVM's pass of that name: turns the float regions of a QDQ graph
/// (qnn.dequantize → float ops → qnn.quantize) into integer ops.
///
/// Input: a typed module (requires InferType). For each `qnn.quantize`, the region above it down
/// to `qnn.dequantize` calls (and constants) is rewritten when every op in it has a rewrite:
/// dequantize disappears (its input and parameters become the affine type of the value);
/// nn.conv2d and nn.dense become qnn.conv2d / qnn.dense (int32, scale x_scale * w_scale, zero
/// point 0); nn.bias_add adds the bias (requantized if its parameters differ); add, subtract and
/// multiply become qnn.add / qnn.subtract / qnn.mul (a float constant operand is quantized with
/// the other operand's parameters); concatenate becomes qnn.concatenate of its tuple (per-tensor
/// parameters, one dtype); nn.relu and clip become maximum / clip at the quantized bounds; nn.avg_pool2d
/// pools in int32; nn.global_avg_pool2d sums in int32 and requantizes from the scale / count (the
/// mean rounded once, where TVM's int32 average truncates); max pools, reshape, transpose, squeeze, expand_dims,
/// strided_slice, nn.batch_flatten, max and min keep the quantized values; maximum and minimum
/// requantize operands to a common type. The quantize itself becomes qnn.requantize, or nothing
/// when the parameters already match. A binary op's output parameters are those of the value
/// rewritten just before it, as in TVM. A region with another op, a variable, control flow, or
/// parameters that are not constants stays float. New nodes take the origin of what they replace.
/// InferType runs after it.

#include "pass/registry.h"

namespace byoc {

/// `function` with its fake-quantized regions in integer ops.
Result<Function> fakeQuantizationToInteger(const Function& function);

/// The pass.
PassPtr createFakeQuantizationToIntegerPass();

/// Metadata and factory for the registry.
PassRegistration fakeQuantizationToIntegerRegistration();

}  // namespace byoc
