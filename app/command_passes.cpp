#include <iostream>

#include "commands.h"
#include "pass/builtin_passes.h"
#include "pass/pass_reference.h"
#include "pass/registry.h"

namespace byoc::cli {

int runPasses(const Options& options) {
  const PassRegistry& registry = builtinPasses();
  if (options.has("--reference")) {
    std::cout << renderPassReference(registry);
    return 0;
  }
  std::size_t width = 0;
  for (const PassInfo* info : registry.all()) width = std::max(width, info->name.size());
  for (const PassInfo* info : registry.all())
    std::cout << info->name << std::string(width + 2 - info->name.size(), ' ') << info->summary << "\n";
  return 0;
}

}  // namespace byoc::cli
