#pragma once
/// \file
/// The runtime module of a region compiled by a codegen plugin: the plugin's loaded module, its
/// reported outputs checked against the region's type, tensors passed as `byoc_tensor`s.

#include <filesystem>
#include <memory>
#include <string>

#include "plugin/plugin_library.h"
#include "runtime/runtime_module.h"

namespace byoc {

/// Loads `artifact` (whose files lie in `directory`) through `plugin` as the runtime module of
/// `function` under `symbol`. When `ownedDirectory` is set, the module removes that directory
/// (which the caller created for it) when it is destroyed.
Result<std::unique_ptr<RuntimeModule>> loadPluginModule(std::shared_ptr<const PluginLibrary> plugin, const Function& function,
                                                        const std::string& symbol, const CodegenArtifact& artifact,
                                                        const std::string& directory, bool ownedDirectory);

}  // namespace byoc
