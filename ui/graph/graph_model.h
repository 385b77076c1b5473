#pragma once
/// \file
/// The drawable graph of one function: a pure value built from the IR, independent of any view.
///
/// Contract: `GraphModel::build(function)` turns the dataflow of `function` (and of the function
/// literals nested in it) into nodes and edges that a layout engine can place:
/// - every call, tuple, tuple projection and `if` is a node; `let` is transparent (a use of a
///   let-bound variable is an edge from the node computing its value);
/// - an op's constant inputs are lines of the op's detail (`weight ⟨64×3×7×7⟩`, `rhs 0.5`), as
///   Netron draws weights (unless GraphOptions::weightsAsNodes asks for stubs); parameters, other constants, global names and function values are
///   never shared nodes: each consumer gets its own small *stub* node, so that no input fans out
///   across the picture;
/// - a value consumed by more than `kSharedFanOut` nodes reaches its first consumer by an edge and
///   every other one through a stub naming it (a layout engine never sees a wide fan-out);
/// - each nested function literal becomes a *group* holding the nodes of its body; composite
///   functions are groups labelled with their `Composite` name; a let-bound function that calls
///   itself is a *loop* (`loop %while_loop`), and its call of itself is one `LoopBack` node that
///   takes only the values the next iteration changes (an argument passing the parameter of its
///   own position on is named in the node's detail, not drawn as an edge); a literal called
///   where it is written and used nowhere else (a composite after MergeComposite) is drawn
///   *inline*: its group takes the place of the call, its parameters are the call's arguments and
///   the call's users read its body's result, so an outlined function reads like the model it
///   came from;
/// - the nodes and groups that only one branch of an `if` uses (every use of them leads to the
///   `if` through that branch) go into a *branch group* labelled `then` or `else`, nested where
///   the `if` is; what the condition, the other branch or anything after the `if` also uses
///   stays outside;
/// - with a provenance table, source-model node names written as scopes
///   (`/layer1/layer1.0/conv1/Conv`) become nested *scope groups* (`layer1` ⊃ `layer1.0` ⊃ `conv1`)
///   inside the node's function group; stubs join their consumer's group;
/// - in a graph of more than `kCollapseAbove` nodes, a level (the function's top level or a group)
///   with more than `kBlockMembers` members (nodes and groups) is cut into *synthesized blocks*
///   found from the graph itself (see findBlocks: runs of the build order cut where the fewest
///   edges cross, nested until each level is small), each a group labelled by its first and last
///   op and holding a histogram of its ops; name scopes stay the first level when present.
/// Node ids are dense indices in build order (producers before consumers). The build is iterative.

#include <QString>
#include <QStringList>
#include <unordered_map>
#include <vector>

#include "ir/expr.h"
#include "ir/module.h"

namespace byoc::ui {

/// What a graph node draws.
enum class GraphNodeKind : unsigned char {
  Op,        ///< A call of a primitive op.
  Call,      ///< A call of a function (global, let-bound, or a literal such as a composite).
  Tuple,     ///< `(a, b, …)`.
  Project,   ///< `t.i`.
  If,        ///< `if (c) { … } else { … }`.
  Stub,      ///< A per-consumer copy of a parameter, constant, global or shared value.
  LoopBack,  ///< A loop's call of itself: the start of its next iteration.
};

/// One node of the drawing.
struct GraphNode {
  int id = 0;
  GraphNodeKind kind = GraphNodeKind::Op;
  /// Main label: op name, callee name, `tuple`, `.1`, `if`, `↻ %loop` for a loop's call of
  /// itself, or the stub's name.
  QString title;
  /// Secondary label: attributes that differ from their defaults and constant inputs, one per
  /// line; or a stub's type.
  QString detail;
  /// The expression drawn (for a stub: the parameter, constant or producer it stands for).
  Expr expr;
  /// The innermost group containing the node, or -1.
  int group = -1;
  /// For a stub of a shared value: the node it stands for, else -1.
  int stubOf = -1;
};

/// One edge, from a producer to the consumer's input `port`.
struct GraphEdge {
  int from = 0;
  int to = 0;
  int port = 0;
  /// The tensor shape carried, e.g. `1×32×56×56` (`1×32×56×56 uint8` for another dtype than
  /// float32), or empty when the type is unknown.
  QString label;
};

/// A nested function drawn as a box around its body's nodes.
struct GraphGroup {
  int id = 0;
  /// The enclosing group, or -1.
  int parent = -1;
  /// `Composite` name, or the name the function is bound to (`loop %name` for a loop), or `fn`;
  /// `then` or `else` for a branch.
  QString label;
  /// True for functions with a `Composite` attribute.
  bool composite = false;
  /// The function literal; null for a name scope.
  Function function;
  /// Nodes directly in this group (not in nested ones).
  std::vector<int> nodes;
  /// Nodes in this group and in the groups nested in it: what its collapsed box counts.
  int allNodes = 0;
  /// True for a block found from the graph's shape, not from the IR or the source's names.
  bool synthesized = false;
  /// What the group's collapsed box shows under its label; empty: its number of nodes.
  QString detail;
  /// True for a function that calls itself (a loop).
  bool loop = false;
  /// For a `then`/`else` box: the `if` node whose branch it holds, else -1.
  int branchOf = -1;
};

/// Choices of how a graph is drawn.
struct GraphOptions {
  /// Draw an op's constant inputs as stub nodes of their own instead of lines of its box.
  bool weightsAsNodes = false;
};

/// Limit above which a shared value reaches its consumers through stubs.
inline constexpr int kSharedFanOut = 6;
/// Graphs with more nodes than this open with their groups collapsed, and have synthesized blocks.
inline constexpr int kCollapseAbove = 1500;
/// Most members (nodes and groups) of one level of a large graph before it is cut into blocks.
inline constexpr int kBlockMembers = 64;

/// The graph of one function.
class GraphModel {
 public:
  /// Builds the graph of `function`; `name` is kept for views (`main`). `provenance` (may be
  /// null) supplies source-model node names for scope groups.
  static GraphModel build(const Function& function, const QString& name = {}, const Provenance* provenance = nullptr,
                          GraphOptions options = {});
  const GraphOptions& options() const { return options_; }

  const QString& name() const { return name_; }
  /// The function the graph draws.
  const Function& function() const { return function_; }
  const std::vector<GraphNode>& nodes() const { return nodes_; }
  const std::vector<GraphEdge>& edges() const { return edges_; }
  const std::vector<GraphGroup>& groups() const { return groups_; }

  /// The non-stub node drawing `expr`, or -1.
  int nodeOf(const ExprNode* expr) const;
  /// Non-stub nodes whose expression's origin contains `id`.
  std::vector<int> nodesWithOrigin(NodeId id) const;
  /// Ids of the edges entering `node` (by port) and leaving it.
  std::vector<int> inEdges(int node) const;
  std::vector<int> outEdges(int node) const;

  /// One line per node, edge and group, for tests and debugging.
  QString dump() const;

 private:
  friend class GraphBuilder;
  QString name_;
  GraphOptions options_;
  Function function_;
  std::vector<GraphNode> nodes_;
  std::vector<GraphEdge> edges_;
  std::vector<GraphGroup> groups_;
  std::unordered_map<const ExprNode*, int> nodeOfExpr_;
  std::unordered_map<NodeId, std::vector<int>> nodesOfOrigin_;
  std::vector<std::vector<int>> inEdges_;
  std::vector<std::vector<int>> outEdges_;
};

/// `1×32×56×56` for a float32 tensor type, `1×32×56×56 uint8` for another dtype, `(…, …)` for
/// tuples, the dtype for scalars, empty when null.
QString shapeLabel(const Type& type);
/// Attributes of `call` that differ from the op's defaults, as `name=value` pairs.
QStringList keyAttributes(const CallNode& call);

}  // namespace byoc::ui
