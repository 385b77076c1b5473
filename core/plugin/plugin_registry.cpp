#include "plugin/plugin_registry.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <mutex>

#include "plugin/plugin_codegen.h"

namespace byoc {

namespace {

namespace fs = std::filesystem;

struct Registry {
  std::mutex mutex;
  std::vector<std::shared_ptr<const PluginLibrary>> plugins;
};

Registry& registry() {
  static Registry instance;
  return instance;
}

/// `path` made absolute and free of links, so that one file is recognised however it is named.
std::string canonical(const std::string& path) {
  std::error_code error;
  fs::path resolved = fs::weakly_canonical(fs::absolute(path, error), error);
  return error ? path : resolved.string();
}

/// The files a plugin path entry stands for: itself, or a folder's `*.so` files in name order.
std::vector<std::string> entryFiles(const std::string& entry) {
  std::error_code error;
  if (!fs::is_directory(entry, error)) return {entry};
  std::vector<std::string> files;
  for (fs::directory_iterator it(entry, error); !error && it != fs::directory_iterator(); it.increment(error))
    if (it->path().extension() == ".so" && fs::is_regular_file(it->status(error))) files.push_back(it->path().string());
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace

Result<std::shared_ptr<const PluginLibrary>> addPlugin(const std::string& path) {
  const std::string file = canonical(path);
  Registry& plugins = registry();
  std::lock_guard lock(plugins.mutex);
  for (const auto& plugin : plugins.plugins)
    if (plugin->path() == file) return plugin;
  std::error_code error;
  if (!fs::is_regular_file(file, error)) return makeError("no such plugin file", {path});
  BYOC_ASSIGN_OR_RETURN(std::shared_ptr<const PluginLibrary> plugin, PluginLibrary::open(file));
  for (const auto& other : plugins.plugins)
    if (other->name() == plugin->name())
      return makeError("a second plugin named \"" + plugin->name() + "\"; the first is " + other->path(), {path});
  if (!registerCodegen(pluginCodegen(plugin)))
    return makeError("the codegen name " + plugin->codegenName() + " is already taken", {path});
  plugins.plugins.push_back(plugin);
  return plugin;
}

std::vector<Diagnostic> addPluginPath(const std::string& pathList) {
  std::vector<Diagnostic> problems;
  std::size_t begin = 0;
  while (begin <= pathList.size()) {
    std::size_t end = pathList.find(':', begin);
    if (end == std::string::npos) end = pathList.size();
    const std::string entry = pathList.substr(begin, end - begin);
    begin = end + 1;
    if (entry.empty()) continue;
    for (const std::string& file : entryFiles(entry))
      if (Result<std::shared_ptr<const PluginLibrary>> added = addPlugin(file); !added) problems.push_back(added.error());
  }
  return problems;
}

std::string installedPluginFolder() {
  std::error_code error;
  const fs::path self = fs::read_symlink("/proc/self/exe", error);
  if (error) return "";
  return (self.parent_path().parent_path() / "lib" / "byoc" / "plugins").string();
}

std::vector<Diagnostic> addDefaultPlugins() {
  const char* configured = std::getenv("BYOC_PLUGIN_PATH");
  std::vector<Diagnostic> problems = addPluginPath(configured ? configured : "");
  std::error_code error;
  const std::string installed = installedPluginFolder();
  if (!installed.empty() && fs::is_directory(installed, error)) {
    std::vector<Diagnostic> more = addPluginPath(installed);
    problems.insert(problems.end(), more.begin(), more.end());
  }
  return problems;
}

std::vector<std::shared_ptr<const PluginLibrary>> addedPlugins() {
  Registry& plugins = registry();
  std::lock_guard lock(plugins.mutex);
  return plugins.plugins;
}

}  // namespace byoc
