#pragma once
/// \file
/// Finding codegen plugins and registering their codegens (`plugin:<name>`) for this process.
///
/// Plugins come from three places: files named on the command line (`--plugin PATH`), the
/// plugin path (`$BYOC_PLUGIN_PATH` and the app's setting: a colon-separated list of plugin
/// files and folders, a folder contributing its `*.so` files), and the folder of installed plugins
/// (`<prefix>/lib/byoc/plugins`, found from the running program). A library opened once is not
/// opened again; two plugins of the same name are refused.

#include <memory>
#include <string>
#include <vector>

#include "plugin/plugin_library.h"

namespace byoc {

/// Opens the plugin at `path` and registers its codegen (nothing happens for a file already
/// added). Errors name the file.
Result<std::shared_ptr<const PluginLibrary>> addPlugin(const std::string& path);

/// Adds every plugin of the colon-separated `pathList` (files, and the `*.so` files of folders,
/// in name order); returns what could not be added, one diagnostic per file.
std::vector<Diagnostic> addPluginPath(const std::string& pathList);

/// Adds the plugins of `$BYOC_PLUGIN_PATH` and of the folder of installed plugins.
std::vector<Diagnostic> addDefaultPlugins();

/// The folder of installed plugins: `../lib/byoc/plugins` from the running program's folder.
std::string installedPluginFolder();

/// Every plugin added so far, in the order added.
std::vector<std::shared_ptr<const PluginLibrary>> addedPlugins();

}  // namespace byoc
