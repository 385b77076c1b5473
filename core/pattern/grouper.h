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
///   that matched) are not inputs. Inputs are de-duplicated and become `%FunctionVar_<g>_<k>`,
///   annotated with the input's checked type when the match's root is typed (in an untyped
///   expression they have no annotation, as in TVM; type inference gives the same types).
/// * Every match found raises the group counter `g`, even when the candidate is then
///   rejected because an interior node already belongs to a group, or because an interior
///   node other than the root has a user outside the match that the root does not
///   post-dominate.
/// * The group's name concatenates, in post-order, `<op>_` per op call, `Call_` per other call,
///   `Tuple_`, `TupleGetItem<i>_`, `Function`, `Let_`, `If_`.

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "pattern/indexed_graph.h"
#include "pattern/matcher.h"
#include "pattern/pattern.h"
#include "support/result.h"

namespace byoc {

/// One accepted match.
struct PatternGroup {
  /// The matched root node, and its index in the grouping's graph.
  Expr root;
  int rootIndex = -1;
  /// What each pattern node matched.
  PatternNodeMap matched;
  /// The inputs, in parameter order, and their indices in the grouping's graph.
  std::vector<Expr> args;
  std::vector<int> argIndices;
  /// The parameters `%FunctionVar_g_0, …` and the matched body over them.
  std::vector<Var> params;
  Expr body;
  /// The union of the origins of the nodes inside the match.
  Origin origin;
  /// The `PartitionedFromPattern` text, e.g. `nn.conv2d_nn.bias_add_nn.relu_`.
  std::string name;
  /// Graph indices of every node inside the match (not the inputs), ops and constants included.
  std::vector<int> nodes;
};

/// The groups of a pattern in an expression.
struct Grouping {
  /// The indexed expression the groups refer to.
  std::shared_ptr<const IndexedGraph> graph;
  std::vector<PatternGroup> groups;
  /// Graph index → index in `groups` for nodes inside an accepted group, else -1.
  std::vector<int> groupOf;

  /// The group whose root is the node at graph index `index`, or null.
  const PatternGroup* rootedAt(int index) const;
};

/// Computes the groups of `pattern` in the graph under `expr`.
Grouping groupMatches(const Pattern& pattern, const Expr& expr);
/// The same over an already indexed expression.
Grouping groupMatches(const Pattern& pattern, std::shared_ptr<const IndexedGraph> graph);

/// What replaces a group root: from the group, the root over its rebuilt inputs (`post`), and the
/// rebuilt nodes by graph index. An error ends the rebuild with it.
using GroupRewrite = std::function<Result<Expr>(const PatternGroup& group, const Expr& post, const std::vector<Expr>& rebuilt)>;

/// Whether a group is replaced; an error ends the rebuild with it.
using GroupFilter = std::function<Result<bool>(const PatternGroup& group)>;

/// Rebuilds the grouping's expression bottom-up, every node over its rebuilt inputs (the very
/// same node when none changed), calling `atRoot` at each group root in post-order.
Result<Expr> rebuildGroups(const Grouping& grouping, const GroupRewrite& atRoot);

/// The same, where `replaces` is asked first, once per group in post-order, whether the group
/// is replaced. Only nodes the result still uses are rebuilt: the inside of a replaced group is
/// skipped unless something outside uses it, and `post` is the original root.
Result<Expr> rebuildGroups(const Grouping& grouping, const GroupRewrite& atRoot, const GroupFilter& replaces);

}  // namespace byoc
