#include "ir/traversal.h"

#include "ir/module.h"
#include "support/result.h"

namespace byoc {

int childCount(const ExprNode& node) {
  switch (node.kind()) {
    case ExprKind::Call: return 1 + static_cast<int>(node.as<CallNode>()->args.size());
    case ExprKind::Tuple: return static_cast<int>(node.as<TupleNode>()->fields.size());
    case ExprKind::TupleGetItem: return 1;
    case ExprKind::Function: return 1 + static_cast<int>(node.as<FunctionNode>()->params.size());
    case ExprKind::If:
    case ExprKind::Let: return 3;
    default: return 0;
  }
}

const ExprNode* childAt(const ExprNode& node, int i) {
  switch (node.kind()) {
    case ExprKind::Call: {
      const auto& call = *node.as<CallNode>();
      return i == 0 ? call.callee.get() : call.args[i - 1].get();
    }
    case ExprKind::Tuple: return node.as<TupleNode>()->fields[i].get();
    case ExprKind::TupleGetItem: return node.as<TupleGetItemNode>()->tuple.get();
    case ExprKind::Function: {
      const auto& function = *node.as<FunctionNode>();
      if (i < static_cast<int>(function.params.size())) return function.params[i].get();
      return function.body.get();
    }
    case ExprKind::If: {
      const auto& branch = *node.as<IfNode>();
      return (i == 0 ? branch.cond : i == 1 ? branch.thenBranch : branch.elseBranch).get();
    }
    case ExprKind::Let: {
      const auto& let = *node.as<LetNode>();
      if (i == 1) return let.var.get();
      return (i == 0 ? let.value : let.body).get();
    }
    default: return nullptr;
  }
}

std::vector<Expr> childrenOf(const ExprNode& node) {
  const int count = childCount(node);
  std::vector<Expr> children;
  children.reserve(count);
  for (int i = 0; i < count; ++i) children.emplace_back(childAt(node, i));
  return children;
}

namespace {

/// Calls `visit` on every node under `root` not in `visited` yet, children first, and adds it;
/// a node `enter` refuses (when given) is added without being visited or looked into.
void walkPostOrder(const Expr& root, NodeSet& visited, const std::function<void(const Expr&)>& visit,
                   const std::function<bool(const Expr&)>* enter = nullptr) {
  if (visited.contains(root.get())) return;
  struct Frame {
    const ExprNode* node;
    int next;
  };
  std::vector<Frame> stack;
  auto push = [&](const ExprNode* node) {
    if (!enter || (*enter)(Expr(node))) stack.push_back({node, 0});
    else visited.insert(node);
  };
  push(root.get());
  while (!stack.empty()) {
    Frame& top = stack.back();
    if (top.next < childCount(*top.node)) {
      const ExprNode* child = childAt(*top.node, top.next++);
      if (!visited.contains(child)) push(child);
      continue;
    }
    const ExprNode* node = top.node;
    stack.pop_back();
    visited.insert(node);
    visit(Expr(node));
  }
}

}  // namespace

void postOrderVisit(const Expr& root, const std::function<void(const Expr&)>& visit) {
  NodeSet visited;
  walkPostOrder(root, visited, visit);
}

void postOrderVisit(const Expr& root, const std::function<void(const Expr&)>& visit,
                    const std::function<bool(const Expr&)>& enter) {
  NodeSet visited;
  walkPostOrder(root, visited, visit, &enter);
}

void postOrderVisit(const Module& module, const std::function<void(const Expr&)>& visit) {
  NodeSet visited;
  for (const auto& [name, function] : module.functions()) walkPostOrder(function, visited, visit);
}

namespace {

/// Whether every child in `children` is the child of `node` it replaces or has that child's checked
/// type: then the rebuilt node has the type `node` has.
bool sameChildTypes(const ExprNode& node, std::span<const Expr> children) {
  for (std::size_t i = 0; i < children.size(); ++i) {
    const ExprNode* before = childAt(node, static_cast<int>(i));
    if (before == children[i].get()) continue;  // an op callee, say, which has no type
    if (!before->type() || !typeEqual(before->type(), children[i]->type())) return false;
  }
  return true;
}

}  // namespace

Expr withChildren(const Expr& node, std::span<const Expr> children) {
  const int count = childCount(*node);
  BYOC_CHECK(static_cast<std::size_t>(count) == children.size(), "withChildren: wrong number of children");
  bool same = true;
  for (int i = 0; i < count && same; ++i) same = childAt(*node, i) == children[i].get();
  if (same) return node;

  const Origin& origin = node->origin();
  // A type is computed from the children's types alone, so it carries over when they did not change.
  const Type type = node->type() && sameChildTypes(*node, children) ? node->type() : Type();
  switch (node->kind()) {
    case ExprKind::Call: {
      const auto& call = *node->as<CallNode>();
      return CallNode::make(children[0], {children.begin() + 1, children.end()}, call.attrs, origin, type);
    }
    case ExprKind::Tuple:
      return TupleNode::make({children.begin(), children.end()}, origin, type);
    case ExprKind::TupleGetItem:
      return TupleGetItemNode::make(children[0], node->as<TupleGetItemNode>()->index, origin, type);
    case ExprKind::Function: {
      const auto& function = *node->as<FunctionNode>();
      std::vector<Var> params;
      params.reserve(function.params.size());
      for (std::size_t i = 0; i < function.params.size(); ++i) {
        Var param = downcast<VarNode>(children[i]);
        BYOC_CHECK(param, "withChildren: a function parameter must stay a variable");
        params.push_back(std::move(param));
      }
      return FunctionNode::make(std::move(params), children.back(), function.retType, function.attrs, origin, type);
    }
    case ExprKind::If:
      return IfNode::make(children[0], children[1], children[2], origin, type);
    case ExprKind::Let: {
      Var var = downcast<VarNode>(children[1]);
      BYOC_CHECK(var, "withChildren: a let binding must stay a variable");
      return LetNode::make(std::move(var), children[0], children[2], origin, type);
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

Result<Expr> ExprMutator::rewrite(const Expr& pre, const Expr& post) {
  // `post` is `pre` rebuilt, so both are of one kind; a downcast cannot fail here. Most nodes
  // keep their children: then one typed handle serves as both.
  auto both = [&]<typename Node>(Result<Expr> (ExprMutator::*hook)(const Ref<const Node>&, const Ref<const Node>&)) {
    const Ref<const Node> typedPost = downcast<Node>(post);
    return pre == post ? (this->*hook)(typedPost, typedPost) : (this->*hook)(downcast<Node>(pre), typedPost);
  };
  switch (pre->kind()) {
    case ExprKind::Var: return rewriteVar(downcast<VarNode>(post));
    case ExprKind::GlobalVar: return rewriteGlobalVar(downcast<GlobalVarNode>(post));
    case ExprKind::Constant: return rewriteConstant(downcast<ConstantNode>(post));
    case ExprKind::Op: return rewriteOp(downcast<OpNode>(post));
    case ExprKind::Call: return both(&ExprMutator::rewriteCall);
    case ExprKind::Tuple: return both(&ExprMutator::rewriteTuple);
    case ExprKind::TupleGetItem: return both(&ExprMutator::rewriteTupleGetItem);
    case ExprKind::Function: return both(&ExprMutator::rewriteFunction);
    case ExprKind::If: return both(&ExprMutator::rewriteIf);
    case ExprKind::Let: return both(&ExprMutator::rewriteLet);
  }
  return post;
}

Result<Expr> ExprMutator::rewriteVar(const Var& var) { return Expr(var); }
Result<Expr> ExprMutator::rewriteGlobalVar(const GlobalVar& global) { return Expr(global); }
Result<Expr> ExprMutator::rewriteConstant(const Constant& constant) { return Expr(constant); }
Result<Expr> ExprMutator::rewriteOp(const Op& op) { return Expr(op); }
Result<Expr> ExprMutator::rewriteCall(const Call& /*pre*/, const Call& post) { return Expr(post); }
Result<Expr> ExprMutator::rewriteTuple(const Tuple& /*pre*/, const Tuple& post) { return Expr(post); }
Result<Expr> ExprMutator::rewriteTupleGetItem(const TupleGetItem& /*pre*/, const TupleGetItem& post) { return Expr(post); }
Result<Expr> ExprMutator::rewriteFunction(const Function& /*pre*/, const Function& post) { return Expr(post); }
Result<Expr> ExprMutator::rewriteIf(const If& /*pre*/, const If& post) { return Expr(post); }
Result<Expr> ExprMutator::rewriteLet(const Let& /*pre*/, const Let& post) { return Expr(post); }

bool ExprMutator::shouldDescend(const Expr& /*node*/) { return true; }

const ExprNode* ExprMutator::aliasOf(const ExprNode& /*node*/) { return nullptr; }

const Expr& ExprMutator::rewritten(const Expr& pre) const {
  const Expr* found = memo_.find(pre.get());
  BYOC_CHECK(found, "ExprMutator::rewritten: node not reached yet");
  return *found;
}

const Expr* ExprMutator::findRewritten(const Expr& pre) const { return memo_.find(pre.get()); }

// Not built on visitChildrenFirst: here one memo probe per edge both skips a finished child and
// tells whether it changed, which keeps walks that change nothing a third faster.
Result<Expr> ExprMutator::mutate(const Expr& root) {
  if (const Expr* done = memo_.find(root.get())) return *done;
  const Expr keepAlive = root;  // `root` may live in the memo, which moves when it grows
  struct Frame {
    const ExprNode* node;
    int next;
    int count;
    bool childChanged;  ///< whether a child finished so far was rewritten to another node
    const ExprNode* alias;  ///< `aliasOf(node)`: then the one child to visit
  };
  std::vector<Frame> stack;
  // Pushes `node`, or keeps it as it is.
  auto enter = [&](const ExprNode* node) {
    Expr handle(node);
    if (!shouldDescend(handle)) memo_.emplace(node, std::move(handle));
    else if (const ExprNode* alias = aliasOf(*node)) stack.push_back({node, 0, 1, false, alias});
    else stack.push_back({node, 0, childCount(*node), false, nullptr});
  };
  enter(keepAlive.get());
  std::vector<Expr> children;
  while (!stack.empty()) {
    Frame& top = stack.back();
    if (top.next < top.count) {
      const ExprNode* child = top.alias ? top.alias : childAt(*top.node, top.next);
      ++top.next;
      if (const Expr* done = memo_.find(child)) top.childChanged = top.childChanged || done->get() != child;
      else enter(child);  // `top` may dangle from here on
      continue;
    }
    Expr pre(top.node);
    const int count = top.count;
    const bool childChanged = top.childChanged;
    const ExprNode* alias = top.alias;
    stack.pop_back();
    if (alias) {
      Expr replacement = *memo_.find(alias);
      if (!stack.empty() && replacement.get() != pre.get()) stack.back().childChanged = true;
      memo_.emplace(pre.get(), std::move(replacement));
      continue;
    }
    Expr post = pre;
    if (childChanged) {
      children.clear();
      for (int i = 0; i < count; ++i) children.push_back(*memo_.find(childAt(*pre, i)));
      post = withChildren(pre, children);
    }
    BYOC_ASSIGN_OR_RETURN(Expr replacement, rewrite(pre, post));
    if (!stack.empty() && replacement.get() != pre.get()) stack.back().childChanged = true;
    memo_.emplace(pre.get(), std::move(replacement));
  }
  return *memo_.find(keepAlive.get());
}

}  // namespace byoc
