#pragma once
/// \file
/// `rewrite`: replace every group of a pattern by what a callback builds, to a fixed point
/// (TVM's `rewrite` with `DFPatternCallback`s).
///
/// Each round runs the callbacks in list order. One callback pass computes the groups of its
/// pattern (grouper.h: same non-overlap and escaping rules as `partition`), then rebuilds the
/// expression bottom-up; at each group root the callback gets `pre` (the original root),
/// `post` (the root over already-rewritten inputs) and the node map (each pattern node → what
/// it matched, translated to rewritten nodes), and what it returns replaces the root. Rounds
/// repeat while the expression still changes (structurally). A callback marked `rewriteOnce`
/// is not run again once it has changed the expression. Reaching 100 callback passes is an
/// error ("possible conflicting rewrites"), never a crash.

#include <functional>
#include <vector>

#include "ir/expr.h"
#include "pattern/matcher.h"
#include "pattern/pattern.h"
#include "support/result.h"

namespace byoc {

/// One rewrite rule.
struct RewriteCallback {
  /// Builds the replacement of a group root; an error stops the rewrite.
  using Function = std::function<Result<Expr>(const Expr& pre, const Expr& post, const PatternNodeMap& nodes)>;

  Pattern pattern;
  Function function;
  /// Type the expression (with `typer`) before each pass of this callback.
  bool requireType = false;
  /// Stop applying this callback after the first pass that changed the expression.
  bool rewriteOnce = false;
};

/// Types an expression for callbacks with `requireType`.
using ExprTyper = std::function<Result<Expr>(const Expr&)>;

/// Applies `callbacks` to `expr` until nothing changes. `typer` is required if any callback
/// has `requireType`.
Result<Expr> rewrite(const std::vector<RewriteCallback>& callbacks, const Expr& expr, const ExprTyper& typer = {});

/// The number of callback passes after which `rewrite` gives up.
inline constexpr int kMaxRewritePasses = 100;

}  // namespace byoc
