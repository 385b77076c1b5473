#pragma once
/// \file
/// The `byoc` commands. Each returns the process exit code and writes results to stdout.

#include "cli_options.h"
#include "support/diagnostic.h"

namespace byoc::cli {

/// `byoc print`: the model as Relay text.
int runPrint(const Options& options);
/// `byoc info`: functions, node counts by kind, op histogram, constants.
int runInfo(const Options& options);

/// `byoc run`: runs @main with inputs from .npy files or random, prints a summary of each output,
/// optionally writes them and times repeated runs.
int runRun(const Options& options);

/// Prints `error: <diagnostic>` to stderr and returns 1.
int reportError(const Diagnostic& error);

}  // namespace byoc::cli
