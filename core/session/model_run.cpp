#include "session/model_run.h"

#include <filesystem>

#include "frontend/loader.h"
#include "pass/infer_type.h"

namespace byoc {

namespace {

/// The model in `file` (exportSourceFile), loaded and type-checked.
Result<Module> exportSource(const std::string& file) {
  if (file.empty()) return makeError("the export does not name the model it was made from");
  std::error_code error;
  if (!std::filesystem::is_regular_file(file, error)) return makeError("the model it was exported from is not there any more", {file});
  BYOC_ASSIGN_OR_RETURN(Module model, loadModuleFile(file));
  return inferTypes(model);
}

RunPlan planExportRun(const OpenedModel& opened, const RunSettings& settings) {
  const LoadedExport& exported = *opened.exported;
  RunPlan plan;
  plan.module = opened.module;
  plan.executorOptions = exportExecutorOptions(exported, settings.trustCompiled ? CompiledRegions::Trust : CompiledRegions::Rebuild,
                                               settings.threads);
  if (!exported.compiled.empty())
    plan.compiledRegions = std::to_string(exported.compiled.size()) +
                           (settings.trustCompiled ? " plugin region(s) run from the export's compiled files (trusted)"
                                                   : " plugin region(s) compiled again from their IR; the export's compiled files "
                                                     "were not run");
  if (exported.kernelGraphs.empty()) {
    plan.reference = opened.module;
    if (settings.checkEachCall) plan.regionsChecked = opened.module;
    return plan;
  }
  const std::string file = exportSourceFile(exported);
  Result<Module> source = exportSource(file);
  if (!source) {
    plan.notComparable = "the export's dnnl regions are kernel graphs, whose reference is the model exported: " + source.error().str();
    return plan;
  }
  plan.reference = std::move(source).value();
  plan.referenceFile = file;
  return plan;
}

}  // namespace

Result<RunPlan> planRun(const OpenedModel& opened, const PartitionRequest& request, const RunSettings& settings,
                        const Module* partitioned, const PassRunOptions& passes) {
  if (opened.exported) {
    if (!request.targets.empty()) return makeError("an export is already partitioned; targets do not apply", {opened.path});
    return planExportRun(opened, settings);
  }
  if (settings.trustCompiled) return makeError("trusting compiled code applies to an export only");
  RunPlan plan;
  plan.executorOptions.threads = settings.threads;
  addTargetCodegens(request.targets, plan.executorOptions);
  if (partitioned) {
    plan.module = *partitioned;
  } else if (request.targets.empty()) {
    plan.module = opened.module;  // run as loaded: already partitioned, or all on the reference kernels
  } else {
    BYOC_ASSIGN_OR_RETURN(PassRun run, partitionModel(opened.module, request, passes));
    plan.module = partitionedModule(run, opened.module);
  }
  plan.reference = opened.module;
  if (settings.checkEachCall && request.targets.empty()) {
    plan.regionsChecked = plan.module;
  } else if (settings.checkEachCall) {
    BYOC_ASSIGN_OR_RETURN(std::vector<PassPtr> steps, regionPerCallSteps(request.targets));
    BYOC_ASSIGN_OR_RETURN(PassRun run, runPasses(steps, opened.module, {.cancel = passes.cancel}));
    plan.regionsChecked = partitionedModule(run, opened.module);
  }
  return plan;
}

Result<ReferenceComparison> compareRun(const RunPlan& plan, std::span<const Value> args, const std::vector<NDArray>& outputs,
                                       const std::atomic<bool>* cancel, const std::function<void(ComparisonStage)>& onStage) {
  if (!plan.reference) return makeError(plan.notComparable);
  if (onStage) onStage(ComparisonStage::Reference);
  BYOC_ASSIGN_OR_RETURN(std::vector<NDArray> expected, runOnReference(*plan.reference, args, cancel));
  ReferenceComparison comparison = compareWithReference(outputs, expected);
  if (plan.regionsChecked) {
    if (onStage) onStage(ComparisonStage::EachCall);
    BYOC_ASSIGN_OR_RETURN(comparison.regions, checkRegions(*plan.regionsChecked, plan.executorOptions, args));
  }
  return comparison;
}

}  // namespace byoc
