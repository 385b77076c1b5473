#pragma once
/// \file
/// Pass infrastructure: a pass maps a module to a new module and says whether it changed it.
///
/// Passes are values (shared, immutable once built). `PassContext` carries the opt level,
/// the disabled / required pass names, the instruments and a configuration map under which
/// a pipeline runs.
///
/// Invoking a pass through `Pass::operator()` (which `Sequential` and function passes do for
/// the passes they run) calls the context's instruments around it, in this order:
///
///   1. `shouldRun` of every instrument, in registration order; the first `false` skips the
///      pass (no other hook is called for it, and the module is returned unchanged);
///   2. `beforePass` of every instrument, in order;
///   3. the pass itself (`Pass::run`), which may invoke nested passes, each going through
///      steps 1–5 in turn (a `Sequential` therefore sees its own hooks wrap its children's);
///   4. on success, `afterPass` of every instrument, in order; an `afterPass` that returns an
///      error (the verifier does) fails the invocation with that error, and the instruments
///      after it get `afterPassFailed` with that error instead: every instrument whose
///      `beforePass` ran gets exactly one of the two;
///   5. on failure of the pass, `afterPassFailed` of every instrument, in order; the failure
///      is then returned to the caller.
///
/// `enterContext` and `exitContext` of every instrument, in order, bracket a whole pipeline:
/// `runPipeline` calls them around its pass (exitContext also when the pass failed).
///
/// Cancellation: once the context's `cancel` flag is set (from any thread), every invocation
/// fails with `cancelled` before step 1, and long passes fail the same way at their next
/// `PassContext::checkCancelled` (between functions, between the phases of their work, at each
/// node of their main walks), so a run stops soon after the request, whatever the module's size.

#include <atomic>
#include <functional>
#include <memory>
#include <set>
#include <span>
#include <string>
#include <vector>

#include "ir/attrs.h"
#include "ir/module.h"
#include "support/result.h"

namespace byoc {

class PassRegistry;
class PassInstrument;

/// One option of a pass: its name, its default (whose kind is the option's type) and a help line.
struct PassOption {
  std::string name;
  AttrValue defaultValue;
  std::string help;
};

/// Metadata of a pass, declared once: the CLI help, the GUI palette and the docs read it.
struct PassInfo {
  std::string name;
  /// One line saying what the pass does.
  std::string summary;
  /// The lowest context opt level at which `Sequential` runs the pass.
  int optLevel = 0;
  /// Passes that must run before this one (run by `Sequential` whatever the opt level).
  std::vector<std::string> required;
  /// A paragraph: input, output, what must run before and after.
  std::string description{};
  /// The options the pass accepts, in the order pipelines print them.
  std::vector<PassOption> options{};
};

/// What a pass produced.
struct PassResult {
  Module module;
  /// True only if `module` differs from the input; passes must say so honestly.
  bool changed = false;
};

/// The settings a pipeline runs under.
class PassContext {
 public:
  /// Passes whose `PassInfo::optLevel` is above this are skipped by `Sequential`.
  int optLevel = 2;
  /// Names of passes `Sequential` never runs (wins over `requiredPasses`).
  std::set<std::string, std::less<>> disabledPasses;
  /// Names of passes `Sequential` runs whatever their opt level.
  std::set<std::string, std::less<>> requiredPasses;
  /// Observers called around every pass invocation (see the file comment for the order).
  std::vector<std::shared_ptr<PassInstrument>> instruments;
  /// Free-form settings read by passes (`relay.FuseOps.max_depth`, …).
  Attrs config;
  /// Where `Sequential` looks up required passes by name; null means `PassRegistry::core()`.
  const PassRegistry* registry = nullptr;
  /// Once set (from any thread), the run stops with a `cancelled` error (see the file comment);
  /// may be null.
  std::shared_ptr<const std::atomic<bool>> cancel;

  /// The registry to resolve pass names in.
  const PassRegistry& passRegistry() const;
  /// True when `Sequential` should run a pass with `info` under this context: not disabled,
  /// and either required by the context or at most at the context's opt level.
  bool isEnabled(const PassInfo& info) const;
  /// The error `cancelled` once `cancel` is set, else ok: what a pass returns at a check.
  Status checkCancelled() const;
};

/// A transformation of a module.
class Pass {
 public:
  virtual ~Pass() = default;
  /// The pass's metadata.
  virtual const PassInfo& info() const = 0;
  /// Runs the pass on `module`; never modifies its input. Calls no instrument for this pass
  /// itself: use `operator()` for an instrumented invocation.
  virtual Result<PassResult> run(const Module& module, PassContext& context) const = 0;

  /// Runs the pass with the context's instruments called around it (file comment, steps 1–5).
  Result<PassResult> operator()(const Module& module, PassContext& context) const;
};

using PassPtr = std::shared_ptr<const Pass>;

/// Observer of pass invocations. Every hook has a do-nothing default.
class PassInstrument {
 public:
  virtual ~PassInstrument() = default;
  /// Name shown in messages.
  virtual std::string name() const = 0;
  /// Called once when a pipeline starts (`runPipeline`).
  virtual void enterContext() {}
  /// Called once when a pipeline ends, successfully or not.
  virtual void exitContext() {}
  /// Returning false skips the pass.
  virtual bool shouldRun(const Module& /*module*/, const PassInfo& /*info*/) { return true; }
  /// Called before the pass runs, with its input.
  virtual void beforePass(const Module& /*module*/, const PassInfo& /*info*/) {}
  /// Called after the pass succeeded, with its result; an error fails the invocation.
  virtual Status afterPass(const PassResult& /*result*/, const PassInfo& /*info*/) { return Status::ok(); }
  /// Called after the pass failed, with its input and its error.
  virtual void afterPassFailed(const Module& /*module*/, const PassInfo& /*info*/, const Diagnostic& /*error*/) {}
};

/// The body of a module pass: a pure function from module to module.
using ModulePassFunction = std::function<Result<PassResult>(const Module&, PassContext&)>;

/// Wraps a function as a pass.
PassPtr makeModulePass(PassInfo info, ModulePassFunction function);

/// The body of a function pass: maps one function (the module is there to look things up).
/// Returning the very same function node means "unchanged".
using FunctionPassFunction = std::function<Result<Function>(const Function&, const Module&, PassContext&)>;

/// Which functions a function pass leaves alone.
struct FunctionPassScope {
  /// Skip functions with a `Compiler` attribute (their body belongs to an external codegen).
  bool skipExternal = true;
  /// Skip functions with `Primitive=1` (already fused or outlined).
  bool skipPrimitive = true;
};

/// Wraps a per-function transform as a module pass: it maps every global function that
/// `scope` does not exclude, and, when any changed, runs `InferType` (instrumented, as a nested
/// pass) on the result, as TVM's function passes do.
PassPtr makeFunctionPass(PassInfo info, FunctionPassFunction function, FunctionPassScope scope = {});

/// Runs passes in order. For each pass that the context enables (`PassContext::isEnabled`), its
/// `PassInfo::required` passes are first looked up in the context's registry and run (whatever
/// the opt level), then the pass itself; every invocation is instrumented.
PassPtr makeSequential(std::vector<PassPtr> passes, std::string name = "Sequential");

/// The invocations `makeSequential(passes)` makes under `context`, in order: for each pass the
/// context enables, the passes it requires (created from the context's registry), then the pass.
/// A flow given as a list of passes runs step by step (pass_runner.h) as these.
Result<std::vector<PassPtr>> sequenceSteps(std::span<const PassPtr> passes, const PassContext& context);

/// Runs `pass` as a whole pipeline: `enterContext` of every instrument, the instrumented pass,
/// then `exitContext` of every instrument.
Result<PassResult> runPipeline(const Pass& pass, const Module& module, PassContext& context);

}  // namespace byoc
