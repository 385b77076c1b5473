#pragma once
/// \file
/// Checking a run against the reference, as `byoc run --compare-reference` and the app's Run panel do:
/// the unpartitioned model runs with every region on the `reference` codegen (pure reference kernels),
/// and each output of the run is compared element by element with the reference's.
///
/// The verdict uses one tolerance for both terms: |a - b| <= t + t * |b|, t = kReferenceTolerance.
///
/// Each region call is also checked on its own: the reference codegen runs the region on the inputs
/// the run gave it, and the region's outputs must agree: int8 and uint8 within two steps (a call
/// rounds twice when it requantizes before a residual sum), others within the tolerance. That shows where an error arises. It also decides for a quantized model
/// (one whose regions compute int8 or uint8). There, one region's rounding may differ by a step when a value lies
/// within a few ulps of a half: oneDNN and the reference kernels order their float operations
/// differently. Later layers amplify such steps, so the model's outputs differ by many steps even
/// when every layer agrees.

#include <atomic>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "ir/module.h"
#include "runtime/compare.h"
#include "runtime/executor.h"
#include "support/result.h"
#include "target/target.h"

namespace byoc {

/// Absolute and relative tolerance of the comparison with the reference.
inline constexpr double kReferenceTolerance = 1e-3;

/// The codegen that runs `target`'s regions: the one it names, else `reference`.
std::string targetCodegen(const Target& target);

/// Adds to `options` the codegen of each target (targetCodegen).
void addTargetCodegens(const std::vector<std::shared_ptr<const Target>>& targets, ExecutorOptions& options);

/// Runs `reference` with every region (a function with a `Compiler` or `Codegen` attribute) on the
/// `reference` codegen and returns the flattened outputs. A set `cancel` stops it with "the run was cancelled".
Result<std::vector<NDArray>> runOnReference(const Module& reference, std::span<const Value> args,
                                            const std::atomic<bool>* cancel = nullptr);

/// How one region's calls compared with the reference codegen on the same inputs.
struct RegionAgreement {
  /// The region's `RegionInfo::label()`.
  std::string label;
  int64_t calls = 0;
  /// The largest errors over its calls and outputs; `within` when all were.
  Difference worst;
  /// Some output is an int8 or uint8 tensor (a quantized value), compared within two steps.
  bool quantized = false;
};

/// Checks each region call of an executor's runs against the reference codegen, on the inputs the
/// run gave the region, from `attach` until it is destroyed.
class RegionCheck {
 public:
  /// Builds every region of `executor` on the reference codegen and observes its calls; fails when a
  /// region has no function body to build (a region an export loaded as a kernel graph).
  static Result<std::unique_ptr<RegionCheck>> attach(Executor& executor);
  ~RegionCheck();
  RegionCheck(const RegionCheck&) = delete;
  RegionCheck& operator=(const RegionCheck&) = delete;

  /// One entry per region of the executor, in its order.
  const std::vector<RegionAgreement>& regions() const { return regions_; }

 private:
  explicit RegionCheck(Executor& executor) : executor_(executor) {}
  Status observe(std::size_t region, std::span<const NDArray> inputs, std::span<const NDArray> outputs);

  Executor& executor_;
  std::vector<std::unique_ptr<RuntimeModule>> references_;
  std::vector<RegionAgreement> regions_;
};

/// Runs `partitioned` once, checking every region call against the reference codegen on the same
/// inputs (RegionCheck), and returns how each region agreed.
Result<std::vector<RegionAgreement>> checkRegions(const Module& partitioned, const ExecutorOptions& options,
                                                  std::span<const Value> args);

/// Outputs of a run compared with the reference's.
struct ReferenceComparison {
  /// One entry per output present in both, in order.
  std::vector<Difference> outputs;
  /// Whether both runs produced as many outputs.
  bool sameCount = true;
  /// The region check, when one ran.
  std::vector<RegionAgreement> regions;

  /// Some region computes int8 or uint8: its regions decide the verdict, not its outputs.
  bool quantized() const;
  /// As many outputs as the reference, every region within tolerance, and every output within
  /// tolerance unless the model is quantized.
  bool agree() const;
};

/// Compares `actual` with `expected` output by output, within kReferenceTolerance.
ReferenceComparison compareWithReference(const std::vector<NDArray>& actual, const std::vector<NDArray>& expected);

}  // namespace byoc
