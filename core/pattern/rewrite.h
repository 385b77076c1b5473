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
/// is not run again once it has changed the expression. Reaching 100 callback passes, or growing
/// the expression past `kMaxRewriteGrowth` times its size, is an error, never a crash.

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
/// How much a rewrite may grow what it rewrites: at most this many times its nodes, plus
/// `kRewriteNodeAllowance`. A rule whose replacement holds its own pattern (`nn.relu(x)` →
/// `nn.relu(nn.relu(x))`) doubles the expression each pass; it stops here with an error instead
/// of filling the memory before the pass limit.
inline constexpr std::size_t kMaxRewriteGrowth = 16;
inline constexpr std::size_t kRewriteNodeAllowance = 10000;

}  // namespace byoc
