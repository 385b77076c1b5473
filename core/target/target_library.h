#pragma once
/// \file
/// Finding a target by name among the built-in ones (resources/targets/<name>.json), or reading a
/// target file.

#include <string>
#include <string_view>
#include <vector>

#include "support/result.h"
#include "target/target.h"

namespace byoc {

/// The names of the built-in targets, sorted.
std::vector<std::string> builtinTargetNames();

/// `nameOrPath` is a built-in target's name (`dnnl`, `byoc-target`) or the path of a target file
/// (anything ending in `.json` or containing a `/`). Errors name the file, or list the built-in names.
Result<Target> loadTarget(std::string_view nameOrPath);

}  // namespace byoc
