#pragma once
/// \file
/// Compiling a region through a codegen plugin in a child process, `byoc-plugin-host`, so that a
/// plugin that crashes or exits while compiling is reported as an error and the program goes on.
///
/// The region (kernel graph JSON and its constants as safetensors) is written to a fresh
/// temporary directory, the host compiles it there and writes the artifact's files to an output
/// folder beside it; the files are then read back with every name, count and size checked, and
/// the temporary directory is removed.

#include <string>

#include "plugin/plugin_library.h"

namespace byoc {

/// The `byoc-plugin-host` executable: `$BYOC_PLUGIN_HOST` if set, else the one next to the
/// running program.
std::string pluginHostPath();

/// Compiles a region through `plugin` in a child process.
Result<CodegenArtifact> compileInChildProcess(const PluginLibrary& plugin, const std::string& regionJson,
                                              const std::string& constantsSafetensors);

/// A new, empty temporary directory (under `$TMPDIR`, else /tmp) whose name starts with `prefix`.
Result<std::string> makeTemporaryDirectory(const std::string& prefix);

/// Writes the files of `artifact` into the existing `directory`.
Status writeArtifactFiles(const CodegenArtifact& artifact, const std::string& directory);

}  // namespace byoc
