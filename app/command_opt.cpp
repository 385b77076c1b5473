#include "commands.h"
#include "model_input.h"
#include "pass/builtin_passes.h"
#include "pass/pipeline.h"
#include "pass/registry.h"
#include "step_runner.h"

namespace byoc::cli {

int runOpt(const Options& options) {
  Result<Module> module = loadTypedModel(options);
  if (!module) return reportError(module.error());
  const PassRegistry& registry = builtinPasses();
  Result<std::vector<PipelineStep>> pipeline = parsePipeline(*options.value("--passes"), registry);
  if (!pipeline) return reportError(pipeline.error());
  Result<std::vector<PassPtr>> passes = createPipelinePasses(*pipeline, registry);
  if (!passes) return reportError(passes.error());
  // One step per invocation, as a Sequential of the passes would run them (required passes included).
  Result<std::vector<PassPtr>> steps = sequenceSteps(*passes, PassContext{});
  if (!steps) return reportError(steps.error());
  return runStepsAndEmit(options, std::move(*module), *steps);
}

}  // namespace byoc::cli
