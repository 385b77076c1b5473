/// \file
/// OptimizeExternal (contract in the header).

#include "pass/transforms/optimize_external.h"

#include "ir/function_attrs.h"
#include "pass/infer_type.h"

namespace byoc {

namespace {

/// The attributes that make function passes skip a function; removed while the pipeline runs.
constexpr const char* kSkippingAttrs[] = {attr::kCompiler, attr::kPrimitive, attr::kInline};

Result<Function> optimizeOne(const Function& function, const Pass& pipeline, PassContext& context) {
  Attrs open = function->attrs;
  for (const char* name : kSkippingAttrs) open = open.without(name);
  Module single;
  single.set("main", FunctionNode::make(function->params, function->body, function->retType, open, function->origin()));
  BYOC_ASSIGN_OR_RETURN(Module typed, inferTypes(single, TypeReuse::KeepTypedSubgraphs, &context));
  BYOC_ASSIGN_OR_RETURN(PassResult result, pipeline(typed, context));
  if (!result.changed) return function;
  Function optimized = result.module.find("main");
  if (!optimized) return makeError("the optimize pipeline removed the function");
  return FunctionNode::make(optimized->params, optimized->body, {}, function->attrs, function->origin());
}

}  // namespace

PassPtr createOptimizeExternalPass(std::string target, std::vector<PassPtr> passes) {
  PassInfo info{"OptimizeExternal", "runs the target's optimize pipeline on each function outlined for it", 0, {},
                "Runs the pipeline of the target file's `optimize` field on each function whose Compiler is the "
                "target, alone, as TVM's relay.ext.<target>.optimize. Needs types; InferType runs after it.",
                {}};
  PassPtr pipeline = makeSequential(std::move(passes), "optimize " + target);
  return makeModulePass(std::move(info), [target = std::move(target), pipeline](const Module& module,
                                                                                  PassContext& context) -> Result<PassResult> {
    Module result = module;
    bool changed = false;
    for (const auto& [name, function] : module.functions()) {
      const AttrValue* compiler = function->attrs.find(attr::kCompiler);
      if (!compiler || !compiler->isString() || compiler->asString() != target) continue;
      Result<Function> optimized = optimizeOne(function, *pipeline, context);
      if (!optimized) return makeError("optimize pipeline of target " + target + " on @" + name + ": " + optimized.error().message);
      if (*optimized == function) continue;
      result.set(name, *optimized);
      changed = true;
    }
    if (!changed) return PassResult{module, false};
    BYOC_ASSIGN_OR_RETURN(Module typed, inferTypes(result, TypeReuse::KeepTypedSubgraphs, &context));
    return PassResult{std::move(typed), true};
  });
}

}  // namespace byoc
