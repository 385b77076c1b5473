/// \file
/// `byoc plugins`, and loading the codegen plugins every command may use.

#include <iostream>

#include "commands.h"
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
  pathProblems() = addDefaultPlugins();
  // `byoc plugins` lists them with the plugins; the other commands only warn.
  if (options.command != "plugins")
    for (const Diagnostic& problem : pathProblems()) std::cerr << "warning: " << problem.str() << "\n";
  return Status::ok();
}

int runPlugins(const Options&) {
  const auto plugins = addedPlugins();
  if (plugins.empty()) std::cout << "no codegen plugins found (give --plugin PATH, or set BYOC_PLUGIN_PATH)\n";
  for (const auto& plugin : plugins)
    std::cout << plugin->codegenName() << "  " << plugin->version() << "  " << plugin->path() << "\n"
              << "    " << plugin->summary() << "\n";
  for (const Diagnostic& problem : pathProblems()) std::cout << "not loaded: " << problem.str() << "\n";
  return 0;
}

}  // namespace byoc::cli
