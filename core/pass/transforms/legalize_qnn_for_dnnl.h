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
///   cast(round(add(round(clip(multiply(add(cast(qnn.conv2d(x, w, 0, 0, 1f, 1f), float32), bias), o_scale),
///                             lo - out_zp, hi - out_zp)), out_zp)), out_dtype)
/// with o_scale = input_scale / output_scale (per channel or per tensor), the input zero points
/// folded into the float bias as TVM folds them (bias - input_zero_point * sum(w) -
/// requantize_input_zero_point), and the output zero point added after the rounding, as the
/// requantize adds it (TVM folds it into the bias too, which moves values near a half by a step;
/// the add is left out when it is 0). The clip holds the output dtype's range less the zero point,
/// from 0 up when a relu came before. A padded convolution of an input with a zero point other
/// than 0 gets an explicit nn.pad with that zero point and no padding, so the bias holds the padded
/// taps' part exactly.
///
/// A qnn.add (per-tensor parameters) of such a chain's requantize, used only there, and another
/// tensor of the result's type becomes TVM's residual sum after the rounded clip:
///   cast(round(clip(add(add(multiply(round(clip(…)), act_scale), multiply(sum_scale, cast(other, float32))),
///                       dst_zero_point), lo, hi)), out_dtype)
/// with act_scale = chain_scale / out_scale, sum_scale = other_scale / out_scale and
/// dst_zero_point = out_zp - other_zp * sum_scale.
/// Every round is to nearest, where oneDNN rounds; TVM's form rounds only when storing, with its
/// cast. InferType runs after it.

#include "pass/registry.h"

namespace byoc {

/// `function` with its requantized integer products in the dnnl form.
Result<Function> legalizeQnnForDnnl(const Function& function);

/// The pass.
PassPtr createLegalizeQnnForDnnlPass();

/// Metadata and factory for the registry.
PassRegistration legalizeQnnForDnnlRegistration();

}  // namespace byoc
