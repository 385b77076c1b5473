#include "model_input.h"

#include "builtin_resources.h"
#include "frontend/loader.h"
#include "pass/infer_type.h"
#include "text/parser.h"

namespace byoc::cli {

Result<Module> loadTypedModel(const Options& options) {
  Result<Module> module = options.demo()
                              ? parseModule(*findBuiltinResource(kDemoModelName), std::string(kDemoModelName))
                              : loadModuleFile(*options.file);
  if (!module) return module;
  return inferTypes(*module);
}

}  // namespace byoc::cli
