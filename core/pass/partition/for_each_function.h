#pragma once
/// \file
/// Shared shape of the partitioning passes: map every function of a module that is not already
/// handed to an external compiler, then type the result.

#include <functional>

#include "ir/module.h"
#include "pass/pass.h"
#include "support/result.h"

namespace byoc::partitioning {

/// A rewrite of one global function; `name` is its global name.
using FunctionRewrite = std::function<Result<Function>(const Function& function, const std::string& name)>;

/// True for functions TVM's function passes leave alone: those with a `Compiler`, a nonzero
/// `Extern` or a nonzero `SkipOptimization` attribute.
bool isExternalFunction(const FunctionNode& function);

/// Applies `rewrite` to every function that is not external, then runs type inference.
/// `changed` is true only when some function node differs.
Result<PassResult> rewriteFunctionsAndType(const Module& module, const FunctionRewrite& rewrite);

}  // namespace byoc::partitioning
