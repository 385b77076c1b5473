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
  if (dumpDir) {
    std::error_code error;
    std::filesystem::create_directories(*dumpDir, error);
    if (error) return reportError(makeError("cannot create the directory: " + error.message(), {*dumpDir}));
  }
  PassContext context;
  for (std::size_t i = 0; i < steps.size(); ++i) {
    Result<PassResult> result = (*steps[i])(module, context);
    if (!result) {
      Diagnostic error = result.error();
      error.message = steps[i]->info().name + ": " + error.message;
      return reportError(error);
    }
    module = std::move(result->module);
    if (!dumpDir) continue;
    std::string file = twoDigits(i + 1) + "-" + steps[i]->info().name + ".relay";
    Status written = writeFileAtomic((std::filesystem::path(*dumpDir) / file).string(), printModule(module, printOptions));
    if (!written) return reportError(written.error());
  }

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
