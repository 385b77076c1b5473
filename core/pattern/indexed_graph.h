#pragma once
/// \file
/// The expression graph under a root, indexed in post-DFS order, with use edges and the
/// post-dominator tree: what the matcher's dominator patterns and the grouper's validity
/// checks need.
///
/// Order: the order of `postOrderVisit` (callee, then arguments left to right; function
/// parameters, then body; if: condition, then, else; let: value, variable, body), each node
/// once. The root gets the highest index. A node's post-dominator parent is the lowest common
/// ancestor, in the tree, of all its users; the root and unused nodes have none. Built
/// iteratively: the depth of the expression costs no stack.

#include <unordered_map>
#include <vector>

#include "ir/expr.h"

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
  /// The index of `expr`, or -1 if it is not in the graph.
  int indexOf(const Expr& expr) const;
  /// The direct inputs of node `index` (its children, repeated if used twice).
  const std::vector<int>& inputs(int index) const { return inputs_[index]; }
  /// The users of node `index` (repeated if it is used twice by one node).
  const std::vector<int>& outputs(int index) const { return outputs_[index]; }
  /// The immediate post-dominator of node `index`, or -1.
  int postDominator(int index) const { return postDom_[index]; }
  /// The nodes whose immediate post-dominator is `index`.
  const std::vector<int>& postDominated(int index) const { return postDomChildren_[index]; }
  /// True when `dominator` lies on the post-dominator chain of `node` (or is `node`).
  bool postDominates(int dominator, int node) const;

 private:
  int lowestCommonAncestor(int lhs, int rhs) const;

  std::vector<Expr> nodes_;
  std::unordered_map<const ExprNode*, int> index_;
  std::vector<std::vector<int>> inputs_;
  std::vector<std::vector<int>> outputs_;
  std::vector<int> postDom_;
  std::vector<int> depth_;
  std::vector<std::vector<int>> postDomChildren_;
};

}  // namespace byoc
