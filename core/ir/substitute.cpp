#include "ir/substitute.h"

#include "ir/traversal.h"

namespace byoc {

namespace {

class Substituter final : public ExprMutator {
 public:
  explicit Substituter(const VarBindings& bindings) : bindings_(bindings) {}

 protected:
  Result<Expr> rewriteVar(const Var& var) override {
    auto bound = bindings_.find(var.get());
    return bound == bindings_.end() ? Expr(var) : bound->second;
  }

 private:
  const VarBindings& bindings_;
};

}  // namespace

Expr substitute(const Expr& expr, const VarBindings& bindings) {
  if (bindings.empty()) return expr;
  Substituter substituter(bindings);
  return substituter.mutate(expr).value();  // its hook cannot fail
}

}  // namespace byoc
