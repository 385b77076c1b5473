#include "snapshot/snapshot.h"

#include <chrono>

namespace byoc::ui {

std::vector<Snapshot> snapshotsOf(PassRun run) {
  std::vector<Snapshot> snapshots;
  snapshots.reserve(run.steps.size());
  for (PassStep& step : run.steps) {
    const double milliseconds = std::chrono::duration<double, std::milli>(step.elapsed).count();
    snapshots.push_back({QString::fromStdString(step.pass), std::move(step.module), step.changed, milliseconds});
  }
  return snapshots;
}

}  // namespace byoc::ui
