#pragma once
/// \file
/// The runtime module of a region compiled by a codegen plugin: the artifact loaded in a plugin
/// host of its own (plugin_process.h), its reported outputs checked against the region's type,
/// tensors sent to the host and results read back on every run. Destroying the module unloads it;
/// a host that fails then leaves an error for `takePluginUnloadErrors`.

#include <memory>
#include <string>
#include <vector>

#include "plugin/plugin_process.h"
#include "runtime/runtime_module.h"

namespace byoc {

/// Loads `artifact` (whose files lie in `directory`) through the plugin of the file
/// `description.path` as the runtime module of `function` under `symbol`. When `ownedDirectory`
/// is set, the module removes that directory (which the caller created for it) when it is
/// destroyed.
Result<std::unique_ptr<RuntimeModule>> loadPluginModule(const PluginDescription& description, const Function& function,
                                                        const std::string& symbol, const CodegenArtifact& artifact,
                                                        const std::string& directory, bool ownedDirectory);

/// The errors of plugin modules whose unload failed since the last call (a destructor cannot
/// return them), oldest first.
std::vector<Diagnostic> takePluginUnloadErrors();

}  // namespace byoc
