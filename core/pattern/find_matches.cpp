#include "pattern/find_matches.h"

#include <algorithm>
#include <unordered_set>

#include "pattern/indexed_graph.h"
#include "pattern/pattern_printer.h"

namespace byoc {

std::vector<PatternMatch> findMatches(const Pattern& pattern, const Expr& expr) {
  IndexedGraph graph(expr);
  PatternMatcher matcher(graph);
  std::vector<PatternMatch> matches;
  for (int index = 0; index < graph.size(); ++index) {
    const Expr& candidate = graph.node(index);
    if (!matcher.match(pattern, candidate)) continue;
    PatternMatch match{candidate, {}, {}, matcher.memo()};
    std::unordered_set<const ExprNode*> seen;
    std::unordered_set<const ExprNode*> body;  // matched by something other than a plain wildcard
    std::vector<std::pair<int, Expr>> ordered;
    for (const auto& [node, exprs] : match.bindings) {
      const auto* wildcard = node->as<WildcardPatternNode>();
      const bool input = wildcard && !wildcard->redirect();
      for (const Expr& bound : exprs) {
        if (bound->kind() == ExprKind::Op) continue;
        if (!input) body.insert(bound.get());
        if (seen.insert(bound.get()).second) ordered.emplace_back(graph.indexOf(bound), bound);
      }
    }
    std::sort(ordered.begin(), ordered.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    for (auto& [position, bound] : ordered) {
      if (!body.count(bound.get())) match.inputs.push_back(bound);
      match.nodes.push_back(std::move(bound));
    }
    matches.push_back(std::move(match));
  }
  return matches;
}

std::string describeMismatch(const MatchFailure& failure) {
  std::string text = printPattern(failure.pattern);
  if (std::size_t cut = text.rfind('\n'); cut != std::string::npos) text = text.substr(cut + 1);
  return text + " at " + describeExpr(failure.expr) + ": " + failure.reason;
}

}  // namespace byoc
