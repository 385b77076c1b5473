#pragma once
/// \file
/// Inline: replaces calls of global functions marked `Inline=1` by their bodies.
///
/// Input: any module. Output: every call `@f(args…)` where `@f` has `Inline=1`, no `Compiler`
/// attribute and does not reach itself through calls of global functions, is replaced by `@f`'s
/// body with its parameters bound to the arguments; inlining repeats into inlined bodies until no
/// such call is left. Inlined functions that nothing references any more are removed. The
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
