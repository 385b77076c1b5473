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
  std::vector<std::pair<const ExprNode*, bool>> stack = {{root, false}};  // (node, children pushed)
  std::vector<const ExprNode*> children;
  while (!stack.empty()) {
    const auto [node, expanded] = stack.back();
    if (done(node)) {
      stack.pop_back();
      continue;
    }
    if (!expanded) {
      stack.back().second = true;
      children.clear();
      BYOC_TRY(childrenOf(*node, children));
      for (std::size_t i = children.size(); i-- > 0;)
        if (!done(children[i])) stack.emplace_back(children[i], false);
      continue;
    }
    stack.pop_back();
    BYOC_TRY(visit(*node));
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
/// (the node over its already-rewritten children, identical to `pre` if none changed) and
/// calls `rewrite(pre, post)`; what that returns replaces `pre` everywhere. Nodes reachable
/// several times are rewritten once. A mutator object may be used for several roots; the
/// memo is shared between them, so nodes shared between functions are rewritten once.
class ExprMutator {
 public:
  virtual ~ExprMutator() = default;

  /// Rewrites the graph under `root` and returns the new root.
  Expr mutate(const Expr& root);

 protected:
  /// The transform: return `post` to keep the rebuilt node, or any replacement.
  virtual Expr rewrite(const Expr& pre, const Expr& post);
  /// Return false to keep `node` and its whole subgraph as they are (not visited).
  virtual bool shouldDescend(const Expr& node);
  /// The rewritten form of a node the mutation has already reached.
  const Expr& rewritten(const Expr& pre) const;
  /// The rewritten form of `pre`, or null if the mutation has not finished it yet. The pointer
  /// is valid until the mutation reaches another node.
  const Expr* findRewritten(const Expr& pre) const;

 private:
  NodeMap<Expr> memo_;
};

}  // namespace byoc
