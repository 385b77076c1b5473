#pragma once
/// \file
/// EliminateCommonSubexpr: merges op calls (and tuple projections) that compute the same value.
///
/// Input: a typed module (requires InferType). Output: each op call with arguments equal to
/// those of an earlier call of the same op with the same attributes — the very same argument
/// nodes, or scalar constants of equal value — is replaced by that earlier call; likewise
/// `%t.i` with the same tuple and index. Calls without arguments, `nn.dropout`, and primitive
/// or external functions are left alone. Opt level 3, as in TVM.

#include "pass/registry.h"

namespace byoc {

/// `function` with its common subexpressions merged; the same node if there were none.
Function eliminateCommonSubexpr(const Function& function);

/// The pass.
PassPtr createEliminateCommonSubexprPass();

/// Metadata and factory for the registry.
PassRegistration eliminateCommonSubexprRegistration();

}  // namespace byoc
