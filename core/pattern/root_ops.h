#pragma once
/// \file
/// The ops a pattern's root can call: lets a pass try a pattern only at the calls where it may
/// match, instead of at every node.

#include <optional>
#include <string>
#include <vector>

#include "pattern/pattern.h"

namespace byoc {

/// The names of the ops a call matched at the root of `pattern` may call (for `multiply` and
/// `divide` both, as the matcher tries them for each other), or nothing when the root may be any
/// expression (a wildcard, an expression, a call of something other than an op, …).
std::optional<std::vector<std::string>> rootOps(const Pattern& pattern);

}  // namespace byoc
