#pragma once
/// \file
/// What `byoc partition` and `byoc opt` share: run passes one after the other on a module, dump
/// the module after each (`--dump-after-each DIR`), then print it or write it to `-o`, and write the
/// constants of its Relay text to `--params OUT.npz` (export/relay_params.h).

#include <vector>

#include "cli_options.h"
#include "ir/module.h"
#include "pass/pass.h"

namespace byoc::cli {

/// Runs `steps` on `module` and emits the result as `options` ask; returns the exit code.
int runStepsAndEmit(const Options& options, Module module, const std::vector<PassPtr>& steps);

}  // namespace byoc::cli
