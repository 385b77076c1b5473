#pragma once
/// \file
/// The codegen of a plugin (`plugin:<name>`): a region is handed to the plugin as its kernel graph
/// JSON with its constants, compiled in a child process (plugin_process.h), and the artifact
/// loaded in this process as the region's runtime module (plugin_module.h).

#include <memory>

#include "plugin/plugin_library.h"

namespace byoc {

/// The codegen that compiles and runs regions through `plugin`.
Codegen pluginCodegen(std::shared_ptr<const PluginLibrary> plugin);

}  // namespace byoc
