#pragma once
/// \file
/// The two pattern rewrites TVM's `partition_for_dnnl` (python/tvm/relay/op/contrib/dnnl.py) runs
/// after its preparation, as passes.
///
/// RewriteLayerNorm (TVM's `rewrite_layer_norm`). Input: any module. Output: every
///   add(multiply(divide(d, sqrt(add(mean(power(d | cast(d), 2 | 2f)), 1e-05f))), gamma), beta)
/// with d = subtract(x, mean(x)) replaced by nn.layer_norm(x, gamma, beta) with its default
/// attributes, whatever the means' axes, as TVM's pattern does. TVM's other alternative for the
/// variance, a `variance` op, is not an op here, so no module holds it. SimplifyExpr turns the
/// divide by a sqrt into a multiply by an rsqrt, so after TVM's preparation this never matches,
/// in TVM as here.
///
/// RewriteDenseBiasGeluReshapeLast (TVM's `rewrite_dense_bias_gelu_reshape_last`). Input: any
/// module. Output: the reshape after an nn.dense moved past the bias add and the erf gelu that
/// follow it, so that the dense patterns see them together:
///   multiply(multiply(a, add(erf(divide(a, c1)), c2)), c3), a = add(bias, reshape(nn.dense(x, w)))
/// becomes reshape(multiply(multiply(b, add(erf(divide(b, c1)), c2)), c3), newshape) with
/// b = add(bias, nn.dense(x, w)), and without the gelu add(bias, reshape(nn.dense(x, w))) becomes
/// reshape(add(bias, nn.dense(x, w)), newshape). The dense is rebuilt with its default attributes,
/// as TVM rebuilds it.
///
/// Both rewrite to a fixed point (pattern/rewrite.h) every function but external and primitive
/// ones; InferType runs after them.

#include "pass/registry.h"

namespace byoc {

/// The passes.
PassPtr createRewriteLayerNormPass();
PassPtr createRewriteDenseBiasGeluReshapeLastPass();

/// Metadata and factories for the registry.
PassRegistration rewriteLayerNormRegistration();
PassRegistration rewriteDenseBiasGeluReshapeLastRegistration();

}  // namespace byoc
