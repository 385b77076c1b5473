#include "pass/pass.h"

namespace byoc {

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

class Sequential final : public Pass {
 public:
  Sequential(std::vector<PassPtr> passes, std::string name) : passes_(std::move(passes)) {
    info_.name = std::move(name);
    info_.summary = "runs its passes in order";
  }
  const PassInfo& info() const override { return info_; }

  Result<PassResult> run(const Module& module, PassContext& context) const override {
    PassResult result{module, false};
    for (const PassPtr& pass : passes_) {
      if (!shouldRun(*pass, context)) continue;
      BYOC_ASSIGN_OR_RETURN(PassResult step, pass->run(result.module, context));
      result.changed = result.changed || step.changed;
      result.module = std::move(step.module);
    }
    return result;
  }

 private:
  static bool shouldRun(const Pass& pass, const PassContext& context) {
    const std::string& name = pass.info().name;
    if (context.requiredPasses.count(name)) return true;
    if (context.disabledPasses.count(name)) return false;
    return pass.info().optLevel <= context.optLevel;
  }

  std::vector<PassPtr> passes_;
  PassInfo info_;
};

}  // namespace

PassPtr makeModulePass(PassInfo info, ModulePassFunction function) {
  return std::make_shared<const ModulePass>(std::move(info), std::move(function));
}

PassPtr makeSequential(std::vector<PassPtr> passes, std::string name) {
  return std::make_shared<const Sequential>(std::move(passes), std::move(name));
}

}  // namespace byoc
