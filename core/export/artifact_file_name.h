#pragma once
/// \file
/// The names a codegen plugin's artifact files may have (include/byoc/codegen_plugin.h): plain
/// file names, checked when a plugin returns them and when an export lists them.

#include <string>
#include <string_view>

namespace byoc {

/// Why `name` cannot name a file of a plugin artifact (empty, too long, starting with '.', a
/// character other than letters, digits, '.', '_' and '-'), or "" when it can.
std::string artifactFileNameProblem(std::string_view name);

}  // namespace byoc
