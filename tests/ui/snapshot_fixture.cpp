/// \file
/// snapshotFromText: an ExprMutator that rebuilds every node with its new origin.

#include "snapshot_fixture.h"

#include <QtGlobal>
#include <map>

#include "ir/op.h"
#include "ir/traversal.h"
#include "pass/infer_type.h"
#include "text/parser.h"

namespace byoc::testing {

namespace {

bool isAnnotation(const OpDef& def) { return def.name.rfind("annotation.", 0) == 0; }

/// What a call is matched by: the op's name, or `%name` for a call of a variable; empty otherwise.
std::string callKey(const Expr& expr) {
  const auto* call = expr->as<CallNode>();
  if (!call) return {};
  if (const OpDef* def = call->opDef()) return isAnnotation(*def) ? std::string() : def->name;
  if (const auto* var = call->callee->as<VarNode>()) return "%" + var->name;
  return {};
}

/// Origins of the loaded module's calls, by key, in post-order.
std::map<std::string, std::vector<Origin>> callOrigins(const Module& module) {
  std::map<std::string, std::vector<Origin>> origins;
  postOrderVisit(module, [&origins](const Expr& expr) {
    std::string key = callKey(expr);
    if (!key.empty()) origins[key].push_back(expr->origin());
  });
  return origins;
}

class Reorigin : public ExprMutator {
 public:
  explicit Reorigin(std::map<std::string, std::vector<Origin>> origins) : origins_(std::move(origins)) {}

 protected:
  Result<Expr> rewrite(const Expr&, const Expr& post) override {
    Origin origin;
    if (std::string key = callKey(post); !key.empty()) {
      const std::vector<Origin>& candidates = origins_[key];
      std::size_t& used = used_[key];
      if (used >= candidates.size()) qFatal("the step has more %s calls than the loaded model", key.c_str());
      origin = candidates[used++];
    }
    return withOrigin(post, origin);
  }

 private:
  static Expr withOrigin(const Expr& node, const Origin& origin) {
    const Type& type = node->type();
    switch (node->kind()) {
      case ExprKind::Var: {
        const auto* var = node->as<VarNode>();
        return VarNode::make(var->name, var->annotation, origin, type);
      }
      case ExprKind::GlobalVar: return GlobalVarNode::make(node->as<GlobalVarNode>()->name, origin, type);
      case ExprKind::Constant: {
        const auto* constant = node->as<ConstantNode>();
        return ConstantNode::make(constant->data, origin, constant->name);
      }
      case ExprKind::Op: return node;
      case ExprKind::Call: {
        const auto* call = node->as<CallNode>();
        return CallNode::make(call->callee, call->args, call->attrs, origin, type);
      }
      case ExprKind::Tuple: return TupleNode::make(node->as<TupleNode>()->fields, origin, type);
      case ExprKind::TupleGetItem: {
        const auto* item = node->as<TupleGetItemNode>();
        return TupleGetItemNode::make(item->tuple, item->index, origin, type);
      }
      case ExprKind::Function: {
        const auto* function = node->as<FunctionNode>();
        return FunctionNode::make(function->params, function->body, function->retType, function->attrs, origin, type);
      }
      case ExprKind::If: {
        const auto* branch = node->as<IfNode>();
        return IfNode::make(branch->cond, branch->thenBranch, branch->elseBranch, origin, type);
      }
      case ExprKind::Let: {
        const auto* let = node->as<LetNode>();
        return LetNode::make(let->var, let->value, let->body, origin, type);
      }
    }
    return node;
  }

  std::map<std::string, std::vector<Origin>> origins_;
  std::map<std::string, std::size_t> used_;
};

}  // namespace

Module typedModuleFromText(const std::string& text, const std::string& fileName) {
  Result<Module> parsed = parseModule(text, fileName);
  if (!parsed) qFatal("%s", parsed.error().str().c_str());
  Result<Module> typed = inferTypes(*parsed);
  if (!typed) qFatal("%s", typed.error().str().c_str());
  return *typed;
}

Module snapshotFromText(const std::string& text, const Module& loaded) {
  Module parsed = typedModuleFromText(text, "step.relay");
  Reorigin mutator(callOrigins(loaded));
  Module result;
  for (const auto& [name, function] : parsed.functions()) {
    result.set(name, downcast<FunctionNode>(mutator.mutate(Expr(function)).value()));
  }
  result.setProvenance(loaded.provenance());
  Result<Module> typed = inferTypes(result);
  if (!typed) qFatal("%s", typed.error().str().c_str());
  return *typed;
}

}  // namespace byoc::testing
