#include "pattern/indexed_graph.h"

#include "ir/traversal.h"

namespace byoc {

IndexedGraph::IndexedGraph(const Expr& root) {
  postOrderVisit(root, [this](const Expr& node) {
    index_.emplace(node.get(), static_cast<int>(nodes_.size()));
    nodes_.push_back(node);
  });
  const int count = size();
  inputs_.resize(count);
  outputs_.resize(count);
  for (int i = 0; i < count; ++i) {
    for (const Expr& child : childrenOf(*nodes_[i])) {
      int input = index_.at(child.get());
      inputs_[i].push_back(input);
      outputs_[input].push_back(i);
    }
  }
  // Users always have higher indices, so walking down from the root sees every user's
  // post-dominator before the node itself.
  postDom_.assign(count, -1);
  depth_.assign(count, 1);
  postDomChildren_.resize(count);
  for (int i = count - 1; i >= 0; --i) {
    if (i == count - 1 || outputs_[i].empty()) continue;
    int parent = outputs_[i].front();
    for (std::size_t k = 1; k < outputs_[i].size() && parent >= 0; ++k)
      parent = lowestCommonAncestor(parent, outputs_[i][k]);
    if (parent < 0) continue;
    postDom_[i] = parent;
    depth_[i] = depth_[parent] + 1;
    postDomChildren_[parent].push_back(i);
  }
}

int IndexedGraph::indexOf(const Expr& expr) const {
  auto it = index_.find(expr.get());
  return it == index_.end() ? -1 : it->second;
}

int IndexedGraph::lowestCommonAncestor(int lhs, int rhs) const {
  while (lhs != rhs) {
    if (lhs < 0 || rhs < 0) return -1;
    if (depth_[lhs] < depth_[rhs]) {
      rhs = postDom_[rhs];
    } else if (depth_[lhs] > depth_[rhs]) {
      lhs = postDom_[lhs];
    } else {
      lhs = postDom_[lhs];
      rhs = postDom_[rhs];
    }
  }
  return lhs;
}

bool IndexedGraph::postDominates(int dominator, int node) const {
  while (node >= 0 && depth_[node] > depth_[dominator]) node = postDom_[node];
  return node == dominator;
}

}  // namespace byoc
