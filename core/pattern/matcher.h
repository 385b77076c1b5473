#pragma once
/// \file
/// The dataflow pattern matcher: does a pattern match at an expression, what did each
/// pattern node bind, and, when it does not match, why.
///
/// Rules (TVM's `DFPatternMatcher`):
/// * each `match` starts with an empty memo; a pattern node that matched is bound to that
///   expression node, and meeting the same pattern node again succeeds only on the very same
///   expression node (identity, not structure); a failed sub-match undoes every binding made
///   since it started;
/// * `p | q` tries `q` only when `p` fails on this node; nothing is retried afterwards;
/// * a call matches callee first, then arguments in order (counts equal unless the pattern's
///   arguments are absent); for `add` and `multiply` a failed in-order match is retried with
///   the pattern's arguments reversed; when the callee does not match, `divide(multiply(a, b), c)`
///   may match `multiply(·, divide(·, ·))` and `multiply(divide(a, b), c)` may match
///   `divide(multiply(·, ·), ·)`;
/// * attributes: on an op, keys are op attribute maps (`TOpPattern`: the fusion kind as an
///   integer); on a call, keys are the call's attributes, compared by value; on a function,
///   keys are function attributes; on anything else there is no match;
/// * type, dtype and shape patterns compare the expression's checked type (an untyped
///   expression does not match);
/// * `dominates(parent, path, child)`: `child` matches; every input of the child that is not
///   the callee, a variable or a constant matches `parent` (bound once) or matches `path` and
///   satisfies the same rule; at every step at least one input counts; and a node matching
///   `parent` is post-dominated by the child.
/// * nesting deeper than `kMaxMatchDepth` pattern nodes fails the whole match.
///
/// Failures (recorded only after `setExplain(true)`, as `explainMismatch` does): the first
/// pattern node (innermost) that did not fit and the reason, cleared whenever a later attempt
/// succeeds; an editor shows it as "why did it not match here?".

#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "pattern/indexed_graph.h"
#include "pattern/pattern.h"
#include "support/limits.h"
#include "support/result.h"

namespace byoc {

/// How deeply pattern nodes may nest during one match. The readers accept patterns nesting at
/// most `limits::kMaxNestingDepth` deep, which always fit; a recursive pattern (a redirected
/// wildcard) descends again for each node it matches and gets a few times that room. Past this
/// depth the match fails instead of exhausting the stack.
inline constexpr int kMaxMatchDepth = 4 * limits::kMaxNestingDepth;

/// Pattern node → the expressions it matched, each list in the order it was bound; pattern
/// nodes in the order they were first bound. A match binds a few pattern nodes, so this is a
/// short list searched in order: no hashing, and no allocation per pattern node beyond its list.
class PatternNodeMap {
 public:
  using Entry = std::pair<Pattern, std::vector<Expr>>;
  using iterator = std::vector<Entry>::iterator;
  using const_iterator = std::vector<Entry>::const_iterator;

  iterator find(const Pattern& pattern) {
    return std::find_if(entries_.begin(), entries_.end(), [&](const Entry& entry) { return entry.first == pattern; });
  }
  const_iterator find(const Pattern& pattern) const {
    return std::find_if(entries_.begin(), entries_.end(), [&](const Entry& entry) { return entry.first == pattern; });
  }
  /// The expressions `pattern` matched, which it must have.
  const std::vector<Expr>& at(const Pattern& pattern) const {
    const_iterator found = find(pattern);
    BYOC_CHECK(found != entries_.end(), "PatternNodeMap::at: the pattern node matched nothing");
    return found->second;
  }
  /// The expressions `pattern` matched; an empty list is added when there is none.
  std::vector<Expr>& operator[](const Pattern& pattern) {
    auto found = find(pattern);
    return found != entries_.end() ? found->second : entries_.emplace_back(pattern, std::vector<Expr>()).second;
  }
  void erase(const Pattern& pattern) {
    if (auto found = find(pattern); found != entries_.end()) entries_.erase(found);
  }
  void clear() { entries_.clear(); }
  void reserve(std::size_t count) { entries_.reserve(count); }

  std::size_t size() const { return entries_.size(); }
  bool empty() const { return entries_.empty(); }
  iterator begin() { return entries_.begin(); }
  iterator end() { return entries_.end(); }
  const_iterator begin() const { return entries_.begin(); }
  const_iterator end() const { return entries_.end(); }

 private:
  std::vector<Entry> entries_;
};

/// Why a match failed.
struct MatchFailure {
  /// The pattern node that did not fit.
  Pattern pattern;
  /// The expression it was tried on.
  Expr expr;
  /// What differed: "expected op nn.conv2d, found a call of nn.dense", …
  std::string reason;
};

/// Matches patterns against the nodes of one expression graph.
class PatternMatcher {
 public:
  /// A matcher for nodes of `graph` (which must outlive it). Dominator patterns use the graph.
  explicit PatternMatcher(const IndexedGraph& graph) : graph_(&graph) {}
  /// A matcher that indexes the graph under each expression it is asked to match.
  PatternMatcher() = default;

  /// Whether `pattern` matches at `expr`. Starts from an empty memo.
  bool match(const Pattern& pattern, const Expr& expr);
  /// What each pattern node matched in the last successful `match`.
  const PatternNodeMap& memo() const { return memo_; }
  /// Why the last `match` failed; empty after a success, and always empty unless explaining.
  const std::optional<MatchFailure>& failure() const { return failure_; }
  /// Whether failures are recorded with their reasons (off by default: it costs time).
  void setExplain(bool explain) { explain_ = explain; }
  /// Moves the bindings of the last successful `match` out of the matcher.
  PatternNodeMap takeMemo() {
    PatternNodeMap taken = std::move(memo_);
    memo_.reserve(taken.size());  // the next match of the pattern binds as many nodes
    return taken;
  }

 private:
  bool visit(const Pattern& pattern, const Expr& expr);
  bool visitKind(const Pattern& pattern, const Expr& expr);
  bool visitCall(const Pattern& pattern, const CallPatternNode& call, const Expr& expr);
  bool matchArgs(const Pattern& pattern, const std::vector<Pattern>& args, const CallNode& call);
  bool visitAttr(const Pattern& pattern, const AttrPatternNode& attr, const Expr& expr);
  bool visitDominator(const Pattern& pattern, const DominatorPatternNode& dom, const Expr& expr);
  bool matchesPath(const Pattern& pattern, const DominatorPatternNode& dom, const Expr& expr);
  bool dominatesParent(const DominatorPatternNode& dom, const Expr& expr);
  /// Records the failure (formatting the reason only when explaining) and returns false.
  template <typename Reason>
  bool fail(const Pattern& pattern, const Expr& expr, Reason&& reason) {
    if (explain_ && !failure_) failure_ = MatchFailure{pattern, expr, reason()};
    return false;
  }
  /// The tensor type of `expr`; null after recording why there is none (untyped, or not a tensor).
  const TensorTypeNode* tensorTypeOf(const Pattern& pattern, const Expr& expr);
  void clearTo(std::size_t watermark);
  const IndexedGraph& graph();

  const IndexedGraph* graph_ = nullptr;
  std::unique_ptr<IndexedGraph> ownGraph_;
  Expr root_;
  PatternNodeMap memo_;
  std::vector<Pattern> bound_;  ///< binding order, for rollback
  bool memoize_ = true;
  bool explain_ = false;
  int depth_ = 0;
  bool depthExceeded_ = false;  ///< once set, the whole match fails (no alternative may rescue it)
  std::optional<MatchFailure> failure_;
};

/// Whether `pattern` matches at `expr` (a one-off matcher).
bool matchPattern(const Pattern& pattern, const Expr& expr);

/// Why `pattern` does not match at `expr`, or nothing if it does.
std::optional<MatchFailure> explainMismatch(const Pattern& pattern, const Expr& expr);

/// One line describing an expression node for messages: "a call of nn.conv2d", "variable %x".
std::string describeExpr(const Expr& expr);

}  // namespace byoc
