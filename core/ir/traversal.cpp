#include "ir/traversal.h"

#include <unordered_set>

#include "ir/module.h"
#include "support/result.h"

namespace byoc {

std::vector<Expr> childrenOf(const ExprNode& node) {
  switch (node.kind()) {
    case ExprKind::Var:
    case ExprKind::GlobalVar:
    case ExprKind::Constant:
    case ExprKind::Op:
      return {};
    case ExprKind::Call: {
      const auto& call = *node.as<CallNode>();
      std::vector<Expr> children;
      children.reserve(call.args.size() + 1);
      children.push_back(call.callee);
      children.insert(children.end(), call.args.begin(), call.args.end());
      return children;
    }
    case ExprKind::Tuple:
      return node.as<TupleNode>()->fields;
    case ExprKind::TupleGetItem:
      return {node.as<TupleGetItemNode>()->tuple};
    case ExprKind::Function: {
      const auto& function = *node.as<FunctionNode>();
      std::vector<Expr> children(function.params.begin(), function.params.end());
      children.push_back(function.body);
      return children;
    }
    case ExprKind::If: {
      const auto& branch = *node.as<IfNode>();
      return {branch.cond, branch.thenBranch, branch.elseBranch};
    }
    case ExprKind::Let: {
      const auto& let = *node.as<LetNode>();
      return {let.value, let.var, let.body};
    }
  }
  return {};
}

namespace {

/// Drives a post-order walk with an explicit stack. `descend` may prune a subgraph.
template <typename Descend, typename Visit>
void walkPostOrder(const Expr& root, std::unordered_set<const ExprNode*>& visited, Descend&& descend,
                   Visit&& visit) {
  struct Frame {
    Expr node;
    bool expanded;
  };
  std::vector<Frame> stack;
  stack.push_back({root, false});
  while (!stack.empty()) {
    Frame& top = stack.back();
    if (visited.count(top.node.get())) {
      stack.pop_back();
      continue;
    }
    if (!top.expanded && descend(top.node)) {
      top.expanded = true;
      std::vector<Expr> children = childrenOf(*top.node);
      for (auto it = children.rbegin(); it != children.rend(); ++it)
        if (!visited.count(it->get())) stack.push_back({*it, false});
      continue;
    }
    Expr node = std::move(top.node);
    stack.pop_back();
    visited.insert(node.get());
    visit(node);
  }
}

}  // namespace

void postOrderVisit(const Expr& root, const std::function<void(const Expr&)>& visit) {
  std::unordered_set<const ExprNode*> visited;
  walkPostOrder(root, visited, [](const Expr&) { return true; }, visit);
}

void postOrderVisit(const Module& module, const std::function<void(const Expr&)>& visit) {
  std::unordered_set<const ExprNode*> visited;
  for (const auto& [name, function] : module.functions())
    walkPostOrder(function, visited, [](const Expr&) { return true; }, visit);
}

Expr withChildren(const Expr& node, std::span<const Expr> children) {
  std::vector<Expr> current = childrenOf(*node);
  BYOC_CHECK(current.size() == children.size(), "withChildren: wrong number of children");
  bool same = true;
  for (std::size_t i = 0; i < current.size() && same; ++i) same = current[i] == children[i];
  if (same) return node;

  const Origin& origin = node->origin();
  switch (node->kind()) {
    case ExprKind::Call: {
      const auto& call = *node->as<CallNode>();
      return CallNode::make(children[0], {children.begin() + 1, children.end()}, call.attrs, origin);
    }
    case ExprKind::Tuple:
      return TupleNode::make({children.begin(), children.end()}, origin);
    case ExprKind::TupleGetItem:
      return TupleGetItemNode::make(children[0], node->as<TupleGetItemNode>()->index, origin);
    case ExprKind::Function: {
      const auto& function = *node->as<FunctionNode>();
      std::vector<Var> params;
      params.reserve(function.params.size());
      for (std::size_t i = 0; i < function.params.size(); ++i) {
        Var param = downcast<VarNode>(children[i]);
        BYOC_CHECK(param, "withChildren: a function parameter must stay a variable");
        params.push_back(std::move(param));
      }
      return FunctionNode::make(std::move(params), children.back(), function.retType, function.attrs, origin);
    }
    case ExprKind::If:
      return IfNode::make(children[0], children[1], children[2], origin);
    case ExprKind::Let: {
      Var var = downcast<VarNode>(children[1]);
      BYOC_CHECK(var, "withChildren: a let binding must stay a variable");
      return LetNode::make(std::move(var), children[0], children[2], origin);
    }
    default:
      return node;  // leaves have no children
  }
}

Expr withType(const Expr& node, const Type& type) {
  if (typeEqual(node->type(), type)) return node;
  const Origin& origin = node->origin();
  switch (node->kind()) {
    case ExprKind::Var: {
      const auto& var = *node->as<VarNode>();
      return VarNode::make(var.name, var.annotation, origin, type);
    }
    case ExprKind::GlobalVar:
      return GlobalVarNode::make(node->as<GlobalVarNode>()->name, origin, type);
    case ExprKind::Constant:
    case ExprKind::Op:
      return node;  // their types are fixed by what they are
    case ExprKind::Call: {
      const auto& call = *node->as<CallNode>();
      return CallNode::make(call.callee, call.args, call.attrs, origin, type);
    }
    case ExprKind::Tuple:
      return TupleNode::make(node->as<TupleNode>()->fields, origin, type);
    case ExprKind::TupleGetItem: {
      const auto& item = *node->as<TupleGetItemNode>();
      return TupleGetItemNode::make(item.tuple, item.index, origin, type);
    }
    case ExprKind::Function: {
      const auto& function = *node->as<FunctionNode>();
      return FunctionNode::make(function.params, function.body, function.retType, function.attrs, origin, type);
    }
    case ExprKind::If: {
      const auto& branch = *node->as<IfNode>();
      return IfNode::make(branch.cond, branch.thenBranch, branch.elseBranch, origin, type);
    }
    case ExprKind::Let: {
      const auto& let = *node->as<LetNode>();
      return LetNode::make(let.var, let.value, let.body, origin, type);
    }
  }
  return node;
}

Expr ExprMutator::rewrite(const Expr& /*pre*/, const Expr& post) { return post; }

bool ExprMutator::shouldDescend(const Expr& /*node*/) { return true; }

const Expr& ExprMutator::rewritten(const Expr& pre) const {
  auto it = memo_.find(pre.get());
  BYOC_CHECK(it != memo_.end(), "ExprMutator::rewritten: node not reached yet");
  return it->second;
}

const Expr* ExprMutator::findRewritten(const Expr& pre) const {
  auto it = memo_.find(pre.get());
  return it == memo_.end() ? nullptr : &it->second;
}

Expr ExprMutator::mutate(const Expr& root) {
  if (auto it = memo_.find(root.get()); it != memo_.end()) return it->second;
  struct Frame {
    Expr node;
    bool expanded;
  };
  std::vector<Frame> stack;
  stack.push_back({root, false});
  while (!stack.empty()) {
    Frame& top = stack.back();
    if (memo_.count(top.node.get())) {
      stack.pop_back();
      continue;
    }
    if (!top.expanded) {
      if (!shouldDescend(top.node)) {
        Expr node = std::move(top.node);
        stack.pop_back();
        memo_.emplace(node.get(), node);
        continue;
      }
      top.expanded = true;
      std::vector<Expr> children = childrenOf(*top.node);
      for (auto it = children.rbegin(); it != children.rend(); ++it)
        if (!memo_.count(it->get())) stack.push_back({*it, false});
      continue;
    }
    Expr pre = std::move(top.node);
    stack.pop_back();
    std::vector<Expr> children = childrenOf(*pre);
    for (Expr& child : children) child = memo_.at(child.get());
    Expr post = withChildren(pre, children);
    memo_.emplace(pre.get(), rewrite(pre, post));
  }
  return memo_.at(root.get());
}

}  // namespace byoc
