#pragma once
/// \file
/// DeadCodeElimination: removes `let` bindings whose variable is never used.
///
/// Input: any module. Output: every `let %v = value; body` where `%v` is not used (in `body`, or
/// in `value` itself for a recursive function) replaced by `body`, repeated until no binding is
/// dead — removing one binding may leave the bindings it used dead. Values are pure, so dropping
/// them is safe. Dataflow (non-let) nodes that nothing uses are not reachable and need no pass.
/// Primitive and external functions are left alone; InferType runs after it.

#include "pass/registry.h"

namespace byoc {

/// `function` without dead let bindings; the same node if it had none.
Function eliminateDeadCode(const Function& function);

/// The pass.
PassPtr createDeadCodeEliminationPass();

/// Metadata and factory for the registry.
PassRegistration deadCodeEliminationRegistration();

}  // namespace byoc
