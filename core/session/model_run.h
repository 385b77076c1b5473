#pragma once
/// \file
/// Running a model and checking it against the reference, for the command line (`byoc run`) and
/// the app's Run dock alike: what runs (the model partitioned for targets, reusing a partition
/// already made, or an export as it was exported) and what its outputs are compared with.
///
/// Comparing an export: an export whose regions carry their IR is compared with itself run on the
/// reference kernels, call by call too. An export whose dnnl regions are kernel graphs holds no IR
/// for the reference kernels: it is compared with the model it was exported from, which its
/// provenance names, when that file still loads (its offloaded calls are not checked one by one);
/// otherwise it cannot be compared and the plan says why.

#include <atomic>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "runtime/executor.h"
#include "runtime/reference_check.h"
#include "session/opened_model.h"
#include "session/partitioning.h"

namespace byoc {

/// How a run runs, besides its inputs.
struct RunSettings {
  /// Threads of the pool oneDNN and the reference GEMM use.
  int threads = 1;
  /// For an export: run the compiled files of its plugin regions as they are (the user trusts
  /// them), instead of compiling those regions again from their IR.
  bool trustCompiled = false;
  /// Plan the check of each offloaded call on its own against the reference (it partitions the
  /// model once more, with a region per call).
  bool checkEachCall = true;
};

/// What a run runs, and what it is compared with.
struct RunPlan {
  /// The module that runs, and how its regions are built.
  Module module;
  ExecutorOptions executorOptions;
  /// What the reference kernels run for the comparison; none when the run cannot be compared.
  std::optional<Module> reference;
  /// The file `reference` was loaded from when it is not the module run (an export's source model).
  std::string referenceFile;
  /// Why the run cannot be compared with the reference; empty when it can.
  std::string notComparable;
  /// The module whose region calls are checked one by one: the model partitioned with a region
  /// per offloaded call, or the export as it is; none when not checked.
  std::optional<Module> regionsChecked;
  /// For an export with regions a plugin compiled: what was done with their compiled files.
  std::string compiledRegions;
};

/// Plans the run of `opened`: an export as it was exported (`request` must then name no target),
/// else the model partitioned for `request` (without targets, the model as loaded). `partitioned`, when given, is `opened.module`
/// partitioned for `request` already (the app's timeline holds it): it runs instead of a new
/// partitioning. `passes` are the options of that partitioning (progress, cancel, instruments).
Result<RunPlan> planRun(const OpenedModel& opened, const PartitionRequest& request, const RunSettings& settings,
                        const Module* partitioned = nullptr, const PassRunOptions& passes = {});

/// The part of a comparison that starts.
enum class ComparisonStage { Reference, EachCall };

/// Compares `outputs`, of a run of `plan` on `args`, with the reference: the reference module on
/// the reference kernels, then each offloaded call on the inputs the run gave it. `onStage` is
/// told each part as it starts. A plan that cannot be compared is an error saying why.
Result<ReferenceComparison> compareRun(const RunPlan& plan, std::span<const Value> args, const std::vector<NDArray>& outputs,
                                       const std::atomic<bool>* cancel = nullptr,
                                       const std::function<void(ComparisonStage)>& onStage = {});

}  // namespace byoc
