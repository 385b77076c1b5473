#include "run/run_job.h"

#include <QStringList>

#include <filesystem>

#include "window/partition_job.h"
#include "frontend/loader.h"
#include "pass/infer_type.h"
#include "pass/partition/partition_flow.h"
#include "pass/pass_runner.h"
#include "plugin/plugin_module.h"

namespace byoc::ui {

namespace {

/// Partition, build, run, reference, each offloaded call; then one stage per timed run.
constexpr int kFixedStages = 5;

Diagnostic cancelled() { return makeError("the run was cancelled"); }

/// The file of the model `exported` was made from, as its provenance names it; empty if none.
std::string exportSourceFile(const LoadedExport& exported) {
  const auto& provenance = exported.module.provenance();
  std::string file;
  if (provenance) {
    for (const auto& [id, location] : provenance->locations)
      if (!location.file.empty() && (file.empty() || location.file < file)) file = location.file;
  }
  return file;
}

/// The model in `file` (see exportSourceFile), loaded and type-checked.
Result<Module> exportSource(const std::string& file) {
  if (file.empty()) return makeError("the export does not name the model it was made from");
  std::error_code error;
  if (!std::filesystem::is_regular_file(file, error)) return makeError("the model it was exported from is not there any more", {file});
  BYOC_ASSIGN_OR_RETURN(Module model, loadModuleFile(file));
  return inferTypes(model);
}

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
  ExecutorOptions options;
  if (request.exported) {
    result.partitioned = request.exported->module;
    options = exportExecutorOptions(*request.exported, request.trustCompiled ? CompiledRegions::Trust : CompiledRegions::Rebuild);
  } else {
    report(0, QStringLiteral("Partitioning"));
    Result<std::vector<Snapshot>> steps = runPartitionFlow(request.loaded, request.targets, request.pipeline);
    if (!steps) return inStage("partitioning", steps.error());
    if (isCancelled()) return cancelled();
    result.partitioned = steps->empty() ? request.loaded : steps->back().module;
    addTargetCodegens(request.targets, options);
  }

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

  if (request.exported && !request.exported->kernelGraphs.empty()) {
    // Kernel graphs hold no IR for the reference kernels: the reference is the model exported.
    report(3, QStringLiteral("Running the model exported on the reference kernels"));
    const std::string file = exportSourceFile(*request.exported);
    Result<Module> source = exportSource(file);
    Result<std::vector<NDArray>> expected = source ? runOnReference(*source, *args, cancel) : source.error();
    if (isCancelled()) return cancelled();
    if (expected) {
      result.comparison = compareWithReference(result.outputs, *expected);
      result.reference = QString::fromStdString(file);
    } else {
      result.notCompared = QStringLiteral("Not compared with the reference (the export's dnnl regions are kernel graphs, "
                                          "whose reference is the model exported): ") +
                           QString::fromStdString(expected.error().str());
    }
  } else {
    report(3, QStringLiteral("Running the reference"));
    Result<std::vector<NDArray>> expected = runOnReference(request.loaded, *args, cancel);
    if (!expected) return inStage("reference", expected.error());
    result.comparison = compareWithReference(result.outputs, *expected);
  }

  // Each offloaded call on its own, as a region of its own (the export's regions as exported).
  if (!request.exported || request.exported->kernelGraphs.empty()) {
    report(4, QStringLiteral("Checking each offloaded call"));
    Module regionsChecked = result.partitioned;
    if (!request.exported && !request.targets.empty()) {
      Result<std::vector<PassPtr>> steps = regionPerCallSteps(request.targets);
      if (!steps) return inStage("checking each offloaded call", steps.error());
      Result<PassRun> run = runPasses(*steps, request.loaded);
      if (!run) return inStage("checking each offloaded call", run.error());
      regionsChecked = run->steps.back().module;
    }
    Result<std::vector<RegionAgreement>> regions = checkRegions(regionsChecked, options, *args);
    if (!regions) return inStage("checking each offloaded call", regions.error());
    result.comparison.regions = std::move(regions).value();
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
