#pragma once
/// \file
/// The ops a pattern cannot match without: a cheap test that lets a pass skip a pattern on a graph
/// that calls none of them, before any matching.

#include <set>
#include <string>

#include "pattern/pattern.h"

namespace byoc {

/// The names of the ops that every match of `pattern` calls. Branches of alternatives are not
/// counted (either may match), so the set can be smaller than what a given match uses.
std::set<std::string> requiredOps(const Pattern& pattern);

}  // namespace byoc
