#pragma once
/// \file
/// Loading the model a command works on: a file, or the built-in demo; type-checked.

#include "cli_options.h"
#include "ir/module.h"
#include "support/result.h"

namespace byoc::cli {

/// Loads `options.file` (any supported format) or the demo, then runs InferType.
Result<Module> loadTypedModel(const Options& options);

}  // namespace byoc::cli
