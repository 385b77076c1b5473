#include "plugin/plugin_registry.h"

#include <algorithm>
#include <cstdlib>
#include <deque>
#include <filesystem>
#include <mutex>

#include "plugin/plugin_codegen.h"

namespace byoc {

namespace {

namespace fs = std::filesystem;

struct Registry {
  std::mutex mutex;
  std::vector<PluginDescription> plugins;
  /// Files found, not described yet (canonical paths, in the order found).
  std::deque<std::string> waiting;
  /// Every file added, described or waiting.
  std::vector<std::string> seen;
  std::function<void(const Diagnostic&)> reporter;
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

/// Describes the canonical `file` and registers its codegen; the registry's lock is held.
Result<PluginDescription> describeAndRegister(Registry& plugins, const std::string& file) {
  BYOC_ASSIGN_OR_RETURN(PluginDescription plugin, describePlugin(file));
  for (const PluginDescription& other : plugins.plugins)
    if (other.name == plugin.name) return makeError("a second plugin named \"" + plugin.name + "\"; the first is " + other.path, {file});
  if (!registerCodegen(pluginCodegen(plugin))) return makeError("the codegen name " + plugin.codegenName() + " is already taken", {file});
  plugins.plugins.push_back(plugin);
  return plugin;
}

/// Describes waiting plugins until one provides the codegen `name`, those whose file name
/// mentions the plugin's name first.
void describeWaitingFor(std::string_view name) {
  if (!name.starts_with(kPluginCodegenPrefix)) return;
  const std::string wanted(name.substr(kPluginCodegenPrefix.size()));
  Registry& plugins = registry();
  std::lock_guard lock(plugins.mutex);
  std::stable_partition(plugins.waiting.begin(), plugins.waiting.end(),
                        [&](const std::string& file) { return fs::path(file).filename().string().find(wanted) != std::string::npos; });
  while (!plugins.waiting.empty()) {
    const std::string file = plugins.waiting.front();
    plugins.waiting.pop_front();
    Result<PluginDescription> added = describeAndRegister(plugins, file);
    if (!added && plugins.reporter) plugins.reporter(added.error());
    if (added && added->name == wanted) return;
  }
}

/// Puts the canonical `file` in the waiting queue unless it was added before, and makes asking for
/// an unknown plugin codegen describe the waiting files.
void enqueue(const std::string& file) {
  Registry& plugins = registry();
  {
    std::lock_guard lock(plugins.mutex);
    if (std::find(plugins.seen.begin(), plugins.seen.end(), file) != plugins.seen.end()) return;
    plugins.seen.push_back(file);
    plugins.waiting.push_back(file);
  }
  setCodegenResolver(describeWaitingFor);
}

}  // namespace

Result<PluginDescription> addPlugin(const std::string& path) {
  const std::string file = canonical(path);
  Registry& plugins = registry();
  std::lock_guard lock(plugins.mutex);
  for (const PluginDescription& plugin : plugins.plugins)
    if (plugin.path == file) return plugin;
  std::error_code error;
  if (!fs::is_regular_file(file, error)) return makeError("no such plugin file", {path});
  std::erase(plugins.waiting, file);
  if (std::find(plugins.seen.begin(), plugins.seen.end(), file) == plugins.seen.end()) plugins.seen.push_back(file);
  return describeAndRegister(plugins, file);
}

std::vector<Diagnostic> addPluginPath(const std::string& pathList, PluginDiscovery when) {
  std::vector<Diagnostic> problems;
  std::size_t begin = 0;
  while (begin <= pathList.size()) {
    std::size_t end = pathList.find(':', begin);
    if (end == std::string::npos) end = pathList.size();
    const std::string entry = pathList.substr(begin, end - begin);
    begin = end + 1;
    if (entry.empty()) continue;
    for (const std::string& file : entryFiles(entry)) {
      if (when == PluginDiscovery::Now) {
        if (Result<PluginDescription> added = addPlugin(file); !added) problems.push_back(added.error());
        continue;
      }
      enqueue(canonical(file));
    }
  }
  return problems;
}

Status addWaitingPlugin(const std::string& path) {
  std::error_code error;
  if (!fs::is_regular_file(path, error)) return makeError("no such plugin file", {path});
  enqueue(canonical(path));
  return Status::ok();
}

std::vector<Diagnostic> describeWaitingPlugins() {
  std::vector<Diagnostic> problems;
  Registry& plugins = registry();
  for (;;) {
    // One file at a time, so that a codegen asked for meanwhile waits for one description only.
    std::lock_guard lock(plugins.mutex);
    if (plugins.waiting.empty()) return problems;
    const std::string file = plugins.waiting.front();
    plugins.waiting.pop_front();
    if (Result<PluginDescription> added = describeAndRegister(plugins, file); !added) problems.push_back(added.error());
  }
}

std::string installedPluginFolder() {
  std::error_code error;
  const fs::path self = fs::read_symlink("/proc/self/exe", error);
  if (error) return "";
  return (self.parent_path().parent_path() / "lib" / "byoc" / "plugins").string();
}

std::vector<Diagnostic> addDefaultPlugins(PluginDiscovery when) {
  const char* configured = std::getenv("BYOC_PLUGIN_PATH");
  std::vector<Diagnostic> problems = addPluginPath(configured ? configured : "", when);
  std::error_code error;
  const std::string installed = installedPluginFolder();
  if (!installed.empty() && fs::is_directory(installed, error)) {
    std::vector<Diagnostic> more = addPluginPath(installed, when);
    problems.insert(problems.end(), more.begin(), more.end());
  }
  return problems;
}

std::vector<PluginDescription> addedPlugins() {
  Registry& plugins = registry();
  std::lock_guard lock(plugins.mutex);
  return plugins.plugins;
}

void setPluginProblemReporter(std::function<void(const Diagnostic&)> reporter) {
  Registry& plugins = registry();
  std::lock_guard lock(plugins.mutex);
  plugins.reporter = std::move(reporter);
}

}  // namespace byoc
