#pragma once
/// \file
/// The expression graph under a root, indexed in post-DFS order, with use edges and the
/// post-dominator tree: what the grouper, the matcher's dominator patterns and the rebuild
/// of partition and rewrite need.
///
/// Order: the order of `postOrderVisit` (callee, then arguments left to right; function
/// parameters, then body; if: condition, then, else; let: value, variable, body), each node
/// once. The root gets the highest index. A node's post-dominator parent is the lowest common
/// ancestor, in the tree, of all its users; the root and unused nodes have none (the tree is
/// built on first use). Everything is iterative: the depth of the expression costs no stack.

#include <span>
#include <utility>
#include <vector>

#include "ir/expr.h"
#include "ir/node_map.h"
#include "ir/traversal.h"

namespace byoc {

/// Post-DFS indexed expression graph with users and post-dominators.
class IndexedGraph {
 public:
  /// Indexes every node reachable from `root`.
  explicit IndexedGraph(const Expr& root);

  /// Number of nodes.
  int size() const { return static_cast<int>(nodes_.size()); }
  /// The node at `index`.
  const Expr& node(int index) const { return nodes_[index]; }
  /// The kind of the node at `index` (without reading the node).
  ExprKind kind(int index) const { return kinds_[index]; }
  /// The op the node at `index` calls, or null when it is not a call of an op.
  const OpNode* calleeOp(int index) const { return calleeOps_[index]; }
  /// The index of `expr`, or -1 if it is not in the graph.
  int indexOf(const Expr& expr) const;
  /// The direct inputs of node `index`, in child order (repeated if used twice).
  std::span<const int> inputs(int index) const;
  /// The users of node `index` (repeated if one node uses it twice).
  std::span<const int> outputs(int index) const;
  /// The immediate post-dominator of node `index`, or -1.
  int postDominator(int index) const;
  /// The nodes whose immediate post-dominator is `index`.
  const std::vector<int>& postDominated(int index) const;
  /// True when `dominator` lies on the post-dominator chain of `node` (or is `node`).
  bool postDominates(int dominator, int node) const;

 private:
  void buildPostDominators() const;
  int lowestCommonAncestor(int lhs, int rhs) const;

  std::vector<Expr> nodes_;
  std::vector<ExprKind> kinds_;
  std::vector<const OpNode*> calleeOps_;
  NodeMap<int> index_;  ///< node address → index
  std::vector<int> inputStart_;  ///< inputs of i: inputFlat_[inputStart_[i] .. inputStart_[i + 1])
  std::vector<int> inputFlat_;
  std::vector<int> outputStart_;
  std::vector<int> outputFlat_;
  mutable std::vector<int> postDom_;
  mutable std::vector<int> depth_;
  mutable std::vector<std::vector<int>> postDomChildren_;
};

}  // namespace byoc
