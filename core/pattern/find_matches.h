#pragma once
/// \file
/// Match listing: every node of an expression at which a pattern matches, with the nodes the
/// match covers (what `byoc match` prints and the pattern editor highlights), and the one-line
/// form of a failed match.
///
/// Unlike the grouper, matches may overlap: each node is tried as a root on its own, in the
/// graph's post-DFS order (inputs first), with a fresh memo.

#include <string>
#include <vector>

#include "ir/expr.h"
#include "pattern/matcher.h"
#include "pattern/pattern.h"

namespace byoc {

/// One place where a pattern matches.
struct PatternMatch {
  /// The node the pattern's root matched.
  Expr root;
  /// Every expression node some pattern node matched (ops left out), de-duplicated, in
  /// post-DFS order.
  std::vector<Expr> nodes;
  /// Those of `nodes` only a plain wildcard (`*`, not redirected) matched: the match's inputs,
  /// not part of what it matched itself; in the same order.
  std::vector<Expr> inputs;
  /// What each pattern node matched.
  PatternNodeMap bindings;
};

/// All nodes under `expr` at which `pattern` matches, in post-DFS order.
std::vector<PatternMatch> findMatches(const Pattern& pattern, const Expr& expr);

/// One line for a failed match: the failing sub-pattern as text, what it met and why
/// ("nn.conv2d at op nn.dense: expected op nn.conv2d, found op nn.dense"); a shared sub-pattern
/// prints as its last line, with the names it uses.
std::string describeMismatch(const MatchFailure& failure);

}  // namespace byoc
