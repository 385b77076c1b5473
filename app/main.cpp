/// \file
/// `byoc`: the command line of BYOC Studio.

#include <iostream>

#include "cli_options.h"
#include "commands.h"
#include "version.h"

namespace {

/// Runs the command `options` names; its executors are gone when it returns.
int runCommand(const byoc::cli::Options& options) {
  using namespace byoc::cli;
  if (options.command == "plugins") return runPlugins(options);
  if (options.command == "print") return runPrint(options);
  if (options.command == "partition") return runPartition(options);
  if (options.command == "opt") return runOpt(options);
  if (options.command == "passes") return runPasses(options);
  if (options.command == "match") return runMatch(options);
  if (options.command == "compare") return runCompare(options);
  if (options.command == "rewrite") return runRewrite(options);
  if (options.command == "run") return runRun(options);
  if (options.command == "export") return runExport(options);
  if (options.command == "export-tvm") return runExportTvm(options);
  if (options.command == "verify") return runVerify(options);
  return runInfo(options);
}

}  // namespace

int main(int argc, char** argv) {
  using namespace byoc::cli;
  std::vector<std::string> args(argv + 1, argv + argc);
  ParseOutcome parsed = parseOptions(args);
  if (!parsed.usageError.empty()) {
    std::cerr << "error: " << parsed.usageError << "\nRun 'byoc --help' for usage.\n";
    return 2;
  }
  const Options& options = parsed.options;
  if (options.command == "help") {
    std::cout << mainHelp();
    return 0;
  }
  if (options.command == "version") {
    std::cout << "byoc " << BYOC_STUDIO_VERSION << "\n";
    return 0;
  }
  if (options.help) {
    std::cout << commandHelp(options.command);
    return 0;
  }
  if (byoc::Status loaded = loadPlugins(options); !loaded) return reportError(loaded.error());
  return reportPluginUnloadErrors(runCommand(options));
}
