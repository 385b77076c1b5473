#include "window/partition_job.h"

#include <chrono>

#include "pass/pass_runner.h"
#include "pass/partition/partition_flow.h"

namespace byoc::ui {

Result<std::vector<Snapshot>> runPartitionFlow(const Module& loaded,
                                               const std::vector<std::shared_ptr<const Target>>& targets,
                                               const QString& pipeline, const PartitionControl& control) {
  BYOC_ASSIGN_OR_RETURN(PartitionPipeline flow, parsePartitionPipeline(pipeline.toStdString()));
  BYOC_ASSIGN_OR_RETURN(std::vector<PassPtr> steps, partitionSteps(targets, flow));
  PassRunOptions options;
  options.progress = control.progress;
  options.cancel = control.cancel;
  BYOC_ASSIGN_OR_RETURN(PassRun run, runPasses(steps, loaded, options));
  std::vector<Snapshot> snapshots;
  snapshots.reserve(run.steps.size());
  for (PassStep& step : run.steps) {
    const double milliseconds = std::chrono::duration<double, std::milli>(step.elapsed).count();
    snapshots.push_back({QString::fromStdString(step.pass), std::move(step.module), step.changed, milliseconds});
  }
  return snapshots;
}

}  // namespace byoc::ui
