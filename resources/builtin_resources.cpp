#include "builtin_resources.h"

namespace byoc {

std::optional<std::string_view> findBuiltinResource(std::string_view name) {
  for (const BuiltinResource& resource : builtinResources())
    if (resource.name == name) return resource.content;
  return std::nullopt;
}

}  // namespace byoc
