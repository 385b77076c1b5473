#include "model_input.h"

#include <iostream>

#include "builtin_resources.h"
#include "export/export_reader.h"
#include "frontend/loader.h"
#include "pass/infer_type.h"
#include "pass/partition/partition_flow.h"
#include "step_runner.h"
#include "runtime/runtime_module.h"
#include "target/target_library.h"
#include "text/parser.h"

namespace byoc::cli {

namespace {

Result<Module> loadModel(const Options& options, LoadedExport* source) {
  if (options.demo()) return parseModule(*findBuiltinResource(kDemoModelName), std::string(kDemoModelName));
  if (!isExportDirectory(*options.file)) return loadModuleFile(*options.file);
  BYOC_ASSIGN_OR_RETURN(LoadedExport loaded, loadExport(*options.file));
  Module module = loaded.module;
  if (source) *source = std::move(loaded);
  return module;
}

}  // namespace

Result<Module> loadTypedModel(const Options& options, LoadedExport* source) {
  Result<Module> module = loadModel(options, source);
  if (!module) return module;
  return inferTypes(*module);
}

Result<std::vector<std::shared_ptr<const Target>>> loadTargets(const std::vector<std::string>& names) {
  std::vector<std::shared_ptr<const Target>> targets;
  for (const std::string& name : names) {
    BYOC_ASSIGN_OR_RETURN(Target target, loadTarget(name));
    // Partitioning does not need the codegen, so this is said, not refused; running fails at the row.
    for (const Diagnostic& problem : compositesTheCodegenCannotBuild(target))
      std::cerr << "warning: " << name << ": " << problem.message << "\n";
    targets.push_back(std::make_shared<const Target>(std::move(target)));
  }
  return targets;
}

Result<std::vector<std::shared_ptr<const Target>>> loadTargets(const Options& options) {
  return loadTargets(options.values("--target"));
}

Result<PartitionedModel> partitionForTargets(const Options& options, const Module& model, const PartitionRequest& request) {
  PartitionedModel partitioned{model, {}};
  BYOC_ASSIGN_OR_RETURN(partitioned.targets, loadTargets(request.targets));
  if (partitioned.targets.empty()) return partitioned;
  BYOC_ASSIGN_OR_RETURN(PartitionPipeline pipeline, parsePartitionPipeline(request.pipeline));
  BYOC_ASSIGN_OR_RETURN(std::vector<PassPtr> steps, partitionSteps(partitioned.targets, pipeline));
  BYOC_ASSIGN_OR_RETURN(PassRun run, runInstrumented(options, steps, model));
  partitioned.module = std::move(run.steps.back().module);
  return partitioned;
}

Result<PartitionedModel> partitionForTargets(const Options& options, const Module& model) {
  return partitionForTargets(options, model, {options.values("--target"), options.value("--pipeline").value_or("relay")});
}

}  // namespace byoc::cli
