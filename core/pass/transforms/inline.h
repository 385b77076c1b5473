#pragma once
/// \file
/// Inline: replaces calls of global functions marked `Inline=1` by their bodies.
///
/// Input: any module. Output: every call `@f(args…)` where `@f` has `Inline=1` and does not reach
/// itself through calls of global functions is replaced by `@f`'s body with its parameters bound
/// to the arguments; inlining repeats into inlined bodies until no such call is left. As in TVM, an
/// external function (`Compiler` other than "default", such as PartitionGraph's, which carry
/// `Inline=1`) is not opened: the call calls the function itself as a literal, keeping `Compiler`,
/// `Primitive`, `Inline` and `global_symbol`. Inlined functions that nothing references any more are removed. The
/// inlined nodes keep their origins. InferType runs after it (module pass).

#include "pass/registry.h"

namespace byoc {

/// `module` with the calls of inlinable functions inlined; the same functions if there were none.
Module inlineFunctions(const Module& module);

/// The pass.
PassPtr createInlinePass();

/// Metadata and factory for the registry.
PassRegistration inlineRegistration();

}  // namespace byoc
