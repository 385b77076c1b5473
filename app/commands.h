#pragma once
/// \file
/// The `byoc` commands. Each returns the process exit code and writes results to stdout.

#include "cli_options.h"
#include "support/diagnostic.h"
#include "support/result.h"

namespace byoc::cli {

/// `byoc print`: the model as Relay text.
int runPrint(const Options& options);
/// `byoc info`: functions, node counts by kind, op histogram, constants.
int runInfo(const Options& options);

/// `byoc partition`: the module partitioned for `--target`s, printed or written to `-o`.
int runPartition(const Options& options);
/// `byoc opt`: the module after a pipeline of registered passes.
int runOpt(const Options& options);
/// `byoc passes`: the registered passes with their summaries (or the full reference).
int runPasses(const Options& options);
/// `byoc run`: run a model (partitioned for `--target`s if given) and report its outputs.
int runRun(const Options& options);
/// `byoc match`: every place a pattern matches, with the nodes each match covers.
int runMatch(const Options& options);
/// `byoc rewrite`: the model with every match of a pattern replaced, to a fixed point.
int runRewrite(const Options& options);
/// `byoc compare`: what differs between partitioning a model for `--target`s and for `--against`s.
int runCompare(const Options& options);

/// `byoc export`: the model partitioned for `--target`s, written as an export directory to `-o`.
int runExport(const Options& options);
/// `byoc export-tvm`: a target as a TVM Python module (pattern table and op-support functions).
int runExportTvm(const Options& options);
/// `byoc verify`: checks every checksum of an export directory and that every artifact builds.
int runVerify(const Options& options);

/// `byoc plugins`: the codegen plugins found, with name, version and file.
int runPlugins(const Options& options);
/// Describes the plugins of `--plugin` (an error for each that fails: the caller exits 1) and
/// finds those of the plugin path, described when a target names their codegen (a warning on
/// stderr for each that fails then) or at once for `byoc plugins`.
Status loadPlugins(const Options& options);
/// `status`, or 1 after reporting each plugin region whose unload failed once the command's
/// executors were destroyed.
int reportPluginUnloadErrors(int status);

/// Prints `error: <diagnostic>` to stderr and returns 1.
int reportError(const Diagnostic& error);

}  // namespace byoc::cli
