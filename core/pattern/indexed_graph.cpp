#include "pattern/indexed_graph.h"

namespace byoc {

IndexedGraph::IndexedGraph(const Expr& root) {
  struct Frame {
    const ExprNode* node;
    int next;
  };
  std::vector<Frame> stack{{root.get(), 0}};
  index_.emplace(root.get(), -1);  // -1 while the node is on the stack
  inputStart_.push_back(0);
  while (!stack.empty()) {
    Frame& top = stack.back();
    const ExprNode& current = *top.node;
    if (top.next < childCount(current)) {
      const ExprNode* child = childAt(current, top.next++);
      if (index_.emplace(child, -1).second) stack.push_back({child, 0});
      continue;
    }
    const int index = static_cast<int>(nodes_.size());
    *index_.find(&current) = index;
    for (int i = 0, count = childCount(current); i < count; ++i) inputFlat_.push_back(*index_.find(childAt(current, i)));
    inputStart_.push_back(static_cast<int>(inputFlat_.size()));
    nodes_.push_back(Expr(top.node));
    kinds_.push_back(current.kind());
    const auto* call = current.as<CallNode>();
    calleeOps_.push_back(call ? call->callee->as<OpNode>() : nullptr);
    stack.pop_back();
  }
  // Users, by counting.
  const int count = size();
  outputStart_.assign(count + 1, 0);
  for (int input : inputFlat_) ++outputStart_[input + 1];
  for (int i = 0; i < count; ++i) outputStart_[i + 1] += outputStart_[i];
  outputFlat_.resize(inputFlat_.size());
  std::vector<int> fill(outputStart_.begin(), outputStart_.end() - 1);
  for (int user = 0; user < count; ++user)
    for (int input : inputs(user)) outputFlat_[fill[input]++] = user;
}

int IndexedGraph::indexOf(const Expr& expr) const {
  const int* index = index_.find(expr.get());
  return index ? *index : -1;
}

std::span<const int> IndexedGraph::inputs(int index) const {
  return {inputFlat_.data() + inputStart_[index], inputFlat_.data() + inputStart_[index + 1]};
}

std::span<const int> IndexedGraph::outputs(int index) const {
  return {outputFlat_.data() + outputStart_[index], outputFlat_.data() + outputStart_[index + 1]};
}

void IndexedGraph::buildPostDominators() const {
  if (!postDom_.empty() || nodes_.empty()) return;
  const int count = size();
  postDom_.assign(count, -1);
  depth_.assign(count, 1);
  postDomChildren_.assign(count, {});
  // Users always have higher indices, so walking down from the root sees every user's
  // post-dominator before the node itself.
  for (int i = count - 2; i >= 0; --i) {
    std::span<const int> users = outputs(i);
    if (users.empty()) continue;
    int parent = users.front();
    for (std::size_t k = 1; k < users.size() && parent >= 0; ++k) parent = lowestCommonAncestor(parent, users[k]);
    if (parent < 0) continue;
    postDom_[i] = parent;
    depth_[i] = depth_[parent] + 1;
    postDomChildren_[parent].push_back(i);
  }
}

int IndexedGraph::postDominator(int index) const {
  buildPostDominators();
  return postDom_[index];
}

const std::vector<int>& IndexedGraph::postDominated(int index) const {
  buildPostDominators();
  return postDomChildren_[index];
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
  buildPostDominators();
  while (node >= 0 && depth_[node] > depth_[dominator]) node = postDom_[node];
  return node == dominator;
}

}  // namespace byoc
