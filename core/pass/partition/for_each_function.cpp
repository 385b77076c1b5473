#include "pass/partition/for_each_function.h"

#include "pass/infer_type.h"

namespace byoc::partitioning {

namespace {

bool nonzero(const AttrValue* value) {
  return value && ((value->isInt() && value->asInt() != 0) || (value->isBool() && value->asBool()));
}

}  // namespace

bool isExternalFunction(const FunctionNode& function) {
  return function.attrs.contains("Compiler") || nonzero(function.attrs.find("Extern")) ||
         nonzero(function.attrs.find("SkipOptimization"));
}

Result<PassResult> rewriteFunctionsAndType(const Module& module, const FunctionRewrite& rewrite) {
  Module result = module;
  bool changed = false;
  for (const auto& [name, function] : module.functions()) {
    if (isExternalFunction(*function)) continue;
    BYOC_ASSIGN_OR_RETURN(Function rewritten, rewrite(function, name));
    if (rewritten == function) continue;
    result.set(name, rewritten);
    changed = true;
  }
  if (!changed) return PassResult{module, false};
  BYOC_ASSIGN_OR_RETURN(Module typed, inferTypes(result));
  return PassResult{std::move(typed), true};
}

}  // namespace byoc::partitioning
