#include "session/partitioning.h"

#include "runtime/runtime_module.h"
#include "target/target_library.h"

namespace byoc {

Result<Target> openTarget(const std::string& nameOrPath) {
  BYOC_ASSIGN_OR_RETURN(Target target, loadTarget(nameOrPath));
  BYOC_TRY(checkTargetCodegen(target));
  return target;
}

Result<std::vector<std::shared_ptr<const Target>>> loadTargets(const std::vector<std::string>& names, const TargetWarning& warn) {
  std::vector<std::shared_ptr<const Target>> targets;
  for (const std::string& name : names) {
    BYOC_ASSIGN_OR_RETURN(Target target, openTarget(name));
    if (warn) {
      for (const Diagnostic& problem : compositesTheCodegenCannotBuild(target)) warn(name, problem);
    }
    targets.push_back(std::make_shared<const Target>(std::move(target)));
  }
  return targets;
}

Result<PassRun> partitionModel(const Module& model, const PartitionRequest& request, const PassRunOptions& options) {
  BYOC_ASSIGN_OR_RETURN(std::vector<PassPtr> steps, partitionSteps(request.targets, request.pipeline));
  return runPasses(steps, model, options);
}

const Module& partitionedModule(const PassRun& run, const Module& model) {
  return run.steps.empty() ? model : run.steps.back().module;
}

}  // namespace byoc
