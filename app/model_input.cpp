#include "model_input.h"

#include "builtin_resources.h"
#include "frontend/loader.h"
#include "pass/infer_type.h"
#include "target/target_library.h"
#include "text/parser.h"

namespace byoc::cli {

Result<Module> loadTypedModel(const Options& options) {
  Result<Module> module = options.demo()
                              ? parseModule(*findBuiltinResource(kDemoModelName), std::string(kDemoModelName))
                              : loadModuleFile(*options.file);
  if (!module) return module;
  return inferTypes(*module);
}

Result<std::vector<std::shared_ptr<const Target>>> loadTargets(const Options& options) {
  std::vector<std::shared_ptr<const Target>> targets;
  for (const std::string& name : options.values("--target")) {
    BYOC_ASSIGN_OR_RETURN(Target target, loadTarget(name));
    targets.push_back(std::make_shared<const Target>(std::move(target)));
  }
  return targets;
}

}  // namespace byoc::cli
