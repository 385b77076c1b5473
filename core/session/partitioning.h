#pragma once
/// \file
/// Partitioning a model for targets, for the command line and the app alike: the targets loaded
/// by name, and the flow's passes run step by step (pass_runner.h) with the instruments, progress
/// and cancel flag the caller passes in `PassRunOptions`.

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "ir/module.h"
#include "pass/partition/partition_flow.h"
#include "pass/pass_runner.h"
#include "support/result.h"
#include "target/target.h"

namespace byoc {

/// One partitioning: the targets in priority order and the flow that partitions for them.
struct PartitionRequest {
  std::vector<std::shared_ptr<const Target>> targets;
  PartitionPipeline pipeline = PartitionPipeline::Relay;
};

/// Told, for a target loaded by name, each pattern its codegen cannot build (partitioning does not
/// need the codegen, so this is a warning; running fails at that row).
using TargetWarning = std::function<void(const std::string& name, const Diagnostic& problem)>;

/// The target `nameOrPath` names (a built-in name or a target file), its codegen checked against
/// the codegens registered (checkTargetCodegen).
Result<Target> openTarget(const std::string& nameOrPath);

/// The targets named (built-in names or target files), in the order given.
Result<std::vector<std::shared_ptr<const Target>>> loadTargets(const std::vector<std::string>& names,
                                                               const TargetWarning& warn = {});

/// Runs the partitioning steps of `request` on the typed `model` (partitionSteps): the module
/// after each step. A failing step names itself in the error; a set cancel
/// flag ends the run with `STEP: cancelled`.
Result<PassRun> partitionModel(const Module& model, const PartitionRequest& request, const PassRunOptions& options = {});

/// The module a partitioning ended with: its last step's, or `model` when it had none.
const Module& partitionedModule(const PassRun& run, const Module& model);

}  // namespace byoc
