#pragma once
/// \file
/// What the commands that run passes share. `runInstrumented` runs the steps with the instruments
/// the flags ask for (`--time-passes`, `--print-ir-after-all`, `--print-ir-after PASS`,
/// `--verify-each`; see docs/cli.md), writing what they report to stderr. `byoc partition` and
/// `byoc opt` then emit the result (`runStepsAndEmit`): they dump the module after each step
/// (`--dump-after-each DIR`), print it or write it to `-o`, and write the constants of its Relay
/// text to `--params OUT.npz` (export/relay_params.h).

#include <span>
#include <vector>

#include "cli_options.h"
#include "ir/module.h"
#include "pass/pass.h"
#include "pass/pass_runner.h"

namespace byoc::cli {

/// `base` with the instruments `options` ask for, their reports going to stderr.
PassRunOptions instrumentedOptions(const Options& options, PassRunOptions base = {});

/// Writes the timing table of `run` to stderr when `--time-passes` asked for it.
void reportTiming(const Options& options, const PassRun& run);

/// Runs `steps` on `module` with the instruments `options` ask for; the timing table, if asked,
/// goes to stderr after the run. `base` gives what else the run does (e.g. `afterStep`).
Result<PassRun> runInstrumented(const Options& options, std::span<const PassPtr> steps, const Module& module,
                                PassRunOptions base = {});

/// Runs `steps` on `module` and emits the result as `options` ask; returns the exit code.
int runStepsAndEmit(const Options& options, Module module, const std::vector<PassPtr>& steps);

}  // namespace byoc::cli
