#pragma once
/// \file
/// The codegen of a plugin (`plugin:<name>`): a region is handed to the plugin as its kernel graph
/// JSON with its constants and compiled in a plugin host, and the artifact is loaded and run in
/// another host, one per region (plugin_process.h, plugin_module.h).

#include "plugin/plugin_process.h"

namespace byoc {

/// The codegen that compiles and runs regions through the plugin `description` describes.
Codegen pluginCodegen(const PluginDescription& description);

}  // namespace byoc
