#pragma once
/// \file
/// The ops a pattern's root can call: lets a pass try a pattern only at the calls where it may
/// match, instead of at every node. And whether the root always matches something a composite can
/// hold.

#include <optional>
#include <string>
#include <vector>

#include "pattern/pattern.h"

namespace byoc {

/// The names of the ops a call matched at the root of `pattern` may call (for `multiply` and
/// `divide` both, as the matcher tries them for each other), or nothing when the root may be any
/// expression (a wildcard, an expression, a call of something other than an op, …).
std::optional<std::vector<std::string>> rootOps(const Pattern& pattern);

/// Why `pattern` cannot be a composite's pattern, or "" when it can: every way its root can match
/// must match a call, a tuple, a tuple-get-item, an `if` or a `let`. A root that may match a lone
/// value (`*`, `var`, `const`, a literal, an op, `@f`, or an alternative with one of these) would
/// turn each such value into a composite of no operation, and a definition that refers to itself
/// before matching anything (`c = c | f(*); c`) matches nothing.
std::string compositeRootProblem(const Pattern& pattern);

}  // namespace byoc
