#pragma once
/// \file
/// The inputs of a command, through the shared use cases (core/session): the model it works on (a
/// file, an export, or the built-in demo; type-checked) and the targets named by `--target`.

#include "cli_options.h"
#include <memory>
#include <string>
#include <vector>

#include "ir/module.h"
#include "session/opened_model.h"
#include "session/partitioning.h"
#include "support/result.h"
#include "target/target.h"

namespace byoc::cli {

/// Opens `options.file` (a model, an export directory or a file its manifest lists) or the demo.
Result<OpenedModel> openInput(const Options& options);
/// The type-checked module openInput opens.
Result<Module> loadTypedModel(const Options& options);

/// The targets named (built-in names or files), in the order given; a pattern a target's codegen
/// cannot build is a warning on stderr.
Result<std::vector<std::shared_ptr<const Target>>> loadTargets(const std::vector<std::string>& names);
/// The targets of every `--target`, in the order given.
Result<std::vector<std::shared_ptr<const Target>>> loadTargets(const Options& options);

/// A model partitioned for the `--target`s of a command, with those targets.
struct PartitionedModel {
  Module module;
  std::vector<std::shared_ptr<const Target>> targets;
};

/// One partitioning as the command line names it: the targets by name, in priority order, and the
/// pipeline's name.
struct NamedPartition {
  std::vector<std::string> targets;
  std::string pipeline;
};

/// Runs the partitioning `named` on `model`, with the instruments the flags of `options` ask for
/// (step_runner.h); without targets the model is returned as it is. A failing step names itself
/// in the error.
Result<PartitionedModel> partitionForTargets(const Options& options, const Module& model, const NamedPartition& named);
/// The same for every `--target` with `--pipeline` (default relay).
Result<PartitionedModel> partitionForTargets(const Options& options, const Module& model);

}  // namespace byoc::cli
