/// \file
/// `byoc plugins`, and finding the codegen plugins every command may use. `byoc plugins` and
/// `--plugin` describe their plugins at once (in a plugin host, plugin_process.h); the plugin path
/// is only looked through, and a plugin on it is described when a target names a codegen not yet
/// known, so that a command that needs no plugin never starts one.

#include <iostream>

#include "commands.h"
#include "plugin/plugin_module.h"
#include "plugin/plugin_registry.h"

namespace byoc::cli {

namespace {

/// What the plugin path could not load, kept for `byoc plugins` to list.
std::vector<Diagnostic>& pathProblems() {
  static std::vector<Diagnostic> problems;
  return problems;
}

}  // namespace

Status loadPlugins(const Options& options) {
  for (const std::string& path : options.values("--plugin")) BYOC_TRY(addPlugin(path).status());
  if (options.command == "plugins") {
    pathProblems() = addDefaultPlugins(PluginDiscovery::Now);
    return Status::ok();
  }
  setPluginProblemReporter([](const Diagnostic& problem) { std::cerr << "warning: " << problem.str() << "\n"; });
  addDefaultPlugins(PluginDiscovery::WhenNamed);
  return Status::ok();
}

int runPlugins(const Options&) {
  const auto plugins = addedPlugins();
  if (plugins.empty()) std::cout << "no codegen plugins found (give --plugin PATH, or set BYOC_PLUGIN_PATH)\n";
  for (const PluginDescription& plugin : plugins)
    std::cout << plugin.codegenName() << "  " << plugin.version << "  " << plugin.path << "\n"
              << "    " << plugin.summary << "\n";
  for (const Diagnostic& problem : pathProblems()) std::cout << "not loaded: " << problem.str() << "\n";
  return 0;
}

int reportPluginUnloadErrors(int status) {
  const std::vector<Diagnostic> errors = takePluginUnloadErrors();
  for (const Diagnostic& error : errors) reportError(error);
  return errors.empty() ? status : 1;
}

}  // namespace byoc::cli
