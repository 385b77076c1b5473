#pragma once
/// \file
/// The one traversal family of the IR: iterative, memoised post-order visits and rewrites.
///
/// Nothing here recurses in proportion to graph depth: an explicit stack drives every
/// walk, and a memo table makes each shared node visited (and rebuilt) once. Children
/// are visited in evaluation order:
///   Call: callee, then arguments · Tuple: fields · TupleGetItem: tuple ·
///   Function: parameters, then body · If: condition, then, else · Let: value, variable, body.
/// (A let's value comes before its variable so that, when the variable is reached, what it
/// is bound to has already been visited.)

#include <functional>
#include <span>
#include <utility>
#include <vector>

#include "ir/expr.h"
#include "ir/node_map.h"
#include "support/result.h"

namespace byoc {

class Module;

/// The direct children of `node`, in the order documented above.
std::vector<Expr> childrenOf(const ExprNode& node);
/// Number of children of `node` (as `childrenOf` lists them).
int childCount(const ExprNode& node);
/// Child `i` of `node` (as `childrenOf` lists them), without building a vector.
const ExprNode* childAt(const ExprNode& node, int i);

/// Calls `visit` on every node reachable from `root`, each once, children before parents.
void postOrderVisit(const Expr& root, const std::function<void(const Expr&)>& visit);
/// The same, restricted to what can be reached from `root` through nodes `enter` accepts: a node
/// it refuses is neither visited nor looked into (`root` included).
void postOrderVisit(const Expr& root, const std::function<void(const Expr&)>& visit,
                    const std::function<bool(const Expr&)>& enter);
/// The same over every function of a module, in module order; nodes shared between functions
/// are visited once.
void postOrderVisit(const Module& module, const std::function<void(const Expr&)>& visit);

/// Visits the nodes under `root`, children before parents, over the children a walk chooses
/// itself: `childrenOf(node, children)` appends a node's children or fails with a `Status`.
/// Nodes for which `done(node)` holds are not entered; `visit(node)` runs once all children of
/// `node` are done, and must make `done(node)` hold (or fail). The first failure ends the walk.
template <typename Done, typename ChildrenOf, typename Visit>
Status visitChildrenFirst(const ExprNode* root, Done&& done, ChildrenOf&& childrenOf, Visit&& visit) {
  if (done(root)) return Status::ok();
  // The children of every node on the stack, in one buffer: a frame's are above its parent's.
  struct Frame {
    const ExprNode* node;
    std::size_t begin, end, next;  ///< its children in `pending`, and the next one to enter
  };
  std::vector<const ExprNode*> pending;
  std::vector<Frame> stack;
  auto enter = [&](const ExprNode* node) -> Status {
    const std::size_t begin = pending.size();
    BYOC_TRY(childrenOf(*node, pending));
    stack.push_back({node, begin, pending.size(), begin});
    return Status::ok();
  };
  BYOC_TRY(enter(root));
  while (!stack.empty()) {
    Frame& top = stack.back();
    if (top.next < top.end) {
      const ExprNode* child = pending[top.next++];
      if (!done(child)) BYOC_TRY(enter(child));  // `top` may dangle from here on
      continue;
    }
    const ExprNode* node = top.node;
    pending.resize(top.begin);
    stack.pop_back();
    // Work started inside `visit` (a nested walk) may have finished a node still on this stack.
    if (!done(node)) BYOC_TRY(visit(*node));
  }
  return Status::ok();
}

/// `node` with its children replaced by `children` (same count and order as `childrenOf`).
/// Returns `node` itself when every child is the same node. A rebuilt node keeps the origin;
/// it keeps the checked type too when every new child has the type of the child it replaces
/// (a type follows from the children's types), and has none otherwise (type inference computes it).
Expr withChildren(const Expr& node, std::span<const Expr> children);

/// `node` with checked type `type`; `node` itself when the type is already structurally equal.
Expr withType(const Expr& node, const Type& type);

/// Iterative, memoised post-order rewriter.
///
/// `mutate(root)` rebuilds the graph bottom-up. For each node, in post-order, it builds `post`
/// (the node over its already-rewritten children, identical to `pre` if none changed) and calls
/// `rewrite(pre, post)`, which hands the pair to the hook of the node's kind; what that returns
/// replaces `pre` everywhere. A hook may fail: the walk stops there and `mutate` returns the
/// error. Nodes reachable several times are rewritten once. A mutator object may be used for
/// several roots; the memo is shared between them, so nodes shared between functions are
/// rewritten once. A hook may call `mutate` on a part of the graph it needs rewritten first.
class ExprMutator {
 public:
  virtual ~ExprMutator() = default;

  /// Rewrites the graph under `root` and returns the new root, or the first error of a hook.
  Result<Expr> mutate(const Expr& root);

 protected:
  /// Rewrites one node. Calls the hook of its kind; override to treat every kind alike (or to
  /// check something first, then call this).
  virtual Result<Expr> rewrite(const Expr& pre, const Expr& post);

  /// The hooks, one per kind: `pre` as the input has it, `post` over the rewritten children
  /// (leaves have no children, so they get one node). Each returns `post` unless overridden.
  virtual Result<Expr> rewriteVar(const Var& var);
  virtual Result<Expr> rewriteGlobalVar(const GlobalVar& global);
  virtual Result<Expr> rewriteConstant(const Constant& constant);
  virtual Result<Expr> rewriteOp(const Op& op);
  virtual Result<Expr> rewriteCall(const Call& pre, const Call& post);
  virtual Result<Expr> rewriteTuple(const Tuple& pre, const Tuple& post);
  virtual Result<Expr> rewriteTupleGetItem(const TupleGetItem& pre, const TupleGetItem& post);
  virtual Result<Expr> rewriteFunction(const Function& pre, const Function& post);
  virtual Result<Expr> rewriteIf(const If& pre, const If& post);
  virtual Result<Expr> rewriteLet(const Let& pre, const Let& post);

  /// Return false to keep `node` and its whole subgraph as they are (not visited).
  virtual bool shouldDescend(const Expr& node);
  /// A node below `node` whose rewritten form replaces `node` too, or null (the default). Asked
  /// once `shouldDescend(node)` holds. Then `node` is neither rebuilt nor handed to a hook, and
  /// of its subgraph only the alias is visited: a rewrite that drops a node for one below it
  /// (an annotation for the value it wraps) builds no copy only to throw it away.
  virtual const ExprNode* aliasOf(const ExprNode& node);
  /// The rewritten form of a node the mutation has already reached.
  const Expr& rewritten(const Expr& pre) const;
  /// The rewritten form of `pre`, or null if the mutation has not finished it yet. The pointer
  /// is valid until the mutation reaches another node.
  const Expr* findRewritten(const Expr& pre) const;

 private:
  NodeMap<Expr> memo_;
};

}  // namespace byoc
