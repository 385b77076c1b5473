#pragma once
/// \file
/// Which global functions each function of a module refers to (`@name` anywhere in its body).

#include <set>
#include <string>
#include <string_view>
#include <unordered_map>

#include "ir/module.h"

namespace byoc {

/// The names of the globals `function` refers to.
std::set<std::string, std::less<>> referencedGlobals(const Function& function);

/// The functions reachable from `entries` through global references, entries included
/// (names the module does not define are ignored).
std::set<std::string, std::less<>> reachableGlobals(const Module& module, const std::set<std::string, std::less<>>& entries);

/// Old global name → new one.
using GlobalRenames = std::unordered_map<std::string, std::string>;

/// `function` with every reference to a renamed global (`@old`) made to the new name; the very
/// same node when it refers to none. A renamed reference keeps its checked type (the callers
/// rename a function to one of the same signature), so that the nodes above it keep theirs and
/// retyping the result rebuilds nothing.
Function renameGlobalReferences(const Function& function, const GlobalRenames& renames);

}  // namespace byoc
