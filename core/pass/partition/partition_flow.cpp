#include "pass/partition/partition_flow.h"

#include "pass/partition/partition_passes.h"
#include "pass/pipeline.h"
#include "pass/registry.h"

namespace byoc {

Result<PartitionPipeline> parsePartitionPipeline(std::string_view name) {
  if (name == "relay") return PartitionPipeline::Relay;
  if (name == "relax") return PartitionPipeline::Relax;
  return makeError("unknown pipeline '" + std::string(name) + "'; expected relay or relax");
}

Result<std::vector<PassPtr>> partitionSteps(const std::vector<std::shared_ptr<const Target>>& targets,
                                            PartitionPipeline pipeline) {
  if (targets.empty()) return makeError("no target given");
  std::vector<PassPtr> steps;
  const PassRegistry& registry = PassRegistry::builtin();
  for (const auto& target : targets) {
    if (target->preparePipeline.empty()) continue;
    Result<std::vector<PipelineStep>> prepare = parsePipeline(target->preparePipeline, registry);
    if (!prepare) {
      Diagnostic error = prepare.error();
      error.message = "the prepare pipeline of target " + target->name + ": " + error.message;
      return error;
    }
    for (const PipelineStep& step : *prepare) {
      BYOC_ASSIGN_OR_RETURN(PassPtr pass, registry.create(step.pass, step.options));
      steps.push_back(std::move(pass));
    }
  }
  if (pipeline == PartitionPipeline::Relax) {
    BYOC_ASSIGN_OR_RETURN(PassPtr fuse, createFuseOpsByPatternPass(targets));
    steps.push_back(std::move(fuse));
    steps.push_back(createMergeCompositeFunctionsPass());
    steps.push_back(createRunCodegenPass());
    return steps;
  }
  BYOC_ASSIGN_OR_RETURN(PassPtr mergeComposite, createMergeCompositePass(targets));
  steps.push_back(std::move(mergeComposite));
  steps.push_back(createAnnotateTargetPass(targets));
  steps.push_back(createMergeCompilerRegionsPass());
  steps.push_back(createPartitionGraphPass());
  for (const auto& target : targets)
    if (!target->pruneKeepOps.empty()) steps.push_back(createPruneRegionsPass(target));
  return steps;
}

}  // namespace byoc
