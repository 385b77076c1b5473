#include "step_runner.h"

#include <filesystem>
#include <iostream>

#include "commands.h"
#include "export/relay_params.h"
#include "frontend/json_format.h"
#include "support/file_io.h"
#include "text/printer.h"

namespace byoc::cli {

namespace {

std::string twoDigits(std::size_t number) { return (number < 10 ? "0" : "") + std::to_string(number); }

}  // namespace

PassRunOptions instrumentedOptions(const Options& options, PassRunOptions base) {
  base.timePasses = options.has("--time-passes");
  base.verifyEach = options.has("--verify-each");
  base.dumpAfterAll = options.has("--print-ir-after-all");
  for (const std::string& pass : options.values("--print-ir-after")) base.dumpAfter.insert(pass);
  base.irDumps = &std::cerr;
  base.dumpOptions.showTypes = options.has("--types");
  base.dumpOptions.showMetadata = false;
  return base;
}

void reportTiming(const Options& options, const PassRun& run) {
  if (options.has("--time-passes")) std::cerr << run.timing;
}

Result<PassRun> runInstrumented(const Options& options, std::span<const PassPtr> steps, const Module& module,
                                PassRunOptions base) {
  Result<PassRun> run = runPasses(steps, module, instrumentedOptions(options, std::move(base)));
  if (run) reportTiming(options, *run);
  return run;
}

int runStepsAndEmit(const Options& options, Module module, const std::vector<PassPtr>& steps) {
  std::optional<std::string> out = options.value("-o");
  std::optional<std::string> params = options.value("--params");
  const bool json = out && std::filesystem::path(*out).extension() == ".json";
  if (params && json)
    return reportError(makeError("--params names the constants as the Relay text does; write the module as Relay text, not JSON",
                                 {*out}));
  PrintOptions printOptions;
  printOptions.showTypes = options.has("--types");
  std::optional<std::string> dumpDir = options.value("--dump-after-each");
  PassRunOptions dumps;
  if (dumpDir) {
    std::error_code error;
    std::filesystem::create_directories(*dumpDir, error);
    if (error) return reportError(makeError("cannot create the directory: " + error.message(), {*dumpDir}));
    dumps.afterStep = [&](const PassStep& step, std::size_t index) {
      std::string file = twoDigits(index + 1) + "-" + step.pass + ".relay";
      return writeFileAtomic((std::filesystem::path(*dumpDir) / file).string(), printModule(step.module, printOptions));
    };
  }
  Result<PassRun> run = runInstrumented(options, steps, module, std::move(dumps));
  if (!run) return reportError(run.error());
  if (!run->steps.empty()) module = run->steps.back().module;

  const std::string text = json ? saveModuleJson(module) : printModule(module, printOptions);
  if (params) {
    Result<std::string> npz = relayConstantsNpz(text);
    if (!npz) return reportError(npz.error());
    Status written = writeFileAtomic(*params, *npz);
    if (!written) return reportError(written.error());
  }
  if (!out) {
    std::cout << text;
    return 0;
  }
  Status written = writeFileAtomic(*out, text);
  return written ? 0 : reportError(written.error());
}

}  // namespace byoc::cli
