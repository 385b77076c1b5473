#pragma once
/// \file
/// PassTiming: measures the wall time of every pass invocation and renders it as a table.
///
/// Nested invocations (the passes of a `Sequential`, the `InferType` a function pass runs) are
/// rows indented under their parent; a row's share is of the total of the top-level rows.

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "pass/pass.h"

namespace byoc {

/// Timing of one pass invocation.
struct PassTimingRow {
  std::string pass;
  /// Nesting depth: 0 for a top-level pass.
  int depth = 0;
  std::chrono::nanoseconds elapsed{0};
};

/// The timing instrument. Rows appear in the order the passes started.
class PassTimingInstrument final : public PassInstrument {
 public:
  std::string name() const override { return "PassTiming"; }
  void enterContext() override;
  void beforePass(const Module& module, const PassInfo& info) override;
  Status afterPass(const PassResult& result, const PassInfo& info) override;
  void afterPassFailed(const Module& module, const PassInfo& info, const Diagnostic& error) override;

  /// Every finished invocation since the last `enterContext`.
  const std::vector<PassTimingRow>& rows() const { return rows_; }
  /// A table `pass | time (ms) | share`, one row per invocation, indented by depth.
  std::string render() const;

 private:
  void finish();

  std::vector<PassTimingRow> rows_;
  /// Index into rows_ and start time of each invocation still running, outermost first.
  std::vector<std::pair<std::size_t, std::chrono::steady_clock::time_point>> open_;
};

}  // namespace byoc
