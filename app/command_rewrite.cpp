#include "commands.h"
#include "model_input.h"
#include "pass/transforms/pattern_transforms.h"
#include "pattern_input.h"
#include "step_runner.h"

namespace byoc::cli {

int runRewrite(const Options& options) {
  Result<OwnedPattern> pattern = loadPattern(options);
  if (!pattern) return reportError(pattern.error());
  Result<Replacement> replacement = loadReplacement(options, pattern->get());
  if (!replacement) return reportError(replacement.error());
  Result<Module> module = loadTypedModel(options);
  if (!module) return reportError(module.error());
  return runStepsAndEmit(options, std::move(*module), {createPatternRewritePass(std::move(*replacement))});
}

}  // namespace byoc::cli
