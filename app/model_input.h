#pragma once
/// \file
/// The inputs of a command: the model it works on (a file, or the built-in demo; type-checked) and
/// the targets named by `--target`.

#include "cli_options.h"
#include <memory>
#include <vector>

#include "ir/module.h"
#include "support/result.h"
#include "target/target.h"

namespace byoc::cli {

/// Loads `options.file` (any supported format) or the demo, then runs InferType.
Result<Module> loadTypedModel(const Options& options);

/// The targets of every `--target` (built-in names or files), in the order given.
Result<std::vector<std::shared_ptr<const Target>>> loadTargets(const Options& options);

}  // namespace byoc::cli
