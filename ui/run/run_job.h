#pragma once
/// \file
/// One run of the Run panel, as a pure function for a worker thread: partition the loaded model
/// for the targets with the chosen flow (the passes "Run Passes" runs), run the partitioned module
/// (each target's regions on its codegen), run the unpartitioned model on the reference kernels,
/// compare, then time a few runs. This is `byoc run --target T --compare-reference --bench N`:
/// both plan the run and compare it through core/session (model_run.h), so an export runs and is
/// compared as `byoc run DIR --compare-reference` does it.
///
/// Cancellation: `cancel` is polled between stages and by the executor between ops; a cancelled
/// run ends with the error "the run was cancelled".

#include <QString>
#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "export/export_reader.h"
#include "ir/module.h"
#include "runtime/ndarray.h"
#include "runtime/reference_check.h"
#include "runtime/run_timing.h"
#include "support/result.h"
#include "target/target.h"

namespace byoc::ui {

/// What to run.
struct RunRequest {
  /// The loaded (typed, unpartitioned) model.
  Module loaded;
  /// Targets in priority order; the first is the edited one.
  std::vector<std::shared_ptr<const Target>> targets;
  /// Partitioning flow: "relay" or "relax".
  QString pipeline = QStringLiteral("relay");
  /// A tensor for every input of `@main`, by name.
  std::map<std::string, NDArray> inputs;
  /// Timed runs after the first one (0: none).
  int timedRuns = 5;
  /// When set, `loaded` is this export's module, run as exported (`targets` and `pipeline` unused).
  std::shared_ptr<const LoadedExport> exported = nullptr;
  /// For an export: run the compiled files of its plugin regions as they are (the user trusts
  /// them), instead of compiling those regions again from their IR.
  bool trustCompiled = false;
  /// `loaded` already partitioned for `targets` by `pipeline` (the timeline's steps): it runs
  /// without partitioning again.
  std::optional<Module> partitioned = std::nullopt;
};

/// What a run produced.
struct RunReport {
  /// The partitioned module that ran.
  Module partitioned;
  /// Its outputs, flattened.
  std::vector<NDArray> outputs;
  /// The outputs compared with the reference run's (empty when not compared).
  ReferenceComparison comparison;
  /// Why the outputs were not compared with the reference; empty when they were.
  QString notCompared;
  /// The model the reference ran when it is not the one run: the file an export was made from.
  QString reference;
  /// The regions of the partitioned module and the codegen that built each.
  std::vector<RegionInfo> regions;
  /// The timed runs: per region and host time.
  RunTimings timings;
};

/// Told the stages done so far, their total and what runs now.
using RunProgress = std::function<void(int done, int total, const QString& stage)>;

/// Runs `request` (see the file comment); errors name the stage or pass that failed.
Result<RunReport> runAndCompare(const RunRequest& request, const std::atomic<bool>* cancel, const RunProgress& progress);

/// Which codegens ran the regions, in a sentence that says plainly when none differs from the
/// reference (so that agreeing with the reference checks the partitioning, not a codegen).
QString codegenSummary(const std::vector<RegionInfo>& regions);

/// Per-region time of `timings` as graph notes: global symbol → "1.23 ms".
std::map<QString, QString> regionTimeNotes(const RunTimings& timings);

}  // namespace byoc::ui
