#include "commands.h"
#include "model_input.h"
#include "pass/partition/partition_flow.h"
#include "step_runner.h"

namespace byoc::cli {

int runPartition(const Options& options) {
  Result<Module> module = loadTypedModel(options);
  if (!module) return reportError(module.error());
  Result<std::vector<std::shared_ptr<const Target>>> targets = loadTargets(options);
  if (!targets) return reportError(targets.error());
  Result<PartitionPipeline> pipeline = parsePartitionPipeline(options.value("--pipeline").value_or("relay"));
  if (!pipeline) return reportError(pipeline.error());
  Result<std::vector<PassPtr>> steps = partitionSteps(*targets, *pipeline);
  if (!steps) return reportError(steps.error());
  return runStepsAndEmit(options, std::move(*module), *steps);
}

}  // namespace byoc::cli
