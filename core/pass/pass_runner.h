#pragma once
/// \file
/// Running a flow step by step: every pass of a list, in order, on the module the one before it
/// returned, under one context carrying the instruments the caller asks for; the module after each
/// step is kept. The CLI (`byoc partition`, `opt`, `run`, `export`) and the app run passes this way.
///
/// Each step is one instrumented invocation (pass.h); the instruments see the passes it runs
/// inside itself too (the `InferType` after a function pass, the parts of `PartitionGraph`).
/// Their order: timing, progress, IR dump, verifier, then the caller's own — so the timing leaves
/// the others out, and a module the verifier rejects is dumped first. `enterContext` / `exitContext` bracket the run.

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <ostream>
#include <set>
#include <span>
#include <string>
#include <vector>

#include "ir/module.h"
#include "pass/instruments/progress.h"
#include "pass/pass.h"
#include "support/result.h"
#include "text/printer.h"

namespace byoc {

struct PassStep;

/// Called after each step with the step and its 0-based index; an error ends the run with it.
using PassStepCallback = std::function<Status(const PassStep& step, std::size_t index)>;

/// What a run reports and checks besides running its steps; the default runs them bare.
struct PassRunOptions {
  /// Time every invocation; `PassRun::timing` then holds the table (pass_timing.h).
  bool timePasses = false;
  /// Check the module after every invocation (verifier.h); a violation fails the run with
  /// `after PASS: verifier: …`.
  bool verifyEach = false;
  /// Where IR dumps go (instruments/print_ir.h); null dumps nothing.
  std::ostream* irDumps = nullptr;
  /// Dump the module after every invocation …
  bool dumpAfterAll = false;
  /// … or after the invocations of these passes.
  std::set<std::string, std::less<>> dumpAfter{};
  /// How dumps print the module.
  PrintOptions dumpOptions{};
  /// Called before each invocation with its pass and nesting depth (0 for a step); may be empty.
  PassProgressCallback progress{};
  /// Once set (from any thread), the run stops soon with the error `STEP: cancelled`; may be null.
  std::shared_ptr<const std::atomic<bool>> cancel{};
  /// Called after each step (to write it out as the run goes); may be empty.
  PassStepCallback afterStep{};
  /// More instruments, after those above, in this order (e.g. a SnapshotRecorder that keeps the
  /// module after the passes a step runs inside itself too).
  std::vector<std::shared_ptr<PassInstrument>> instruments{};
};

/// The module after one step.
struct PassStep {
  std::string pass;
  Module module;
  /// Whether the step changed the module.
  bool changed = false;
  /// Wall time of the step, its instruments included.
  std::chrono::nanoseconds elapsed{0};
};

/// What a run produced.
struct PassRun {
  /// One per step, in order; the last holds the result.
  std::vector<PassStep> steps;
  /// The timing table when `PassRunOptions::timePasses` was set, else empty.
  std::string timing;
};

/// Runs `steps` on `module` in order. The first failure ends the run; a pass's error is named
/// after its step (`MergeComposite: …`) unless an instrument already named the pass (`after X: …`).
Result<PassRun> runPasses(std::span<const PassPtr> steps, const Module& module, const PassRunOptions& options = {});

}  // namespace byoc
