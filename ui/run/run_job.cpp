#include "run/run_job.h"

#include <QStringList>

#include "plugin/plugin_module.h"
#include "session/model_run.h"

namespace byoc::ui {

namespace {

/// Partition, build, run, reference, each offloaded call; then one stage per timed run.
constexpr int kFixedStages = 5;

Diagnostic cancelled() { return makeError("the run was cancelled"); }

/// runAndCompare, up to the release of its regions.
Result<RunReport> runAndCompareRegions(const RunRequest& request, const std::atomic<bool>* cancel, const RunProgress& progress) {
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

  RunReport result;
  if (!request.exported) report(0, QStringLiteral("Partitioning"));
  BYOC_ASSIGN_OR_RETURN(PartitionPipeline pipeline, parsePartitionPipeline(request.pipeline.toStdString()));
  const OpenedModel opened{{}, request.loaded, std::nullopt, request.exported};
  RunSettings settings;
  settings.trustCompiled = request.trustCompiled;
  PassRunOptions passes;
  passes.cancel = std::shared_ptr<const std::atomic<bool>>(std::shared_ptr<void>(), cancel);  // not owned: the caller's flag
  Result<RunPlan> plan = planRun(opened, {request.exported ? std::vector<std::shared_ptr<const Target>>() : request.targets, pipeline},
                                 settings, request.partitioned ? &*request.partitioned : nullptr, passes);
  if (!plan) return inStage("partitioning", plan.error());
  if (isCancelled()) return cancelled();
  result.partitioned = plan->module;
  ExecutorOptions options = plan->executorOptions;

  report(1, QStringLiteral("Building the regions"));
  options.cancel = cancel;
  Result<std::unique_ptr<Executor>> executor = Executor::create(result.partitioned, options);
  if (!executor) return inStage("building", request.exported ? locatedInExport(executor.error(), request.exported->directory)
                                                             : executor.error());
  result.regions = (*executor)->regions();
  Result<std::vector<Value>> args = (*executor)->bindInputs(request.inputs);
  if (!args) return args.error();
  if (isCancelled()) return cancelled();

  report(2, QStringLiteral("Running the partitioned module"));
  Result<Value> value = (*executor)->run(*args);
  if (!value) return inStage("running", value.error());
  if (!value->flattenInto(result.outputs)) return makeError("@main returned a function, not tensors");

  if (plan->reference) {
    const char* stage = "reference";
    auto onStage = [&](ComparisonStage started) {
      if (started == ComparisonStage::Reference) {
        report(3, plan->referenceFile.empty() ? QStringLiteral("Running the reference")
                                              : QStringLiteral("Running the model exported on the reference kernels"));
      } else {
        stage = "checking each offloaded call";
        report(4, QStringLiteral("Checking each offloaded call"));
      }
    };
    Result<ReferenceComparison> compared = compareRun(*plan, *args, result.outputs, cancel, onStage);
    if (!compared) return inStage(stage, compared.error());
    result.comparison = std::move(compared).value();
    result.reference = QString::fromStdString(plan->referenceFile);
  } else {
    result.notCompared = QStringLiteral("Not compared with the reference: ") + QString::fromStdString(plan->notComparable);
  }

  report(kFixedStages, QStringLiteral("Timing"));
  Result<RunTimings> timings = timeRuns(**executor, *args, request.timedRuns,
                                        [&](int done) { report(kFixedStages + done, QStringLiteral("Timing")); });
  if (!timings) return inStage("timing", timings.error());
  result.timings = std::move(timings).value();
  return result;
}

}  // namespace

Result<RunReport> runAndCompare(const RunRequest& request, const std::atomic<bool>* cancel, const RunProgress& progress) {
  Result<RunReport> report = runAndCompareRegions(request, cancel, progress);
  // The regions are released now; a plugin region whose unload failed could not say so then.
  std::vector<Diagnostic> unloadErrors = takePluginUnloadErrors();
  if (report && !unloadErrors.empty()) {
    Diagnostic error = unloadErrors.front();
    error.message = "unloading: " + error.message;
    return error;
  }
  return report;
}

QString codegenSummary(const std::vector<RegionInfo>& regions) {
  if (regions.empty())
    return QStringLiteral("No region was offloaded: everything ran on the reference kernels, as the reference does.");
  std::map<std::string, int> byCodegen;
  for (const RegionInfo& region : regions) ++byCodegen[region.codegen];
  if (byCodegen.size() == 1 && byCodegen.count("reference"))
    return QStringLiteral("Every region ran on the reference codegen, the kernels the reference runs: the comparison checks the "
                          "partitioning, not a codegen. Choose the target's codegen in Target → Target Settings….");
  QStringList parts;
  for (const auto& [codegen, count] : byCodegen) parts << QStringLiteral("%1 on %2").arg(count).arg(QString::fromStdString(codegen));
  return QStringLiteral("Regions by codegen: %1.").arg(parts.join(QStringLiteral(", ")));
}

std::map<QString, QString> regionTimeNotes(const RunTimings& timings) {
  std::map<QString, QString> notes;
  if (timings.runs() == 0) return notes;
  for (const RegionInfo& region : timings.regions)
    notes[QString::fromStdString(region.symbol)] = QStringLiteral("%1 ms").arg(timings.regionMilliseconds(region), 0, 'f', 2);
  return notes;
}

}  // namespace byoc::ui
