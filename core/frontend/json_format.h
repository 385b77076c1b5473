#pragma once
/// \file
/// The native JSON form of a module (see docs/json-format.md): a format version, the
/// functions as node lists, and constants as base64 inside the file.

#include <string>
#include <string_view>

#include "ir/module.h"
#include "support/result.h"

namespace byoc {

/// Current version of the JSON form written by `saveModuleJson`.
inline constexpr int kJsonFormatVersion = 1;

/// Serialises `module` (functions, attributes, constants, origins).
std::string saveModuleJson(const Module& module);
/// Reads the JSON form; errors name `fileName`, the JSON path of the bad value, and what was expected.
Result<Module> loadModuleJson(std::string_view text, std::string_view fileName = "<input>");

}  // namespace byoc
