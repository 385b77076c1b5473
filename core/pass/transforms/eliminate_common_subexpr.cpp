/// \file
/// EliminateCommonSubexpr (contract in the header).

#include "pass/transforms/eliminate_common_subexpr.h"

#include <unordered_map>
#include <vector>

#include "ir/op.h"
#include "pass/analysis/function_utils.h"

namespace byoc {

namespace eliminate_common_subexpr {

/// A scalar constant compares by value; anything else by identity.
bool sameArgument(const Expr& lhs, const Expr& rhs) {
  if (lhs == rhs) return true;
  const auto* a = lhs->as<ConstantNode>();
  const auto* b = rhs->as<ConstantNode>();
  return a && b && a->data.isScalar() && b->data.isScalar() && a->data == b->data;
}

std::size_t argumentHash(const Expr& arg) {
  const auto* constant = arg->as<ConstantNode>();
  if (constant && constant->data.isScalar()) return constant->data.hash();
  return std::hash<const ExprNode*>()(arg.get());
}

/// Keeps the first node of each value, bucketed by a hash of callee, attributes and arguments.
class Eliminator final : public OpaqueFunctionSkippingMutator {
 protected:
  Result<Expr> rewriteCall(const Call& /*pre*/, const Call& call) override {
    const OpDef* def = call->opDef();
    if (!def || call->args.empty() || def->name == "nn.dropout") return Expr(call);
    std::size_t hash = std::hash<const ExprNode*>()(call->callee.get()) ^ call->attrs.hash();
    for (const Expr& arg : call->args) hash = hash * 31 + argumentHash(arg);
    return lookupOrKeep(hash, call, [&call](const Expr& candidate) {
      const auto* other = candidate->as<CallNode>();
      if (!other || other->callee != call->callee || other->args.size() != call->args.size() ||
          !(other->attrs == call->attrs))
        return false;
      for (std::size_t i = 0; i < call->args.size(); ++i)
        if (!sameArgument(call->args[i], other->args[i])) return false;
      return true;
    });
  }

  Result<Expr> rewriteTupleGetItem(const TupleGetItem& /*pre*/, const TupleGetItem& item) override {
    std::size_t hash = std::hash<const ExprNode*>()(item->tuple.get()) * 31 + static_cast<std::size_t>(item->index);
    return lookupOrKeep(hash, item, [&item](const Expr& candidate) {
      const auto* other = candidate->as<TupleGetItemNode>();
      return other && other->tuple == item->tuple && other->index == item->index;
    });
  }

 private:
  template <typename Same>
  Expr lookupOrKeep(std::size_t hash, const Expr& node, Same same) {
    std::vector<Expr>& bucket = seen_[hash];
    for (const Expr& candidate : bucket)
      if (same(candidate)) return candidate;
    bucket.push_back(node);
    return node;
  }

  std::unordered_map<std::size_t, std::vector<Expr>> seen_;
};

}  // namespace eliminate_common_subexpr

Function eliminateCommonSubexpr(const Function& function) {
  eliminate_common_subexpr::Eliminator eliminator;
  return withBody(function, eliminator.mutate(function->body).value());  // its hooks cannot fail
}

namespace {

PassInfo eliminateCommonSubexprInfo() {
  return {"EliminateCommonSubexpr", "merges calls that compute the same value", 3, {"InferType"},
          "Replaces each op call equal to an earlier one (same op, attributes and argument nodes, or equal "
          "scalar constants) by the earlier call, and likewise tuple projections. Needs types; InferType "
          "runs after it.",
          {}};
}

}  // namespace

PassPtr createEliminateCommonSubexprPass() {
  return makeFunctionPass(eliminateCommonSubexprInfo(), [](const Function& function, const Module&, PassContext&) {
    return Result<Function>(eliminateCommonSubexpr(function));
  });
}

PassRegistration eliminateCommonSubexprRegistration() {
  return {eliminateCommonSubexprInfo(), [](const Attrs&) { return Result<PassPtr>(createEliminateCommonSubexprPass()); }};
}

}  // namespace byoc
