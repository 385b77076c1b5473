#include <filesystem>
#include <iostream>

#include "commands.h"
#include "frontend/json_format.h"
#include "model_input.h"
#include "pass/partition/partition_flow.h"
#include "support/file_io.h"
#include "text/printer.h"

namespace byoc::cli {

namespace {

std::string twoDigits(std::size_t number) { return (number < 10 ? "0" : "") + std::to_string(number); }

}  // namespace

int runPartition(const Options& options) {
  Result<Module> module = loadTypedModel(options);
  if (!module) return reportError(module.error());
  Result<std::vector<std::shared_ptr<const Target>>> targets = loadTargets(options);
  if (!targets) return reportError(targets.error());
  Result<PartitionPipeline> pipeline = parsePartitionPipeline(options.value("--pipeline").value_or("relay"));
  if (!pipeline) return reportError(pipeline.error());
  Result<std::vector<PassPtr>> steps = partitionSteps(*targets, *pipeline);
  if (!steps) return reportError(steps.error());

  PrintOptions printOptions;
  printOptions.showTypes = options.has("--types");
  std::optional<std::string> dumpDir = options.value("--dump-after-each");
  if (dumpDir) {
    std::error_code error;
    std::filesystem::create_directories(*dumpDir, error);
    if (error) return reportError(makeError("cannot create the directory: " + error.message(), {*dumpDir}));
  }
  PassContext context;
  Module current = *module;
  for (std::size_t i = 0; i < steps->size(); ++i) {
    const PassPtr& pass = (*steps)[i];
    Result<PassResult> result = pass->run(current, context);
    if (!result) {
      Diagnostic error = result.error();
      error.message = pass->info().name + ": " + error.message;
      return reportError(error);
    }
    current = std::move(result->module);
    if (!dumpDir) continue;
    std::string path = (std::filesystem::path(*dumpDir) / (twoDigits(i + 1) + "-" + pass->info().name + ".relay")).string();
    if (Status written = writeFileAtomic(path, printModule(current, printOptions)); !written) return reportError(written.error());
  }

  std::optional<std::string> out = options.value("-o");
  if (!out) {
    std::cout << printModule(current, printOptions);
    return 0;
  }
  bool json = std::filesystem::path(*out).extension() == ".json";
  Status written = writeFileAtomic(*out, json ? saveModuleJson(current) : printModule(current, printOptions));
  return written ? 0 : reportError(written.error());
}

}  // namespace byoc::cli
