#pragma once
/// \file
/// Finding codegen plugins and registering their codegens (`plugin:<name>`) for this process.
///
/// Plugins come from three places: files named on the command line (`--plugin PATH`), the
/// plugin path (`$BYOC_PLUGIN_PATH` and the app's setting: a colon-separated list of plugin
/// files and folders, a folder contributing its `*.so` files), and the folder of installed plugins
/// (`<prefix>/lib/byoc/plugins`, found from the running program). One file is added once; two
/// plugins of the same name are refused.
///
/// Finding a plugin runs none of its code. Its name, version and summary are learned by starting
/// its host (plugin_process.h), which opens the library in a child process under a time limit:
/// either at once (`PluginDiscovery::Now`: `byoc plugins`, `--plugin`), or only when a codegen
/// `plugin:NAME` is asked for and not yet known (`PluginDiscovery::WhenNamed`: the plugin path of
/// every other command, and the app, which describes its waiting plugins off its GUI thread). Then
/// the waiting files are described one by one, those whose file name contains NAME first, until one
/// provides it; each file is described at most once.

#include <functional>
#include <string>
#include <vector>

#include "plugin/plugin_process.h"

namespace byoc {

/// When the plugins of a path are described.
enum class PluginDiscovery { Now, WhenNamed };

/// Describes the plugin at `path` and registers its codegen (nothing happens for a file already
/// added). Errors name the file.
Result<PluginDescription> addPlugin(const std::string& path);

/// Adds the plugin file `path` to those described when their codegen is asked for (or by
/// describeWaitingPlugins); runs none of its code. A file that does not exist is an error.
Status addWaitingPlugin(const std::string& path);

/// Describes and registers every plugin still waiting, in the order found; returns one diagnostic
/// per file that could not be added.
std::vector<Diagnostic> describeWaitingPlugins();

/// Adds every plugin of the colon-separated `pathList` (files, and the `*.so` files of folders,
/// in name order). With `Now`, returns what could not be added, one diagnostic per file; with
/// `WhenNamed`, nothing: those problems go to the reporter when they are found.
std::vector<Diagnostic> addPluginPath(const std::string& pathList, PluginDiscovery when);

/// Adds the plugins of `$BYOC_PLUGIN_PATH` and of the folder of installed plugins.
std::vector<Diagnostic> addDefaultPlugins(PluginDiscovery when);

/// The folder of installed plugins: `../lib/byoc/plugins` from the running program's folder.
std::string installedPluginFolder();

/// Every plugin described and registered so far, in the order added.
std::vector<PluginDescription> addedPlugins();

/// Receives each problem of a plugin described when its codegen was asked for.
void setPluginProblemReporter(std::function<void(const Diagnostic&)> reporter);

}  // namespace byoc
