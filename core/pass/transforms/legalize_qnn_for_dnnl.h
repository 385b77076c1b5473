#pragma once
/// \file
/// LegalizeQnnForDnnl, TVM's `legalize_qnn_for_dnnl` (python/tvm/relay/op/contrib/dnnl.py): puts
/// an integer convolution or dense and what follows it into the form the dnnl target's
/// `dnnl.qnn.conv2d` / `dnnl.qnn.dense` patterns match, the form oneDNN's int8 primitives compute.
///
/// Input: a typed module. Each `qnn.requantize` to int8 or uint8 of
///   qnn.conv2d | qnn.dense (constant weights with zero point 0, constant input parameters)
///   [→ add | nn.bias_add of a constant int32 bias] [→ maximum(·, 0) (a relu)]
/// or a qnn.dense reshaped before a per-tensor requantize (a MatMul of rank 3, reshaped again
/// after the legal form); a dense weight may be transpose(constant), as a QDQ MatMul's arrives
/// whose intermediate values have no other user becomes
///   cast(clip(multiply(add(cast(qnn.conv2d(x, w, 0, 0, 1f, 1f), float32), bias), o_scale), lo, hi), out_dtype)
/// with o_scale = input_scale / output_scale (per channel or per tensor) and the zero points folded
/// into the float bias: bias - input_zero_point * sum(w) - requantize_input_zero_point +
/// output_zero_point / o_scale, as TVM folds them. The clip holds the output dtype's range, from
/// the output zero point up when a relu came before. A padded convolution of an input with a
/// zero point other than 0 gets an explicit nn.pad with that zero point and no padding, so the
/// bias holds the padded taps' part exactly.
///
/// A qnn.add (per-tensor parameters) of such a chain's requantize, used only there, and another
/// tensor of the result's type becomes TVM's residual sum after the clip:
///   cast(clip(add(add(multiply(clip(…), act_scale), multiply(sum_scale, cast(other, float32))),
///                 dst_zero_point), lo, hi), out_dtype)
/// with act_scale = chain_scale / out_scale, sum_scale = other_scale / out_scale and
/// dst_zero_point = out_zp - chain_zp * act_scale - other_zp * sum_scale.
/// The result rounds where oneDNN rounds (to nearest even when storing); the reference kernels'
/// cast truncates instead, so the two may differ by one quantization step. InferType runs after it.

#include "pass/registry.h"

namespace byoc {

/// `function` with its requantized integer products in the dnnl form.
Result<Function> legalizeQnnForDnnl(const Function& function);

/// The pass.
PassPtr createLegalizeQnnForDnnlPass();

/// Metadata and factory for the registry.
PassRegistration legalizeQnnForDnnlRegistration();

}  // namespace byoc
