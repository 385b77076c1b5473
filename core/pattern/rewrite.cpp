#include "pattern/rewrite.h"

#include <optional>

#include "ir/structural.h"
#include "ir/traversal.h"
#include "pattern/grouper.h"

namespace byoc {

namespace {

/// One callback pass: rebuilds the expression, handing each group root to the callback.
class CallbackRewriter final : public ExprMutator {
 public:
  CallbackRewriter(const Grouping& grouping, const RewriteCallback& callback)
      : grouping_(grouping), callback_(callback) {}

  /// The first error a callback returned.
  const std::optional<Diagnostic>& error() const { return error_; }

 protected:
  Expr rewrite(const Expr& pre, const Expr& post) override {
    const PatternGroup* group = grouping_.rootedAt(pre);
    if (!group || error_) return post;
    PatternNodeMap nodes;
    for (const auto& [pattern, matches] : group->matched) {
      std::vector<Expr>& translated = nodes[pattern];
      for (const Expr& match : matches) {
        const Expr* now = findRewritten(match);
        translated.push_back(now ? *now : match);
      }
    }
    Result<Expr> replacement = callback_.function(pre, post, nodes);
    if (!replacement) {
      error_ = replacement.error();
      return post;
    }
    return std::move(replacement).value();
  }

 private:
  const Grouping& grouping_;
  const RewriteCallback& callback_;
  std::optional<Diagnostic> error_;
};

}  // namespace

Result<Expr> rewrite(const std::vector<RewriteCallback>& callbacks, const Expr& expr, const ExprTyper& typer) {
  Expr post = expr;
  std::vector<bool> done(callbacks.size(), false);
  int passes = 0;
  bool changed = true;
  while (changed && passes < kMaxRewritePasses) {
    Expr last = post;
    for (std::size_t i = 0; i < callbacks.size(); ++i) {
      if (done[i]) continue;
      const RewriteCallback& callback = callbacks[i];
      if (callback.requireType) {
        if (!typer) return makeError("rewrite: a callback requires types but no type inference was given");
        BYOC_ASSIGN_OR_RETURN(post, typer(post));
      }
      Grouping grouping = groupMatches(callback.pattern, post);
      CallbackRewriter rewriter(grouping, callback);
      Expr next = rewriter.mutate(post);
      if (rewriter.error()) return *rewriter.error();
      if (callback.rewriteOnce && !structuralEqual(next, post)) done[i] = true;
      post = std::move(next);
      ++passes;
    }
    changed = !structuralEqual(last, post);
  }
  if (passes >= kMaxRewritePasses)
    return makeError("rewrite: no fixed point after " + std::to_string(kMaxRewritePasses) +
                     " callback passes (possible conflicting rewrites)");
  return post;
}

}  // namespace byoc
