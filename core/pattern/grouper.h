#pragma once
/// \file
/// The grouper: the non-overlapping matches of one pattern in one expression, as
/// `partition` and `rewrite` use them (TVM's `PatternGrouper`).
///
/// * The expression is indexed (see indexed_graph.h) and candidate roots are visited from the
///   highest index down, so the match nearest the output wins. Skipped as roots: nodes
///   already in a group, and every function carrying `PartitionedFromPattern` with all the
///   nodes of its body.
/// * Inputs of a match (the future parameters): the pattern's nodes are walked in post-DFS
///   order; a leaf pattern (wildcard, var, constant, expression) contributes what it matched,
///   a tuple pattern without fields contributes the tuple's fields and a call pattern without
///   arguments the call's arguments. Ops, functions, the nodes matched by a dominator's parent
///   or path, the nodes of a function matched by a function pattern, and constants matched by
///   `const` or by an expression pattern holding a constant (through alternatives: by the side
///   that matched) are not inputs. Inputs are de-duplicated and become `%FunctionVar_<g>_<k>`.
/// * Every match found raises the group counter `g`, even when the candidate is then
///   rejected because an interior node already belongs to a group, or because an interior
///   node other than the root has a user outside the match that the root does not
///   post-dominate.
/// * The group's name concatenates, in post-order, `<op>_` per op call, `Call_` per other call,
///   `Tuple_`, `TupleGetItem<i>_`, `Function`, `Let_`, `If_`.

#include <string>
#include <unordered_map>
#include <vector>

#include "pattern/matcher.h"
#include "pattern/pattern.h"

namespace byoc {

/// One accepted match.
struct PatternGroup {
  /// The matched root node.
  Expr root;
  /// What each pattern node matched.
  PatternNodeMap matched;
  /// The inputs, in parameter order.
  std::vector<Expr> args;
  /// `fn (%FunctionVar_g_0, …) { matched body over the parameters }`, without attributes.
  Function function;
  /// The `PartitionedFromPattern` text, e.g. `nn.conv2d_nn.bias_add_nn.relu_`.
  std::string name;
  /// Every node inside the match (not the inputs), ops and constants included.
  std::vector<Expr> nodes;
};

/// The groups of a pattern in an expression.
struct Grouping {
  std::vector<PatternGroup> groups;
  /// Node → index in `groups` for every node inside an accepted group.
  std::unordered_map<const ExprNode*, int> groupOf;

  /// The group whose root is `node`, or null.
  const PatternGroup* rootedAt(const Expr& node) const;
};

/// Computes the groups of `pattern` in the graph under `expr`.
Grouping groupMatches(const Pattern& pattern, const Expr& expr);

}  // namespace byoc
