#pragma once
/// \file
/// Helpers of the Relax flow for composite functions: which codegen a composite belongs to, local
/// copies of global composites, and the per-call codegen wrappers of `annotate_codegen`.

#include <string>

#include "ir/module.h"
#include "support/result.h"

namespace byoc {

/// The codegen of a composite name: the text before its first `.`; an error if there is none.
Result<std::string> codegenOfComposite(const std::string& composite);

/// A global composite as a function literal to call inside another function: `Composite` kept,
/// `Primitive` dropped.
Function localCompositeCopy(const Function& composite);

/// Redirects every call of a global composite to a public wrapper `<name>_<codegen>` (attributes
/// `Codegen` and `global_symbol`) that calls a local copy of it; the global composites go.
Result<Module> wrapCompositesForCodegen(const Module& module);

}  // namespace byoc
