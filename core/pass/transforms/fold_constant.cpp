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
  Expr rewrite(const Expr& /*pre*/, const Expr& post) override {
    const auto* call = post->as<CallNode>();
    const OpDef* def = call ? call->opDef() : nullptr;
    if (!def || def->name.starts_with("annotation.")) return post;
    std::vector<TensorData> inputs;
    std::vector<Origin> origins{post->origin()};
    for (const Expr& arg : call->args) {
      const auto* constant = arg->as<ConstantNode>();
      if (!constant) return post;
      inputs.push_back(constant->data);
      origins.push_back(constant->origin());
    }
    std::optional<TensorData> value = evaluator_.evaluate(*def, call->attrs, inputs);
    if (!value) return post;
    return ConstantNode::make(std::move(*value), Origin::unite(origins));
  }

 private:
  const ConstantEvaluator& evaluator_;
};

}  // namespace fold_constant

Function foldConstants(const Function& function, const ConstantEvaluator& evaluator) {
  fold_constant::Folder folder(evaluator);
  return withBody(function, folder.mutate(function->body));
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
