#include "plugin/plugin_library.h"

#include <dlfcn.h>

#include <cctype>

#include "plugin/plugin_process.h"
#include "support/limits.h"

namespace byoc {

namespace {

/// A string of the plugin's table: present, of bounded length, printable.
Result<std::string> tableString(const char* text, const std::string& path, std::string_view field) {
  if (!text) return makeError("the plugin's " + std::string(field) + " is missing (a null pointer)", {path});
  std::string value;
  for (std::size_t i = 0; text[i] != '\0'; ++i) {
    if (i >= limits::kMaxPluginNameBytes * 4)
      return makeError("the plugin's " + std::string(field) + " is longer than " + std::to_string(limits::kMaxPluginNameBytes * 4) +
                           " bytes", {path});
    value += text[i] >= ' ' && text[i] != 0x7f ? text[i] : '?';
  }
  return value;
}

/// The first missing function of `table`, or nullptr when all are present.
const char* missingFunction(const byoc_codegen_plugin& table) {
  if (!table.compile) return "compile";
  if (!table.free_artifact) return "free_artifact";
  if (!table.load) return "load";
  if (!table.run) return "run";
  if (!table.unload) return "unload";
  if (!table.free_error) return "free_error";
  return nullptr;
}

}  // namespace

std::string pluginNameProblem(std::string_view name) {
  if (name.empty()) return "a plugin name may not be empty";
  if (name.size() > limits::kMaxPluginNameBytes)
    return "a plugin name is at most " + std::to_string(limits::kMaxPluginNameBytes) + " bytes";
  for (char c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '-')
      return "a plugin name has only letters, digits, '_' and '-', found \"" + std::string(name) + "\"";
  return "";
}

Result<std::shared_ptr<const PluginLibrary>> PluginLibrary::open(const std::string& path) {
  // RTLD_LOCAL: two plugins may define the same symbols; RTLD_NOW: a missing symbol fails here.
  void* handle = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char* reason = ::dlerror();
    return makeError(std::string("cannot load the codegen plugin: ") + (reason ? reason : "unknown error"), {path});
  }
  void* symbol = ::dlsym(handle, BYOC_CODEGEN_PLUGIN_ENTRY);
  if (!symbol) {
    ::dlclose(handle);
    return makeError("not a codegen plugin: it exports no " BYOC_CODEGEN_PLUGIN_ENTRY " function (include/byoc/codegen_plugin.h)", {path});
  }
  auto entry = reinterpret_cast<byoc_codegen_plugin_entry>(symbol);
  const byoc_codegen_plugin* table = entry(BYOC_CODEGEN_PLUGIN_INTERFACE_VERSION);
  if (!table)
    return makeError("the codegen plugin does not support interface version " + std::to_string(BYOC_CODEGEN_PLUGIN_INTERFACE_VERSION) +
                         " (its entry point returned no table)", {path});
  if (table->interface_version == 1)
    return makeError("the codegen plugin implements interface version 1, whose regions are the dnnl codegen's graph "
                     "(\"byoc-dnnl-kernel-graph\"); this program supports version " + std::to_string(BYOC_CODEGEN_PLUGIN_INTERFACE_VERSION) +
                         ", whose regions are the neutral kernel graph (\"" BYOC_CODEGEN_PLUGIN_REGION_FORMAT "\"): rebuild the plugin "
                         "against include/byoc/codegen_plugin.h (docs/plugins.md, \"Moving from version 1\")",
                     {path});
  if (table->interface_version != BYOC_CODEGEN_PLUGIN_INTERFACE_VERSION)
    return makeError("the codegen plugin implements interface version " + std::to_string(table->interface_version) +
                         "; this program supports version " + std::to_string(BYOC_CODEGEN_PLUGIN_INTERFACE_VERSION), {path});
  std::shared_ptr<PluginLibrary> library(new PluginLibrary());
  library->path_ = path;
  library->table_ = table;
  BYOC_ASSIGN_OR_RETURN(library->name_, tableString(table->name, path, "name"));
  if (std::string problem = pluginNameProblem(library->name_); !problem.empty()) return makeError(problem, {path});
  BYOC_ASSIGN_OR_RETURN(library->version_, tableString(table->version, path, "version"));
  if (library->version_.empty() || library->version_.size() > limits::kMaxPluginNameBytes)
    return makeError("the plugin's version has 1 to " + std::to_string(limits::kMaxPluginNameBytes) + " characters", {path});
  if (table->summary) {
    BYOC_ASSIGN_OR_RETURN(library->summary_, tableString(table->summary, path, "summary"));
  }
  if (const char* missing = missingFunction(*table))
    return makeError("the codegen plugin's table has no " + std::string(missing) + " function", {path});
  return std::shared_ptr<const PluginLibrary>(std::move(library));
}

std::string PluginLibrary::takeError(char* error, std::string_view what) const {
  std::string message;
  if (error) {
    for (std::size_t i = 0; error[i] != '\0' && message.size() < limits::kMaxPluginMessageBytes; ++i)
      message += error[i] == '\n' || error[i] == '\r' ? ' ' : error[i];
    table_->free_error(error);
  }
  if (message.empty()) message = std::string(what) + " failed without a message";
  return message;
}

Result<CodegenArtifact> PluginLibrary::compile(std::string_view regionJson, std::span<const byoc_constant> constants) const {
  byoc_artifact artifact{nullptr, 0};
  char* error = nullptr;
  if (table_->compile(regionJson.data(), regionJson.size(), constants.data(), constants.size(), &artifact, &error) != 0)
    return makeError(takeError(error, "compile"));
  CodegenArtifact result;
  Status checked = Status::ok();
  if (artifact.count > 0 && !artifact.files) checked = makeError(codegenName() + ": compile returned files without a file list");
  else if (artifact.count > static_cast<uint64_t>(limits::kMaxPluginArtifactFiles))
    checked = makeError(codegenName() + ": the artifact has " + std::to_string(artifact.count) + " files; at most " +
                        std::to_string(limits::kMaxPluginArtifactFiles) + " are allowed");
  uint64_t total = 0;
  for (uint64_t i = 0; checked && i < artifact.count; ++i) {
    const byoc_file& file = artifact.files[i];
    // The running total is checked before anything is copied, so that no size reported can make this allocate past the limit.
    if (file.size <= static_cast<uint64_t>(limits::kMaxPluginArtifactBytes)) total += file.size;
    if (!file.name || (file.size > 0 && !file.data) || file.size > static_cast<uint64_t>(limits::kMaxPluginArtifactBytes) ||
        total > static_cast<uint64_t>(limits::kMaxPluginArtifactBytes)) {
      checked = makeError(codegenName() + ": artifact file " + std::to_string(i) + " has no name or no data, or the artifact is larger than " +
                          std::to_string(limits::kMaxPluginArtifactBytes) + " bytes");
      break;
    }
    std::string name;
    for (std::size_t k = 0; file.name[k] != '\0' && name.size() <= limits::kMaxPluginNameBytes; ++k) name += file.name[k];
    result.files.emplace_back(std::move(name), std::string(reinterpret_cast<const char*>(file.data), file.size));
  }
  table_->free_artifact(&artifact);
  BYOC_TRY(checked);
  BYOC_TRY(checkArtifact(result, codegenName()));
  return result;
}

}  // namespace byoc
