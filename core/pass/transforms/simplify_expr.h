#pragma once
/// \file
/// SimplifyExpr: TVM's simplify_expr.cc rewrites that apply to this tool's ops, in TVM's order,
/// repeated (with types recomputed) until nothing changes:
///   - zeros_like(x) / ones_like(x) of a static type → zeros / ones with its shape and dtype;
///   - x + x → x * 2 (SimplifyAdd);
///   - n / sqrt(x) → n * rsqrt(x) (SimplifyRSqrt);
///   - x + 0, x - 0, x * 1, x / 1 (0 and 1 as zeros, ones, their `_like` forms or scalar
///     constants) → x, when x already has the result's type (no broadcasting);
///   - reshape(reshape(x)) → one reshape to the final static shape;
///   - two consecutive transposes or (same-rank) layout_transforms → one transpose, or x when
///     they cancel; a transpose moving no axis, or a layout_transform to its own layout → x;
///   - cast(x) to x's own dtype → x;
///   - cast(cast(x, t1), t2) → cast(x, t2) when the first cast widens (loses nothing);
///   - a broadcasting op of zeros/ones (or their `_like` forms) and x of the result's type → the
///     op of a scalar 0/1 and x (FullElementwise);
///   - (x + c1) * c2 → x * c2 + (c1 * c2) (SwitchAddMultiply), and (x * c1) * c2, (x + c1) + c2 →
///     x * (c1 * c2), x + (c1 + c2) (SimplifyAdjacentMultiplyOrAdd), the constants folded.
/// TVM's rules over ops this tool lacks (full, full_like, reshape_like, collapse_sum_like,
/// broadcast_to_like, cast_like, qnn) and its clip-and-cast and binomial rules are left out.
///
/// Input: a typed module (requires InferType). Output: the simplified module, typed. Primitive
/// and external functions are left alone. Errors come from building the replacements.

#include "pass/registry.h"

namespace byoc {

/// The pass.
PassPtr createSimplifyExprPass();

/// Metadata and factory for the registry.
PassRegistration simplifyExprRegistration();

}  // namespace byoc
