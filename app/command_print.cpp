#include <iostream>

#include "commands.h"
#include "model_input.h"
#include "text/printer.h"

namespace byoc::cli {

int reportError(const Diagnostic& error) {
  std::cerr << "error: " << error.str() << "\n";
  return 1;
}

int runPrint(const Options& options) {
  Result<Module> module = loadTypedModel(options);
  if (!module) return reportError(module.error());
  PrintOptions printOptions;
  printOptions.showTypes = options.has("--types");
  std::cout << printModule(*module, printOptions);
  return 0;
}

}  // namespace byoc::cli
