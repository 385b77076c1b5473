#pragma once
/// \file
/// The inputs of a command: the model it works on (a file, or the built-in demo; type-checked) and
/// the targets named by `--target`.

#include "cli_options.h"
#include <memory>
#include <vector>

#include "export/export_reader.h"
#include "ir/module.h"
#include "support/result.h"
#include "target/target.h"

namespace byoc::cli {

/// Loads `options.file` (any supported format, or an export directory) or the demo, then runs InferType.
/// When the file is an export directory and `source` is given, it receives the loaded export (whose
/// kernel graphs define the module's dnnl functions).
Result<Module> loadTypedModel(const Options& options, LoadedExport* source = nullptr);

/// The targets named (built-in names or files), in the order given.
Result<std::vector<std::shared_ptr<const Target>>> loadTargets(const std::vector<std::string>& names);
/// The targets of every `--target`, in the order given.
Result<std::vector<std::shared_ptr<const Target>>> loadTargets(const Options& options);

/// A model partitioned for the `--target`s of a command, with those targets.
struct PartitionedModel {
  Module module;
  std::vector<std::shared_ptr<const Target>> targets;
};

/// One partitioning: the targets by name, in priority order, and the pipeline's name.
struct PartitionRequest {
  std::vector<std::string> targets;
  std::string pipeline;
};

/// Runs the partitioning steps of `request` on `model`, with the instruments the flags of `options`
/// ask for (step_runner.h); without targets the model is returned as it is. A failing step names
/// itself in the error.
Result<PartitionedModel> partitionForTargets(const Options& options, const Module& model, const PartitionRequest& request);
/// The same for every `--target` with `--pipeline` (default relay).
Result<PartitionedModel> partitionForTargets(const Options& options, const Module& model);

}  // namespace byoc::cli
