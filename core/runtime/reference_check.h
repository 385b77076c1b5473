#pragma once
/// \file
/// Checking a run against the reference, as `byoc run --compare-reference` and the app's Run panel do:
/// the unpartitioned model runs with every region on the `reference` codegen (pure reference kernels),
/// and each output of the run is compared element by element with the reference's.
///
/// The verdict uses one tolerance for both terms: |a - b| <= t + t * |b|, t = kReferenceTolerance.

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

/// Outputs of a run compared with the reference's.
struct ReferenceComparison {
  /// One entry per output present in both, in order.
  std::vector<Difference> outputs;
  /// Whether both runs produced as many outputs.
  bool sameCount = true;

  /// Every output within tolerance, and as many outputs as the reference.
  bool agree() const;
};

/// Compares `actual` with `expected` output by output, within kReferenceTolerance.
ReferenceComparison compareWithReference(const std::vector<NDArray>& actual, const std::vector<NDArray>& expected);

}  // namespace byoc
