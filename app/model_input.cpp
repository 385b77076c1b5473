#include "model_input.h"

#include <iostream>

#include "step_runner.h"

namespace byoc::cli {

Result<OpenedModel> openInput(const Options& options) {
  if (options.demo()) return openDemo();
  return openModel(*options.file);
}

Result<Module> loadTypedModel(const Options& options) {
  BYOC_ASSIGN_OR_RETURN(OpenedModel opened, openInput(options));
  return std::move(opened.module);
}

Result<std::vector<std::shared_ptr<const Target>>> loadTargets(const std::vector<std::string>& names) {
  return byoc::loadTargets(names, [](const std::string& name, const Diagnostic& problem) {
    std::cerr << "warning: " << name << ": " << problem.message << "\n";
  });
}

Result<std::vector<std::shared_ptr<const Target>>> loadTargets(const Options& options) {
  return loadTargets(options.values("--target"));
}

Result<PartitionedModel> partitionForTargets(const Options& options, const Module& model, const NamedPartition& named) {
  PartitionedModel partitioned{model, {}};
  BYOC_ASSIGN_OR_RETURN(partitioned.targets, loadTargets(named.targets));
  if (partitioned.targets.empty()) return partitioned;
  BYOC_ASSIGN_OR_RETURN(PartitionPipeline pipeline, parsePartitionPipeline(named.pipeline));
  BYOC_ASSIGN_OR_RETURN(PassRun run, partitionModel(model, {partitioned.targets, pipeline}, instrumentedOptions(options)));
  reportTiming(options, run);
  partitioned.module = partitionedModule(run, model);
  return partitioned;
}

Result<PartitionedModel> partitionForTargets(const Options& options, const Module& model) {
  return partitionForTargets(options, model, {options.values("--target"), options.value("--pipeline").value_or("relay")});
}

}  // namespace byoc::cli
