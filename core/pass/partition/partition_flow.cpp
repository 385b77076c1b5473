#include "pass/partition/partition_flow.h"

#include "pass/builtin_passes.h"
#include "pass/partition/partition_passes.h"
#include "pass/pipeline.h"
#include "pass/registry.h"
#include "pass/transforms/optimize_external.h"
#include "pass/transforms/pattern_transforms.h"

namespace byoc {

Result<PartitionPipeline> parsePartitionPipeline(std::string_view name) {
  if (name == "relay") return PartitionPipeline::Relay;
  if (name == "relax") return PartitionPipeline::Relax;
  return makeError("unknown pipeline '" + std::string(name) + "'; expected relay or relax");
}

namespace {

/// An error of one of `target`'s pipelines (`field`: prepare or optimize), placed in the target's
/// file at its column in the pipeline text.
Diagnostic inPipelineField(const Target& target, const char* field, Diagnostic error, int column) {
  const std::string where = column > 0 ? "1:" + std::to_string(column) + ": " : "";
  error.message = "at /" + std::string(field) + ": " + where + error.message;
  error.location = {target.file.empty() ? "target " + target.name : target.file, 0, 0};
  return error;
}

/// The passes of `text`, the target's pipeline `field`.
Result<std::vector<PassPtr>> pipelinePasses(const Target& target, const char* field, const std::string& text,
                                            const PassRegistry& registry) {
  Result<std::vector<PipelineStep>> steps = parsePipeline(text, registry);
  if (!steps) return inPipelineField(target, field, steps.error(), steps.error().location.column);
  std::vector<PassPtr> passes;
  for (const PipelineStep& step : *steps) {
    Result<PassPtr> pass = registry.create(step.pass, step.options);
    if (!pass) return inPipelineField(target, field, pass.error(), step.column);
    passes.push_back(std::move(pass).value());
  }
  return passes;
}

/// Each target's preparation and rewrite rows.
Result<std::vector<PassPtr>> preparationSteps(const std::vector<std::shared_ptr<const Target>>& targets) {
  if (targets.empty()) return makeError("no target given");
  std::vector<PassPtr> steps;
  const PassRegistry& registry = builtinPasses();
  for (const auto& target : targets) {
    if (!target->preparePipeline.empty()) {
      BYOC_ASSIGN_OR_RETURN(std::vector<PassPtr> prepare, pipelinePasses(*target, "prepare", target->preparePipeline, registry));
      steps.insert(steps.end(), std::make_move_iterator(prepare.begin()), std::make_move_iterator(prepare.end()));
    }
    for (std::size_t i = 0; i < target->rewrites.size(); ++i) {
      const std::string source = (target->file.empty() ? "target " + target->name : target->file) + ": at /rewrites/" +
                                 std::to_string(i);
      steps.push_back(createPatternRewritePass(*target->rewrites[i].replacement, source));
    }
  }
  return steps;
}

/// Appends each target's optimize hook: its pipeline run on each of its outlined functions.
Status addOptimizeSteps(const std::vector<std::shared_ptr<const Target>>& targets, std::vector<PassPtr>& steps) {
  for (const auto& target : targets) {
    if (target->optimizePipeline.empty()) continue;
    BYOC_ASSIGN_OR_RETURN(std::vector<PassPtr> optimize,
                          pipelinePasses(*target, "optimize", target->optimizePipeline, builtinPasses()));
    steps.push_back(createOptimizeExternalPass(target->name, std::move(optimize)));
  }
  return Status::ok();
}

}  // namespace

Result<std::vector<PassPtr>> partitionSteps(const std::vector<std::shared_ptr<const Target>>& targets,
                                            PartitionPipeline pipeline) {
  BYOC_ASSIGN_OR_RETURN(std::vector<PassPtr> steps, preparationSteps(targets));
  if (pipeline == PartitionPipeline::Relax) {
    // As TVM's backends partition: constants become composite parameters (a codegen reads a
    // composite's weights from its inputs) and a match whose intermediate escapes is dropped (a
    // kernel has one output). The merged functions keep their constants, so that the codegen
    // compiles the weights once instead of receiving them on every call.
    BYOC_ASSIGN_OR_RETURN(PassPtr fuse, createFuseOpsByPatternPass(targets, {.bindConstants = false,
                                                                             .rejectLeakingIntermediates = true}));
    steps.push_back(std::move(fuse));
    steps.push_back(createMergeCompositeFunctionsPass(/*liftConstants=*/false));
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
  BYOC_TRY(addOptimizeSteps(targets, steps));
  return steps;
}

Status checkTargetPipelines(const Target& target) {
  for (const auto& [field, text] : {std::pair{"prepare", &target.preparePipeline}, std::pair{"optimize", &target.optimizePipeline}}) {
    if (text->empty()) continue;
    Result<std::vector<PipelineStep>> steps = parsePipeline(*text, builtinPasses());
    if (!steps) return inPipelineField(target, field, steps.error(), steps.error().location.column);
  }
  return Status::ok();
}

Result<std::vector<PassPtr>> regionPerCallSteps(const std::vector<std::shared_ptr<const Target>>& targets) {
  BYOC_ASSIGN_OR_RETURN(std::vector<PassPtr> steps, preparationSteps(targets));
  BYOC_ASSIGN_OR_RETURN(PassPtr mergeComposite, createMergeCompositePass(targets));
  steps.push_back(std::move(mergeComposite));
  steps.push_back(createAnnotateTargetPass(targets));
  steps.push_back(createPartitionGraphPass());
  BYOC_TRY(addOptimizeSteps(targets, steps));
  return steps;
}

}  // namespace byoc
