/// \file
/// Fusion graph, post-dominator tree and the grouping phases (contract in the header).

#include "pass/analysis/fusion_partition.h"

#include <algorithm>

#include "ir/traversal.h"
#include "pass/analysis/function_utils.h"

namespace byoc {

namespace fusion {

// --- The indexed forward graph --------------------------------------------------------------

/// Scalar constants of the common dtypes are free to fuse; other constants stay outside.
FusionKind constantKind(const ConstantNode& constant) {
  DType dtype = constant.data.dtype();
  bool simple = dtype == DType::Int32 || dtype == DType::Int64 || dtype == DType::Float32 || dtype == DType::Float64;
  return simple && constant.data.isScalar() ? FusionKind::Elementwise : FusionKind::Opaque;
}

bool onlyTensors(const Type& type) {
  const auto* tuple = type ? type->as<TupleTypeNode>() : nullptr;
  if (!tuple) return false;
  for (const Type& field : tuple->fields)
    if (!field || !field->as<TensorTypeNode>()) return false;
  return true;
}

bool sameShape(const Type& lhs, const Type& rhs) {
  const auto* a = lhs ? lhs->as<TensorTypeNode>() : nullptr;
  const auto* b = rhs ? rhs->as<TensorTypeNode>() : nullptr;
  return a && b && a->shape == b->shape;
}

class GraphBuilder {
 public:
  FusionGraph build(const Expr& body) {
    visitPostOrder(body);
    markExternal(body);
    return std::move(graph_);
  }

 private:
  /// Post-order with an explicit stack, not entering primitive or external functions.
  void visitPostOrder(const Expr& root) {
    struct Frame {
      Expr node;
      bool expanded;
    };
    std::vector<Frame> stack{{root, false}};
    while (!stack.empty()) {
      Frame& top = stack.back();
      if (graph_.index.count(top.node.get()) || top.node->kind() == ExprKind::Op) {
        stack.pop_back();
        continue;
      }
      if (!top.expanded && !isOpaqueFunction(top.node)) {
        top.expanded = true;
        std::vector<Expr> children = childrenOf(*top.node);
        for (auto it = children.rbegin(); it != children.rend(); ++it) stack.push_back({*it, false});
        continue;
      }
      Expr node = std::move(top.node);
      stack.pop_back();
      if (graph_.index.count(node.get())) continue;
      addNode(node);
    }
  }

  static bool isOpaqueFunction(const Expr& node) {
    const auto* function = node->as<FunctionNode>();
    return function && isPrimitiveOrExternal(*function);
  }

  void addNode(const Expr& node) {
    std::size_t index = graph_.nodes.size();
    graph_.nodes.push_back({node, FusionKind::Opaque, false, {}});
    graph_.index.emplace(node.get(), index);
    switch (node->kind()) {
      case ExprKind::Constant:
        graph_.nodes[index].kind = constantKind(*node->as<ConstantNode>());
        break;
      case ExprKind::Call: {
        const auto& call = *node->as<CallNode>();
        const OpDef* def = call.opDef();
        if (!def) {
          edge(call.callee, index, FusionKind::Opaque);
          for (const Expr& arg : call.args) edge(arg, index, FusionKind::Opaque);
          break;
        }
        graph_.nodes[index].kind = def->fusion;
        for (const Expr& arg : call.args) {
          FusionKind kind = def->fusion;
          if (kind == FusionKind::Broadcast && sameShape(arg->type(), node->type())) kind = FusionKind::Elementwise;
          edge(arg, index, kind);
        }
        break;
      }
      case ExprKind::Tuple: {
        const auto& tuple = *node->as<TupleNode>();
        bool fusable = onlyTensors(node->type());
        graph_.nodes[index].kind = FusionKind::Tuple;
        for (const Expr& field : tuple.fields) {
          if (fusable) edge(field, index, FusionKind::Injective);
          else markExternal(field);
        }
        break;
      }
      case ExprKind::TupleGetItem: {
        const auto& item = *node->as<TupleGetItemNode>();
        if (onlyTensors(item.tuple->type())) {
          graph_.nodes[index].kind = FusionKind::Injective;
          edge(item.tuple, index, FusionKind::Injective);
        } else {
          markExternal(item.tuple);
        }
        break;
      }
      default:  // functions, if, let: their parts are used outside the dataflow
        if (!isOpaqueFunction(node))
          for (const Expr& child : childrenOf(*node)) markExternal(child);
        break;
    }
  }

  void edge(const Expr& from, std::size_t to, FusionKind kind) {
    auto it = graph_.index.find(from.get());
    if (it != graph_.index.end()) graph_.nodes[it->second].outputs.push_back({to, kind});
  }

  void markExternal(const Expr& node) {
    auto it = graph_.index.find(node.get());
    if (it != graph_.index.end()) graph_.nodes[it->second].external = true;
  }

  FusionGraph graph_;
};

// --- Post-dominator tree --------------------------------------------------------------------

constexpr std::size_t kNone = static_cast<std::size_t>(-1);

FusionKind combine(FusionKind lhs, FusionKind rhs) { return std::max(lhs, rhs); }

struct DomNode {
  std::size_t parent = kNone;
  int depth = 1;
  /// The most restrictive edge kind on the way to the parent.
  FusionKind kind = FusionKind::Elementwise;
};

std::vector<DomNode> postDominators(const FusionGraph& graph) {
  std::vector<DomNode> tree(graph.nodes.size());
  auto lca = [&tree](std::size_t lhs, std::size_t rhs, FusionKind& kind) {
    while (lhs != rhs) {
      if (lhs == kNone || rhs == kNone) return kNone;
      if (tree[lhs].depth < tree[rhs].depth) {
        kind = combine(kind, tree[rhs].kind);
        rhs = tree[rhs].parent;
      } else if (tree[rhs].depth < tree[lhs].depth) {
        kind = combine(kind, tree[lhs].kind);
        lhs = tree[lhs].parent;
      } else {
        kind = combine(kind, combine(tree[lhs].kind, tree[rhs].kind));
        lhs = tree[lhs].parent;
        rhs = tree[rhs].parent;
      }
    }
    return lhs;
  };
  for (std::size_t i = graph.nodes.size(); i-- > 0;) {
    const FusionNode& node = graph.nodes[i];
    DomNode& dom = tree[i];
    if (node.external || node.outputs.empty()) {
      dom = {kNone, 1, FusionKind::Opaque};
      continue;
    }
    FusionKind kind = FusionKind::Elementwise;
    std::size_t parent = node.outputs[0].node;
    kind = combine(kind, node.outputs[0].kind);
    for (std::size_t k = 1; k < node.outputs.size(); ++k) {
      parent = lca(parent, node.outputs[k].node, kind);
      kind = combine(kind, node.outputs[k].kind);
    }
    dom = {parent, parent == kNone ? 1 : tree[parent].depth + 1, kind};
  }
  return tree;
}

// --- Grouping -------------------------------------------------------------------------------

class Partitioner {
 public:
  Partitioner(const FusionGraph& graph, int maxFuseDepth)
      : graph_(graph), maxFuseDepth_(static_cast<std::size_t>(std::max(maxFuseDepth, 1))),
        groups_(graph.nodes.size()), visited_(graph.nodes.size(), 0) {
    for (std::size_t i = 0; i < groups_.size(); ++i) {
      groups_[i].kind = graph.nodes[i].kind;
      groups_[i].anchor = graph.nodes[i].kind == FusionKind::OutElementwiseFusable;
    }
  }

  void run(int phase, const std::vector<DomNode>& tree) {
    for (std::size_t nid = 0; nid < groups_.size(); ++nid) fuseNode(nid, tree[nid], phase);
  }

  std::vector<std::size_t> roots() {
    std::vector<std::size_t> result(groups_.size());
    for (std::size_t i = 0; i < groups_.size(); ++i) result[i] = findRoot(i);
    return result;
  }

 private:
  struct Group {
    std::size_t parent = kNone;
    FusionKind kind = FusionKind::Opaque;
    bool anchor = false;
    std::size_t size = 1;
  };

  void fuseNode(std::size_t nid, const DomNode& dom, int phase) {
    const Group& group = groups_[nid];
    if (group.kind == FusionKind::Opaque || dom.parent == kNone) return;
    std::size_t parent = dom.parent;
    if (countWithNewChild(nid, parent) > maxFuseDepth_) return;

    if (phase == 2) {
      if (group.kind > FusionKind::Injective) return;
      const Group& parentGroup = groups_[parent];
      const Group& parentRoot = groups_[findRoot(parent)];
      if (parentRoot.kind == FusionKind::Tuple) return;
      if (parentGroup.kind == FusionKind::Tuple && parentRoot.kind <= FusionKind::Injective) {
        if (checkPath(nid, parent, [](FusionKind kind, bool) { return kind <= FusionKind::Injective; }))
          commitFuse(nid, parent);
      }
      return;
    }
    if (findRoot(nid) == findRoot(parent)) return;
    if (groups_[parent].kind == FusionKind::Tuple) return;

    if (group.kind == FusionKind::OutElementwiseFusable) {
      if (phase != 0 || dom.kind != FusionKind::Elementwise) return;
      if (checkPath(nid, parent, [](FusionKind kind, bool) { return kind <= FusionKind::Broadcast; }))
        commitFuse(nid, parent);
    } else if (group.kind <= FusionKind::Broadcast) {
      if (dom.kind > FusionKind::Injective && dom.kind != FusionKind::CommReduce) return;
      auto condition = [](FusionKind kind, bool isSink) {
        if (!isSink) return kind <= FusionKind::Injective;
        return kind <= FusionKind::Broadcast || kind == FusionKind::CommReduce || kind == FusionKind::Injective ||
               kind == FusionKind::OutElementwiseFusable;
      };
      if (checkPath(nid, parent, condition)) commitFuse(nid, parent);
    } else if (group.kind == FusionKind::Injective || group.kind == FusionKind::Tuple) {
      if (phase != 1) return;
      if (checkPath(nid, parent, [](FusionKind kind, bool) { return kind <= FusionKind::Injective; }))
        commitFuse(nid, parent);
    }
  }

  std::size_t findRoot(std::size_t group) {
    std::size_t root = group;
    while (groups_[root].parent != kNone) root = groups_[root].parent;
    while (groups_[group].parent != kNone) {  // path compression
      std::size_t next = groups_[group].parent;
      groups_[group].parent = root;
      group = next;
    }
    return root;
  }

  void mergeInto(std::size_t child, std::size_t parent) {
    child = findRoot(child);
    parent = findRoot(parent);
    if (child == parent) return;
    groups_[parent].size += groups_[child].size;
    groups_[child].parent = parent;
    if (groups_[child].anchor) {
      groups_[parent].anchor = true;
      groups_[parent].kind = combine(groups_[child].kind, groups_[parent].kind);
    }
  }

  /// Calls `step(node)` once for every node reachable from `src`'s outputs up to (not past) `sink`;
  /// stops early when `step` returns false.
  template <typename Step>
  bool walkUpTo(std::size_t src, std::size_t sink, Step step) {
    ++epoch_;
    std::vector<std::size_t> stack;
    for (const FusionEdge& edge : graph_.nodes[src].outputs) stack.push_back(edge.node);
    while (!stack.empty()) {
      std::size_t node = stack.back();
      stack.pop_back();
      if (visited_[node] == epoch_) continue;
      visited_[node] = epoch_;
      if (!step(node)) return false;
      if (node == sink) continue;
      for (const FusionEdge& edge : graph_.nodes[node].outputs) stack.push_back(edge.node);
    }
    return true;
  }

  template <typename Condition>
  bool checkPath(std::size_t src, std::size_t sink, Condition condition) {
    return walkUpTo(src, sink, [&](std::size_t node) { return condition(groups_[findRoot(node)].kind, node == sink); });
  }

  void commitFuse(std::size_t src, std::size_t sink) {
    mergeInto(src, sink);
    walkUpTo(src, sink, [&](std::size_t node) {
      if (node != sink) mergeInto(node, sink);
      return true;
    });
  }

  std::size_t countWithNewChild(std::size_t child, std::size_t parent) {
    std::size_t count = groups_[findRoot(parent)].size + groups_[child].size;
    walkUpTo(child, parent, [&](std::size_t node) {
      if (node != parent) count += groups_[node].size;
      return true;
    });
    return count;
  }

  const FusionGraph& graph_;
  std::size_t maxFuseDepth_;
  std::vector<Group> groups_;
  std::vector<std::size_t> visited_;
  std::size_t epoch_ = 0;
};

}  // namespace fusion

FusionGraph buildFusionGraph(const Expr& body) { return fusion::GraphBuilder().build(body); }

std::vector<std::size_t> partitionForFusion(const FusionGraph& graph, int optLevel, int maxFuseDepth) {
  fusion::Partitioner partitioner(graph, maxFuseDepth);
  if (optLevel > 0) {
    std::vector<fusion::DomNode> tree = fusion::postDominators(graph);
    for (int phase = 0; phase < 3; ++phase) partitioner.run(phase, tree);
  }
  return partitioner.roots();
}

}  // namespace byoc
