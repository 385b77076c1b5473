/// \file
/// FoldConstant (contract in the header).

#include "pass/transforms/fold_constant.h"

#include <vector>

#include "pass/analysis/function_utils.h"

namespace byoc {

namespace fold_constant {

/// Folds bottom-up: by the time a call is rewritten its arguments are already folded.
class Folder final : public OpaqueFunctionSkippingMutator {
 public:
  explicit Folder(const ConstantEvaluator& evaluator) : evaluator_(evaluator) {}

 protected:
  Result<Expr> rewriteCall(const Call& /*pre*/, const Call& call) override {
    const OpDef* def = call->opDef();
    if (!def || def->name.starts_with("annotation.")) return Expr(call);
    std::vector<TensorData> inputs;
    std::vector<Origin> origins{call->origin()};
    for (const Expr& arg : call->args) {
      const auto* constant = arg->as<ConstantNode>();
      if (!constant) return Expr(call);
      inputs.push_back(constant->data);
      origins.push_back(constant->origin());
    }
    std::optional<TensorData> value = evaluator_.evaluate(*def, call->attrs, inputs);
    if (!value) return Expr(call);
    return Expr(ConstantNode::make(std::move(*value), Origin::unite(origins)));
  }

 private:
  const ConstantEvaluator& evaluator_;
};

}  // namespace fold_constant

Function foldConstants(const Function& function, const ConstantEvaluator& evaluator) {
  fold_constant::Folder folder(evaluator);
  return withBody(function, folder.mutate(function->body).value());  // its hook cannot fail
}

namespace {

PassInfo foldConstantInfo() {
  return {"FoldConstant", "evaluates op calls whose arguments are all constants", 2, {},
          "Replaces each op call whose arguments are constants by the constant it computes, bottom-up. "
          "Leaves annotation ops and primitive or external functions alone. InferType runs after it.",
          {}};
}

}  // namespace

PassPtr createFoldConstantPass(const ConstantEvaluator& evaluator) {
  return makeFunctionPass(foldConstantInfo(), [&evaluator](const Function& function, const Module&, PassContext&) {
    return Result<Function>(foldConstants(function, evaluator));
  });
}

PassRegistration foldConstantRegistration() {
  return {foldConstantInfo(), [](const Attrs&) { return Result<PassPtr>(createFoldConstantPass()); }};
}

}  // namespace byoc
