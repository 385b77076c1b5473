#pragma once
/// \file
/// FoldConstant: replaces every op call whose arguments are all constants by its value.
///
/// Input: any module (types not needed). Output: the same module where each such call, bottom-up
/// (so chains fold completely), became a `Constant` whose origin unites the call's and its
/// arguments'. Calls the evaluator does not implement, annotation ops, and the bodies of
/// primitive or external functions are left alone. A function pass: `InferType` runs after it.

#include "pass/analysis/constant_evaluator.h"
#include "pass/registry.h"

namespace byoc {

/// `function` with its constant calls folded by `evaluator`; the same node if nothing folded.
Function foldConstants(const Function& function, const ConstantEvaluator& evaluator);

/// The pass, evaluating with `evaluator` (which must outlive it).
PassPtr createFoldConstantPass(const ConstantEvaluator& evaluator = referenceConstantEvaluator());

/// Metadata and factory for the registry.
PassRegistration foldConstantRegistration();

}  // namespace byoc
