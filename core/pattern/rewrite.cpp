#include "pattern/rewrite.h"

#include "ir/structural.h"
#include "ir/traversal.h"
#include "pattern/grouper.h"

namespace byoc {

namespace {

/// One callback pass: rebuilds the expression, handing each group root to the callback.
Result<Expr> applyOnce(const RewriteCallback& callback, const Expr& expr) {
  Grouping grouping = groupMatches(callback.pattern, expr);
  if (grouping.groups.empty()) return expr;
  const IndexedGraph& graph = *grouping.graph;
  auto replace = [&](const PatternGroup& group, const Expr& post, const std::vector<Expr>& rebuilt) -> Result<Expr> {
    PatternNodeMap nodes;
    for (const auto& [pattern, matches] : group.matched) {
      std::vector<Expr>& translated = nodes[pattern];
      for (const Expr& match : matches) {
        const int at = graph.indexOf(match);
        translated.push_back(at >= 0 && rebuilt[at] ? rebuilt[at] : match);
      }
    }
    return callback.function(group.root, post, nodes);
  };
  return rebuildGroups(grouping, replace);
}

std::size_t nodeCount(const Expr& expr) {
  std::size_t count = 0;
  postOrderVisit(expr, [&count](const Expr&) { ++count; });
  return count;
}

}  // namespace

Result<Expr> rewrite(const std::vector<RewriteCallback>& callbacks, const Expr& expr, const ExprTyper& typer) {
  Expr post = expr;
  std::vector<bool> done(callbacks.size(), false);
  int passes = 0;
  bool changed = true;
  const std::size_t maxNodes = nodeCount(expr) * kMaxRewriteGrowth + kRewriteNodeAllowance;
  while (changed && passes < kMaxRewritePasses) {
    Expr last = post;
    for (std::size_t i = 0; i < callbacks.size(); ++i) {
      if (done[i]) continue;
      const RewriteCallback& callback = callbacks[i];
      if (callback.requireType) {
        if (!typer) return makeError("rewrite: a callback requires types but no type inference was given");
        BYOC_ASSIGN_OR_RETURN(post, typer(post));
      }
      BYOC_ASSIGN_OR_RETURN(Expr next, applyOnce(callback, post));
      if (callback.rewriteOnce && !structuralEqual(next, post)) done[i] = true;
      post = std::move(next);
      ++passes;
      if (const std::size_t nodes = nodeCount(post); nodes > maxNodes)
        return makeError("rewrite: the expression grew to " + std::to_string(nodes) + " nodes after " + std::to_string(passes) +
                         " callback passes, more than " + std::to_string(kMaxRewriteGrowth) +
                         " times its size (does a replacement hold its own pattern?)");
    }
    changed = !structuralEqual(last, post);
  }
  if (passes >= kMaxRewritePasses)
    return makeError("rewrite: no fixed point after " + std::to_string(kMaxRewritePasses) +
                     " callback passes (possible conflicting rewrites)");
  return post;
}

}  // namespace byoc
