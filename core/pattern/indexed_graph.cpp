#include "pattern/indexed_graph.h"

#include <cstdint>

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

std::size_t IndexedGraph::NodeIndex::slotOf(const ExprNode* key) const {
  auto bits = reinterpret_cast<std::uintptr_t>(key);
  bits ^= bits >> 17;
  bits *= 0x9E3779B97F4A7C15ull;
  return (bits >> 7) & (slots_.size() - 1);
}

void IndexedGraph::NodeIndex::grow() {
  std::vector<std::pair<const ExprNode*, int>> old(slots_.size() * 2, {nullptr, -1});
  old.swap(slots_);
  for (const auto& entry : old) {
    if (!entry.first) continue;
    std::size_t slot = slotOf(entry.first);
    while (slots_[slot].first) slot = (slot + 1) & (slots_.size() - 1);
    slots_[slot] = entry;
  }
}

int& IndexedGraph::NodeIndex::findOrInsert(const ExprNode* key, bool& inserted) {
  if (2 * (used_ + 1) > slots_.size()) grow();
  std::size_t slot = slotOf(key);
  while (slots_[slot].first && slots_[slot].first != key) slot = (slot + 1) & (slots_.size() - 1);
  inserted = !slots_[slot].first;
  if (inserted) {
    slots_[slot] = {key, -1};
    ++used_;
  }
  return slots_[slot].second;
}

int IndexedGraph::NodeIndex::find(const ExprNode* key) const {
  std::size_t slot = slotOf(key);
  while (slots_[slot].first) {
    if (slots_[slot].first == key) return slots_[slot].second;
    slot = (slot + 1) & (slots_.size() - 1);
  }
  return -1;
}

IndexedGraph::IndexedGraph(const Expr& root) {
  struct Frame {
    const ExprNode* node;
    int next;
  };
  std::vector<Frame> stack{{root.get(), 0}};
  bool inserted = false;
  index_.findOrInsert(root.get(), inserted);
  inputStart_.push_back(0);
  while (!stack.empty()) {
    Frame& top = stack.back();
    const ExprNode& current = *top.node;
    if (top.next < childCount(current)) {
      const ExprNode* child = childAt(current, top.next++);
      index_.findOrInsert(child, inserted);
      if (inserted) stack.push_back({child, 0});
      continue;
    }
    const int index = static_cast<int>(nodes_.size());
    index_.findOrInsert(&current, inserted) = index;
    for (int i = 0, count = childCount(current); i < count; ++i) inputFlat_.push_back(index_.find(childAt(current, i)));
    inputStart_.push_back(static_cast<int>(inputFlat_.size()));
    nodes_.push_back(Expr(top.node));
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

int IndexedGraph::indexOf(const Expr& expr) const { return index_.find(expr.get()); }

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
