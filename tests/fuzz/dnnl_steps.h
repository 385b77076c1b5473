#pragma once
/// \file
/// The partitioning steps of the built-in dnnl target (Relay flow), built once, for the fuzz
/// targets that partition what they read before running it.

#include <memory>
#include <vector>

#include "pass/partition/partition_flow.h"
#include "support/result.h"
#include "target/target_library.h"

namespace byoc::fuzzing {

inline const std::vector<PassPtr>& dnnlSteps() {
  static const std::vector<PassPtr> steps = [] {
    Result<Target> target = loadTarget("dnnl");
    BYOC_CHECK(target.isOk(), "the built-in dnnl target does not load");
    Result<std::vector<PassPtr>> built = partitionSteps({std::make_shared<const Target>(*target)}, PartitionPipeline::Relay);
    BYOC_CHECK(built.isOk(), "the dnnl target's partition steps do not build");
    return *built;
  }();
  return steps;
}

}  // namespace byoc::fuzzing
