#pragma once
/// \file
/// Running a partitioning flow for the app: the loaded module through every pass of the flow,
/// one snapshot per pass, on a worker thread (a pure function of its inputs).

#include <QString>
#include <atomic>
#include <memory>
#include <vector>

#include "ir/module.h"
#include "pass/instruments/progress.h"
#include "snapshot/snapshot.h"
#include "support/result.h"
#include "target/target.h"

namespace byoc::ui {

/// How a partition run reports its progress and learns that it should stop.
struct PartitionControl {
  /// Called on the worker thread before each pass (see PassProgressCallback); may be empty.
  PassProgressCallback progress;
  /// Once set (from any thread), the run stops with a `cancelled` error; may be null.
  std::shared_ptr<const std::atomic<bool>> cancel;
};

/// `loaded` partitioned for `targets` (in priority order) by the `pipeline` flow ("relay" or
/// "relax"): the snapshot after each pass, with its time. The error names the pass that failed,
/// or says the run was cancelled.
Result<std::vector<Snapshot>> runPartitionFlow(const Module& loaded,
                                               const std::vector<std::shared_ptr<const Target>>& targets,
                                               const QString& pipeline, const PartitionControl& control = {});

}  // namespace byoc::ui
