/// \file
/// Pass, module and function passes, Sequential, and the instrumented invocation.

#include "pass/pass.h"

#include "ir/function_attrs.h"
#include "pass/analysis/function_utils.h"
#include "pass/infer_type.h"
#include "pass/registry.h"

namespace byoc {

const PassRegistry& PassContext::passRegistry() const { return registry ? *registry : PassRegistry::core(); }

bool PassContext::isEnabled(const PassInfo& info) const {
  if (disabledPasses.count(info.name)) return false;
  if (requiredPasses.count(info.name)) return true;
  return info.optLevel <= optLevel;
}

Status PassContext::checkCancelled() const {
  if (cancel && cancel->load(std::memory_order_relaxed)) return makeError("cancelled");
  return Status::ok();
}

Result<PassResult> Pass::operator()(const Module& module, PassContext& context) const {
  BYOC_TRY(context.checkCancelled());
  const PassInfo& passInfo = info();
  for (const auto& instrument : context.instruments)
    if (!instrument->shouldRun(module, passInfo)) return PassResult{module, false};
  for (const auto& instrument : context.instruments) instrument->beforePass(module, passInfo);
  Result<PassResult> result = run(module, context);
  if (!result) {
    for (const auto& instrument : context.instruments) instrument->afterPassFailed(module, passInfo, result.error());
    return result;
  }
  const auto& instruments = context.instruments;
  for (std::size_t i = 0; i < instruments.size(); ++i) {
    Status status = instruments[i]->afterPass(*result, passInfo);
    if (status) continue;
    for (std::size_t later = i + 1; later < instruments.size(); ++later)
      instruments[later]->afterPassFailed(module, passInfo, status.error());
    return status.error();
  }
  return result;
}

Result<PassResult> runPipeline(const Pass& pass, const Module& module, PassContext& context) {
  for (const auto& instrument : context.instruments) instrument->enterContext();
  Result<PassResult> result = pass(module, context);
  for (const auto& instrument : context.instruments) instrument->exitContext();
  return result;
}

namespace {

class ModulePass final : public Pass {
 public:
  ModulePass(PassInfo info, ModulePassFunction function) : info_(std::move(info)), function_(std::move(function)) {}
  const PassInfo& info() const override { return info_; }
  Result<PassResult> run(const Module& module, PassContext& context) const override {
    return function_(module, context);
  }

 private:
  PassInfo info_;
  ModulePassFunction function_;
};

class FunctionPass final : public Pass {
 public:
  FunctionPass(PassInfo info, FunctionPassFunction function, FunctionPassScope scope)
      : info_(std::move(info)), function_(std::move(function)), scope_(scope) {}
  const PassInfo& info() const override { return info_; }

  Result<PassResult> run(const Module& module, PassContext& context) const override {
    Module updated = module;
    bool changed = false;
    for (const auto& [name, function] : module.functions()) {
      if (skips(*function)) continue;
      BYOC_TRY(context.checkCancelled());
      BYOC_ASSIGN_OR_RETURN(Function mapped, function_(function, module, context));
      if (mapped == function) continue;
      updated.set(name, std::move(mapped));
      changed = true;
    }
    if (!changed) return PassResult{module, false};
    BYOC_ASSIGN_OR_RETURN(PassResult typed, (*createInferTypePass(TypeReuse::KeepTypedSubgraphs))(updated, context));
    return PassResult{std::move(typed.module), true};
  }

 private:
  bool skips(const FunctionNode& function) const {
    if (scope_.skipExternal && function.attrs.contains(attr::kCompiler)) return true;
    return scope_.skipPrimitive && hasNonzeroAttr(function.attrs, attr::kPrimitive);
  }

  PassInfo info_;
  FunctionPassFunction function_;
  FunctionPassScope scope_;
};

class Sequential final : public Pass {
 public:
  Sequential(std::vector<PassPtr> passes, std::string name) : passes_(std::move(passes)) {
    info_.name = std::move(name);
    info_.summary = "runs its passes in order";
  }
  const PassInfo& info() const override { return info_; }

  Result<PassResult> run(const Module& module, PassContext& context) const override {
    BYOC_ASSIGN_OR_RETURN(std::vector<PassPtr> steps, sequenceSteps(passes_, context));
    PassResult result{module, false};
    for (const PassPtr& step : steps) {
      BYOC_ASSIGN_OR_RETURN(PassResult stepResult, (*step)(result.module, context));
      result.changed = result.changed || stepResult.changed;
      result.module = std::move(stepResult.module);
    }
    return result;
  }

 private:
  std::vector<PassPtr> passes_;
  PassInfo info_;
};

}  // namespace

PassPtr makeModulePass(PassInfo info, ModulePassFunction function) {
  return std::make_shared<const ModulePass>(std::move(info), std::move(function));
}

PassPtr makeFunctionPass(PassInfo info, FunctionPassFunction function, FunctionPassScope scope) {
  return std::make_shared<const FunctionPass>(std::move(info), std::move(function), scope);
}

Result<std::vector<PassPtr>> sequenceSteps(std::span<const PassPtr> passes, const PassContext& context) {
  std::vector<PassPtr> steps;
  for (const PassPtr& pass : passes) {
    if (!context.isEnabled(pass->info())) continue;
    for (const std::string& requiredName : pass->info().required) {
      Result<PassPtr> required = context.passRegistry().create(requiredName);
      if (!required) return makeError(pass->info().name + " requires " + required.error().message);
      steps.push_back(std::move(required).value());
    }
    steps.push_back(pass);
  }
  return steps;
}

PassPtr makeSequential(std::vector<PassPtr> passes, std::string name) {
  return std::make_shared<const Sequential>(std::move(passes), std::move(name));
}

}  // namespace byoc
