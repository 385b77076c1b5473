/// \file
/// RemoveUnusedFunctions (contract in the header).

#include "pass/transforms/remove_unused_functions.h"

#include "ir/ops/op_helpers.h"
#include "pass/analysis/global_calls.h"

namespace byoc {

Module removeUnusedFunctions(const Module& module, const std::string& entry) {
  std::set<std::string, std::less<>> reached = reachableGlobals(module, {entry});
  Module result = module;
  for (const auto& [name, function] : module.functions())
    if (!reached.count(name)) result.erase(name);
  return result;
}

namespace {

PassInfo removeUnusedFunctionsInfo() {
  return {"RemoveUnusedFunctions", "drops global functions the entry function does not reach", 1, {},
          "Keeps only the global functions reachable from the entry function through @name references.",
          {{"entry_function", AttrValue("main"), "the function whose callees are kept"}}};
}

}  // namespace

PassPtr createRemoveUnusedFunctionsPass(std::string entry) {
  PassInfo info = removeUnusedFunctionsInfo();
  info.options[0].defaultValue = AttrValue(entry);
  return makeModulePass(std::move(info), [entry](const Module& module, PassContext&) -> Result<PassResult> {
    Module result = removeUnusedFunctions(module, entry);
    bool changed = result.functions().size() != module.functions().size();
    return PassResult{changed ? std::move(result) : module, changed};
  });
}

PassRegistration removeUnusedFunctionsRegistration() {
  return {removeUnusedFunctionsInfo(), [](const Attrs& options) -> Result<PassPtr> {
            BYOC_ASSIGN_OR_RETURN(const std::string entry, ops::requiredStringAttr("RemoveUnusedFunctions", options, "entry_function"));
            return createRemoveUnusedFunctionsPass(entry);
          }};
}

}  // namespace byoc
