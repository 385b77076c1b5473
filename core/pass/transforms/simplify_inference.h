#pragma once
/// \file
/// SimplifyInference: rewrites training-only ops into their inference arithmetic.
///
/// Input: a typed module (requires InferType). Output: `%bn.0` of every `nn.batch_norm` becomes
///   data * scale + shift, where scale = gamma / sqrt(moving_var + epsilon) (without gamma when
///   `scale=False`) and shift = beta - moving_mean * scale (without beta when `center=False`),
///   both expanded to broadcast along `axis`;
/// `%d.0` of every `nn.dropout` becomes its input. Other projections of those calls, and
/// `nn.layer_norm`, stay. New nodes take the origin of the projection and the call they replace.
/// Run FoldConstant after it to fold the scale and shift of constant parameters. InferType runs after it.

#include "pass/registry.h"

namespace byoc {

/// `function` simplified; the same node if it has no batch_norm or dropout to simplify.
Result<Function> simplifyInference(const Function& function);

/// The pass.
PassPtr createSimplifyInferencePass();

/// Metadata and factory for the registry.
PassRegistration simplifyInferenceRegistration();

}  // namespace byoc
