#include "run/run_job.h"

#include "app/partition_job.h"

namespace byoc::ui {

namespace {

/// Partition, build, run, reference; then one stage per timed run.
constexpr int kFixedStages = 4;

Diagnostic cancelled() { return makeError("the run was cancelled"); }

}  // namespace

Result<RunReport> runAndCompare(const RunRequest& request, const std::atomic<bool>* cancel, const RunProgress& progress) {
  const int total = kFixedStages + request.timedRuns;
  auto report = [&](int done, const QString& stage) {
    if (progress) progress(done, total, stage);
  };
  auto isCancelled = [cancel] { return cancel && cancel->load(std::memory_order_relaxed); };
  // A stage stopped by the cancel flag reports the cancellation, not its own wording of it.
  auto inStage = [&](const char* stage, Diagnostic error) {
    if (isCancelled()) return cancelled();
    error.message = std::string(stage) + ": " + error.message;
    return error;
  };

  report(0, QStringLiteral("Partitioning"));
  Result<std::vector<Snapshot>> steps = runPartitionFlow(request.loaded, request.targets, request.pipeline);
  if (!steps) return inStage("partitioning", steps.error());
  if (isCancelled()) return cancelled();
  RunReport result;
  result.partitioned = steps->empty() ? request.loaded : steps->back().module;

  report(1, QStringLiteral("Building the regions"));
  ExecutorOptions options;
  options.cancel = cancel;
  addTargetCodegens(request.targets, options);
  Result<std::unique_ptr<Executor>> executor = Executor::create(result.partitioned, options);
  if (!executor) return inStage("building", executor.error());
  Result<std::vector<Value>> args = (*executor)->bindInputs(request.inputs);
  if (!args) return args.error();
  if (isCancelled()) return cancelled();

  report(2, QStringLiteral("Running the partitioned module"));
  Result<Value> value = (*executor)->run(*args);
  if (!value) return inStage("running", value.error());
  if (!value->flattenInto(result.outputs)) return makeError("@main returned a function, not tensors");

  report(3, QStringLiteral("Running the reference"));
  Result<std::vector<NDArray>> expected = runOnReference(request.loaded, *args, cancel);
  if (!expected) return inStage("reference", expected.error());
  result.comparison = compareWithReference(result.outputs, *expected);

  report(kFixedStages, QStringLiteral("Timing"));
  Result<RunTimings> timings = timeRuns(**executor, *args, request.timedRuns,
                                        [&](int done) { report(kFixedStages + done, QStringLiteral("Timing")); });
  if (!timings) return inStage("timing", timings.error());
  result.timings = std::move(timings).value();
  return result;
}

std::map<QString, QString> regionTimeNotes(const RunTimings& timings) {
  std::map<QString, QString> notes;
  if (timings.runs() == 0) return notes;
  for (const RegionInfo& region : timings.regions)
    notes[QString::fromStdString(region.symbol)] = QStringLiteral("%1 ms").arg(timings.regionMilliseconds(region), 0, 'f', 2);
  return notes;
}

}  // namespace byoc::ui
