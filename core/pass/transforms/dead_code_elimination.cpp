/// \file
/// DeadCodeElimination (contract in the header).

#include "pass/transforms/dead_code_elimination.h"

#include <unordered_set>

#include "pass/analysis/function_utils.h"

namespace byoc {

namespace dead_code_elimination {

/// The variables used anywhere under `root` other than where they are bound.
std::unordered_set<const ExprNode*> usedVariables(const Expr& root) {
  std::unordered_set<const ExprNode*> used;
  postOrderVisit(root, [&used](const Expr& node) {
    std::vector<Expr> children = childrenOf(*node);
    for (std::size_t i = 0; i < children.size(); ++i) {
      bool binder = (node->kind() == ExprKind::Let && i == 1) ||
                    (node->kind() == ExprKind::Function && i + 1 < children.size());
      if (!binder && children[i]->kind() == ExprKind::Var) used.insert(children[i].get());
    }
  });
  return used;
}

/// One sweep: drops the lets whose variable is not in `used`.
class Sweeper final : public OpaqueFunctionSkippingMutator {
 public:
  explicit Sweeper(std::unordered_set<const ExprNode*> used) : used_(std::move(used)) {}

 protected:
  Result<Expr> rewriteLet(const Let& pre, const Let& post) override {
    return used_.count(pre->var.get()) ? Expr(post) : post->body;
  }

 private:
  std::unordered_set<const ExprNode*> used_;
};

}  // namespace dead_code_elimination

Function eliminateDeadCode(const Function& function) {
  Expr body = function->body;
  while (true) {
    dead_code_elimination::Sweeper sweeper(dead_code_elimination::usedVariables(body));
    Expr swept = sweeper.mutate(body).value();  // its hook cannot fail
    if (swept == body) break;
    body = swept;
  }
  return withBody(function, body);
}

namespace {

PassInfo deadCodeEliminationInfo() {
  return {"DeadCodeElimination", "removes let bindings that are never used", 1, {},
          "Replaces each let whose variable is unused by its body, until none is left. Values are pure. "
          "InferType runs after it.",
          {}};
}

}  // namespace

PassPtr createDeadCodeEliminationPass() {
  return makeFunctionPass(deadCodeEliminationInfo(), [](const Function& function, const Module&, PassContext&) {
    return Result<Function>(eliminateDeadCode(function));
  });
}

PassRegistration deadCodeEliminationRegistration() {
  return {deadCodeEliminationInfo(), [](const Attrs&) { return Result<PassPtr>(createDeadCodeEliminationPass()); }};
}

}  // namespace byoc
