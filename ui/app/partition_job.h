#pragma once
/// \file
/// Running a partitioning flow for the app: the loaded module through every pass of the flow,
/// one snapshot per pass, on a worker thread (a pure function of its inputs).

#include <QString>
#include <memory>
#include <vector>

#include "ir/module.h"
#include "snapshot/snapshot.h"
#include "support/result.h"
#include "target/target.h"

namespace byoc::ui {

/// `loaded` partitioned for `targets` (in priority order) by the `pipeline` flow ("relay" or
/// "relax"): the snapshot after each pass, with its time. The error names the pass that failed.
Result<std::vector<Snapshot>> runPartitionFlow(const Module& loaded,
                                               const std::vector<std::shared_ptr<const Target>>& targets,
                                               const QString& pipeline);

}  // namespace byoc::ui
