#pragma once
/// \file
/// Timed runs of an executor, as `byoc run --bench N` and the app's latency chart use them: N runs
/// of the same inputs after the caller's first run, the wall time of each, and the time spent in each
/// offloaded region (what is left of a run is the host's: the interpreter and reference kernels).

#include <functional>
#include <span>
#include <vector>

#include "runtime/executor.h"
#include "support/result.h"

namespace byoc {

/// What N timed runs cost.
struct RunTimings {
  /// Wall time of each run, in milliseconds, in run order.
  std::vector<double> runMilliseconds;
  /// The executor's regions with their calls and seconds summed over the runs.
  std::vector<RegionInfo> regions;

  /// Number of runs.
  int runs() const { return static_cast<int>(runMilliseconds.size()); }
  /// Median run time (ms).
  double median() const;
  /// 90th percentile run time (ms).
  double p90() const;
  /// Time of one region per run (ms).
  double regionMilliseconds(const RegionInfo& region) const;
  /// Mean run time minus the regions' time per run (ms), never negative.
  double hostMilliseconds() const;
};

/// Runs `executor` `runs` times on `args` (its region timings are reset first); `afterRun`, when
/// given, is told the number of runs done. The first failing run's error is returned.
Result<RunTimings> timeRuns(Executor& executor, std::span<const Value> args, int runs,
                            const std::function<void(int done)>& afterRun = {});

}  // namespace byoc
