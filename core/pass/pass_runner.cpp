/// \file
/// Running a list of passes with instruments.

#include "pass/pass_runner.h"

#include "pass/instruments/pass_timing.h"
#include "pass/instruments/print_ir.h"
#include "pass/verifier.h"

namespace byoc {

namespace {

/// The context of a run: its cancel flag and the instruments `options` ask for, in the documented order.
PassContext runContext(const PassRunOptions& options, const std::shared_ptr<PassTimingInstrument>& timing) {
  PassContext context;
  context.cancel = options.cancel;
  if (timing) context.instruments.push_back(timing);
  if (options.progress) context.instruments.push_back(makeProgressInstrument(options.progress));
  if (options.irDumps && (options.dumpAfterAll || !options.dumpAfter.empty())) {
    IrDumpFilter dumpAfter = [all = options.dumpAfterAll, names = options.dumpAfter](const std::string& pass) {
      return all || names.contains(pass);
    };
    context.instruments.push_back(makeIrDumpInstrument(*options.irDumps, std::move(dumpAfter), options.dumpOptions));
  }
  if (options.verifyEach) context.instruments.push_back(makeVerifierInstrument());
  context.instruments.insert(context.instruments.end(), options.instruments.begin(), options.instruments.end());
  return context;
}

/// `error` of step `pass`, named after the step unless an instrument already named the pass (`after X: …`).
Diagnostic ofStep(const std::string& pass, Diagnostic error) {
  if (!error.message.starts_with("after ")) error.message = pass + ": " + error.message;
  return error;
}

Result<std::vector<PassStep>> runEach(std::span<const PassPtr> steps, const Module& module, PassContext& context,
                                      const PassStepCallback& afterStep) {
  std::vector<PassStep> done;
  Module current = module;
  for (const PassPtr& step : steps) {
    const auto start = std::chrono::steady_clock::now();
    Result<PassResult> result = (*step)(current, context);
    if (!result) return ofStep(step->info().name, result.error());
    current = result->module;
    done.push_back({step->info().name, std::move(result->module), result->changed, std::chrono::steady_clock::now() - start});
    if (afterStep) BYOC_TRY(afterStep(done.back(), done.size() - 1));
  }
  return done;
}

}  // namespace

Result<PassRun> runPasses(std::span<const PassPtr> steps, const Module& module, const PassRunOptions& options) {
  auto timing = options.timePasses ? std::make_shared<PassTimingInstrument>() : nullptr;
  PassContext context = runContext(options, timing);
  for (const auto& instrument : context.instruments) instrument->enterContext();
  Result<std::vector<PassStep>> done = runEach(steps, module, context, options.afterStep);
  for (const auto& instrument : context.instruments) instrument->exitContext();
  if (!done) return done.error();
  return PassRun{std::move(done).value(), timing ? timing->render() : std::string()};
}

}  // namespace byoc
