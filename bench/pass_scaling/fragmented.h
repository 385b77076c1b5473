#pragma once
/// \file
/// The fragmented table of pass_scaling: a young target (three elementwise ops) on graphs where
/// 0, 1, 10 or 50 % of the ops are ones it does not support, spread out or in runs, wired with
/// skip connections or diamonds; for each graph, the seconds of every step of the flow, the
/// functions of the result and the peak memory of a process that did only that run.

#include <vector>

#include "pass/partition/partition_flow.h"

namespace byoc::bench {

/// Prints the table for graphs of `sizes` nodes; 0 on success.
int timeFragmented(PartitionPipeline pipeline, const std::vector<int>& sizes);

}  // namespace byoc::bench
