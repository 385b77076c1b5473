#include "target/target_library.h"

#include <algorithm>

#include "builtin_resources.h"
#include "support/file_io.h"

namespace byoc {

namespace {

constexpr std::string_view kTargetFolder = "targets/";
constexpr std::string_view kTargetExtension = ".json";

bool isTargetResource(std::string_view name) {
  return name.starts_with(kTargetFolder) && name.ends_with(kTargetExtension);
}

}  // namespace

std::vector<std::string> builtinTargetNames() {
  std::vector<std::string> names;
  for (const BuiltinResource& resource : builtinResources()) {
    if (!isTargetResource(resource.name)) continue;
    std::string_view name = resource.name.substr(kTargetFolder.size());
    names.emplace_back(name.substr(0, name.size() - kTargetExtension.size()));
  }
  std::sort(names.begin(), names.end());
  return names;
}

Result<Target> loadTarget(std::string_view nameOrPath) {
  bool isFile = nameOrPath.ends_with(kTargetExtension) || nameOrPath.find('/') != std::string_view::npos;
  if (isFile) {
    BYOC_ASSIGN_OR_RETURN(std::string json, readFile(std::string(nameOrPath)));
    return parseTarget(json, nameOrPath);
  }
  std::string resource = std::string(kTargetFolder) + std::string(nameOrPath) + std::string(kTargetExtension);
  if (std::optional<std::string_view> json = findBuiltinResource(resource)) return parseTarget(*json, resource);
  std::string known;
  for (const std::string& name : builtinTargetNames()) known += (known.empty() ? "" : ", ") + name;
  return makeError("unknown target '" + std::string(nameOrPath) + "'; built-in targets are " + known +
                   ", or give a target file (.json)");
}

}  // namespace byoc
