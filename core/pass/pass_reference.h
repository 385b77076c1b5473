#pragma once
/// \file
/// The reference of the registered passes, rendered from their `PassInfo` (name, summary, opt
/// level, required passes, options, description). docs/passes.md embeds this text; the CLI and
/// the GUI pass palette show the same data.

#include <string>

#include "pass/registry.h"

namespace byoc {

/// One Markdown section per pass, sorted by name:
/// `### Name`, the summary, a list (opt level, requires, options with defaults and help), the description.
std::string renderPassReference(const PassRegistry& registry);

}  // namespace byoc
