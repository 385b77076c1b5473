#pragma once
/// \file
/// The whole partitioning flow for a list of targets, as the ordered passes a user steps through.

#include <memory>
#include <string_view>
#include <vector>

#include "pass/pass.h"
#include "support/result.h"
#include "target/target.h"

namespace byoc {

/// Which of TVM's two BYOC flows to run.
enum class PartitionPipeline {
  Relay,  ///< MergeComposite → AnnotateTarget → MergeCompilerRegions → PartitionGraph
  Relax,  ///< FuseOpsByPattern → MergeCompositeFunctions → RunCodegen
};

/// `relay` or `relax`; the error lists both.
Result<PartitionPipeline> parsePartitionPipeline(std::string_view name);

/// The passes that partition a typed module for `targets` (in priority order), in the order they
/// run: each target's preparation and rewrite rows, then the pipeline's passes, then the pruning
/// of regions not worth offloading. Each step is one pass, so a caller can keep the module after
/// every step.
Result<std::vector<PassPtr>> partitionSteps(const std::vector<std::shared_ptr<const Target>>& targets,
                                            PartitionPipeline pipeline);

/// Checks the passes and options `target`'s prepare and optimize pipelines name, so that a target
/// a pipeline's option names is checked as one `--target` names; the error is placed in its file.
Status checkTargetPipelines(const Target& target);

/// The relay pipeline's passes without MergeCompilerRegions and pruning: every offloaded call (a
/// composite or a single op) becomes a region of its own, so that each can be checked on its own.
Result<std::vector<PassPtr>> regionPerCallSteps(const std::vector<std::shared_ptr<const Target>>& targets);

}  // namespace byoc
