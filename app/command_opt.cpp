#include "commands.h"
#include "model_input.h"
#include "pass/pipeline.h"
#include "pass/registry.h"
#include "step_runner.h"

namespace byoc::cli {

int runOpt(const Options& options) {
  Result<Module> module = loadTypedModel(options);
  if (!module) return reportError(module.error());
  const PassRegistry& registry = PassRegistry::builtin();
  Result<std::vector<PipelineStep>> pipeline = parsePipeline(*options.value("--passes"), registry);
  if (!pipeline) return reportError(pipeline.error());
  std::vector<PassPtr> steps;
  for (const PipelineStep& step : *pipeline) {
    Result<PassPtr> pass = buildPipeline(std::span<const PipelineStep>(&step, 1), registry, step.pass);
    if (!pass) return reportError(pass.error());
    steps.push_back(*pass);
  }
  return runStepsAndEmit(options, std::move(*module), steps);
}

}  // namespace byoc::cli
