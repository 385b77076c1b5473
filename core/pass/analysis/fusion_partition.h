#pragma once
/// \file
/// The grouping analysis behind FuseOps, after TVM's `GraphPartitioner`.
///
/// `buildFusionGraph` indexes the dataflow of one function body in post-DFS order (children
/// before parents, arguments in order), each node with its fusion kind and its output edges;
/// an edge carries the consumer's kind, lowered to elementwise for a broadcast op whose input
/// already has the result's shape. Values that leave the graph (the body's result, bodies of
/// nested functions, control flow, opaque calls) are marked external.
///
/// `partitionForFusion` builds the post-dominator tree and runs TVM's three phases:
///   0. an out-elementwise-fusable node (conv2d, dense) joins its post-dominator when the edge is
///      elementwise and every node on the way is at most broadcast; an elementwise or broadcast
///      node joins a post-dominator reached through elementwise/broadcast/injective nodes;
///   1. injective nodes (and tuples) join their post-dominator through injective nodes;
///   2. injective nodes join intermediate tuples already fused into injective consumers.
/// Opaque nodes always stay alone; a group never exceeds `maxFuseDepth` nodes. At opt level 0
/// every node is its own group. Every step is iterative.

#include <cstddef>
#include <unordered_map>
#include <vector>

#include "ir/expr.h"
#include "ir/op.h"

namespace byoc {

/// One edge: the consumer's index and the kind the consumer imposes on this input.
struct FusionEdge {
  std::size_t node;
  FusionKind kind;
};

/// One node of the fusion graph.
struct FusionNode {
  Expr ref;
  FusionKind kind = FusionKind::Opaque;
  /// True when the value is used outside the graph's dataflow (so it cannot be fused away).
  bool external = false;
  std::vector<FusionEdge> outputs;
};

/// The indexed forward graph of one function body.
struct FusionGraph {
  /// Nodes in post-DFS order.
  std::vector<FusionNode> nodes;
  /// Node → its index in `nodes`. Ops and the insides of primitive or external functions are absent.
  std::unordered_map<const ExprNode*, std::size_t> index;
};

/// Indexes `body` (the body of the function being fused).
FusionGraph buildFusionGraph(const Expr& body);

/// For each node index, the index of the node that represents its group: the group's last node
/// in dataflow order (its root, whose value leaves the group).
std::vector<std::size_t> partitionForFusion(const FusionGraph& graph, int optLevel, int maxFuseDepth);

}  // namespace byoc
