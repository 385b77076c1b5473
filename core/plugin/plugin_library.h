#pragma once
/// \file
/// A codegen plugin library (include/byoc/codegen_plugin.h), opened and checked. Only
/// `byoc-plugin-host` opens plugin libraries (plugin_process.h): the program never runs their code.
///
/// Opening resolves the entry point, calls it, and checks the table it returns before anything
/// else uses it: the interface version, every function present, a name and version of bounded
/// length and plain characters. A library stays loaded for the life of the host.

#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "byoc/codegen_plugin.h"
#include "runtime/runtime_module.h"
#include "support/result.h"

namespace byoc {

/// One opened plugin library.
class PluginLibrary {
 public:
  /// Opens the library at `path`; errors name the file and what is wrong with it.
  static Result<std::shared_ptr<const PluginLibrary>> open(const std::string& path);

  /// The file it was opened from.
  const std::string& path() const { return path_; }
  /// The codegen's name, as the plugin reports it (`ccompiler`).
  const std::string& name() const { return name_; }
  /// The name targets use: `plugin:<name>`.
  std::string codegenName() const { return "plugin:" + name_; }
  const std::string& version() const { return version_; }
  const std::string& summary() const { return summary_; }
  /// The checked table of functions.
  const byoc_codegen_plugin& table() const { return *table_; }

  /// Compiles one region. The artifact's file names and sizes are checked.
  Result<CodegenArtifact> compile(std::string_view regionJson, std::span<const byoc_constant> constants) const;

  /// The message of a failed call (`error` from the plugin, released here), cut to the limit and
  /// to one line; `what` says which call failed when the plugin gave no message.
  std::string takeError(char* error, std::string_view what) const;

 private:
  PluginLibrary() = default;

  std::string path_;
  std::string name_;
  std::string version_;
  std::string summary_;
  const byoc_codegen_plugin* table_ = nullptr;
};

/// Why `name` cannot be a plugin's name (empty, too long, a character other than letters,
/// digits, '_' and '-'), or "" when it can.
std::string pluginNameProblem(std::string_view name);

}  // namespace byoc
