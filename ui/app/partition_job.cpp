#include "app/partition_job.h"

#include <chrono>

#include "pass/partition/partition_flow.h"

namespace byoc::ui {

Result<std::vector<Snapshot>> runPartitionFlow(const Module& loaded,
                                               const std::vector<std::shared_ptr<const Target>>& targets,
                                               const QString& pipeline, const PartitionControl& control) {
  BYOC_ASSIGN_OR_RETURN(PartitionPipeline flow, parsePartitionPipeline(pipeline.toStdString()));
  BYOC_ASSIGN_OR_RETURN(std::vector<PassPtr> steps, partitionSteps(targets, flow));
  std::vector<Snapshot> snapshots;
  Module current = loaded;
  PassContext context;
  if (control.progress || control.cancel) context.instruments.push_back(makeProgressInstrument(control.progress, control.cancel));
  for (const PassPtr& step : steps) {
    auto start = std::chrono::steady_clock::now();
    Result<PassResult> result = (*step)(current, context);
    if (!result) {
      Diagnostic error = result.error();
      error.message = step->info().name + ": " + error.message;
      return error;
    }
    double milliseconds = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    current = result->module;
    snapshots.push_back({QString::fromStdString(step->info().name), current, result->changed, milliseconds});
  }
  return snapshots;
}

}  // namespace byoc::ui
