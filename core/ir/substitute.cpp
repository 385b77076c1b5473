#include "ir/substitute.h"

#include "ir/traversal.h"

namespace byoc {

namespace {

class Substituter final : public ExprMutator {
 public:
  explicit Substituter(const VarBindings& bindings) : bindings_(bindings) {}

 protected:
  Expr rewrite(const Expr& pre, const Expr& post) override {
    const auto* var = pre->as<VarNode>();
    if (!var) return post;
    auto bound = bindings_.find(var);
    return bound == bindings_.end() ? post : bound->second;
  }

 private:
  const VarBindings& bindings_;
};

}  // namespace

Expr substitute(const Expr& expr, const VarBindings& bindings) {
  if (bindings.empty()) return expr;
  Substituter substituter(bindings);
  return substituter.mutate(expr);
}

}  // namespace byoc
