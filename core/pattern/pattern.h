#pragma once
/// \file
/// Dataflow patterns: immutable, reference-counted values describing sub-graphs to find.
///
/// A pattern is a small graph of pattern nodes. Identity matters: a pattern node reached
/// twice in one match must meet the very same expression node both times, so sharing a
/// node (`x = *; add(x, x)`) is how a pattern says "the same value". The kinds are those of
/// TVM's Relay dataflow patterns (wildcard, expression/op, var, constant, call, function,
/// tuple, tuple-get-item, alternative, attribute, type, dtype, shape, dominator, if, let);
/// `optional` is sugar for an alternative.
///
/// The only mutation is `WildcardPatternNode::redirectTo`, which turns a wildcard into a
/// stand-in for another pattern (how recursive patterns are written). A redirect that
/// closes a cycle keeps the nodes of that cycle alive until `clearRedirects` breaks it.

#include <functional>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <vector>

#include "ir/attrs.h"
#include "ir/dtype.h"
#include "ir/expr.h"
#include "ir/type.h"
#include "support/ref.h"

namespace byoc {

/// The kind of a pattern node.
enum class PatternKind : unsigned char {
  Wildcard,
  Expr,
  Var,
  Constant,
  Call,
  Function,
  Tuple,
  TupleGetItem,
  Alt,
  Attr,
  Type,
  DType,
  Shape,
  Dominator,
  If,
  Let,
};

class PatternNode;
/// Handle to a pattern node.
using Pattern = Ref<const PatternNode>;

/// Base of every pattern node. `name` is an optional hint used by the text form.
class PatternNode : public Object {
 public:
  PatternKind kind() const { return kind_; }
  /// The name the text form gives this node (`conv` in `conv = nn.conv2d(*, *); …`), or "".
  const std::string& name() const { return name_; }

  /// Downcast; null when the node is of another kind.
  template <typename T>
  const T* as() const {
    return kind_ == T::kKind ? static_cast<const T*>(this) : nullptr;
  }

 protected:
  PatternNode(PatternKind kind, std::string name) : kind_(kind), name_(std::move(name)) {}

 private:
  PatternKind kind_;
  std::string name_;
};

/// Matches any expression; once redirected, behaves exactly like its target.
class WildcardPatternNode final : public PatternNode {
 public:
  static constexpr PatternKind kKind = PatternKind::Wildcard;
  explicit WildcardPatternNode(std::string name = {}) : PatternNode(kKind, std::move(name)) {}

  /// The pattern this wildcard stands for, or null.
  const Pattern& redirect() const { return redirect_; }
  /// Makes this wildcard behave like `target` (may be a pattern containing this wildcard).
  void redirectTo(Pattern target) const { redirect_ = std::move(target); }

 private:
  mutable Pattern redirect_;
};

/// An expression structurally equal to `expr`; `isOp` builds one holding an op.
class ExprPatternNode final : public PatternNode {
 public:
  static constexpr PatternKind kKind = PatternKind::Expr;
  ExprPatternNode(Expr expr, std::string name) : PatternNode(kKind, std::move(name)), expr(std::move(expr)) {}
  /// The expression to equal (an `Op` for `is_op`).
  const Expr expr;
};

/// Any variable; if `varName` is not empty, the variable's name must equal it.
class VarPatternNode final : public PatternNode {
 public:
  static constexpr PatternKind kKind = PatternKind::Var;
  VarPatternNode(std::string varName, std::string name)
      : PatternNode(kKind, std::move(name)), varName(std::move(varName)) {}
  /// The required variable name, or "" for any variable.
  const std::string varName;
};

/// Any constant.
class ConstantPatternNode final : public PatternNode {
 public:
  static constexpr PatternKind kKind = PatternKind::Constant;
  explicit ConstantPatternNode(std::string name) : PatternNode(kKind, std::move(name)) {}
};

/// A call whose callee matches `callee` and whose arguments match `args` one by one;
/// absent `args` accept any number of arguments.
class CallPatternNode final : public PatternNode {
 public:
  static constexpr PatternKind kKind = PatternKind::Call;
  CallPatternNode(Pattern callee, std::optional<std::vector<Pattern>> args, std::string name)
      : PatternNode(kKind, std::move(name)), callee(std::move(callee)), args(std::move(args)) {}
  /// What the callee must match.
  const Pattern callee;
  /// What each argument must match; absent: any arguments.
  const std::optional<std::vector<Pattern>> args;
};

/// A function literal whose parameters (absent: any parameters) and body match.
class FunctionPatternNode final : public PatternNode {
 public:
  static constexpr PatternKind kKind = PatternKind::Function;
  FunctionPatternNode(std::optional<std::vector<Pattern>> params, Pattern body, std::string name)
      : PatternNode(kKind, std::move(name)), params(std::move(params)), body(std::move(body)) {}
  /// What each parameter must match; absent: any parameters.
  const std::optional<std::vector<Pattern>> params;
  /// What the body must match.
  const Pattern body;
};

/// A tuple whose fields match one by one; absent `fields` accept any tuple.
class TuplePatternNode final : public PatternNode {
 public:
  static constexpr PatternKind kKind = PatternKind::Tuple;
  TuplePatternNode(std::optional<std::vector<Pattern>> fields, std::string name)
      : PatternNode(kKind, std::move(name)), fields(std::move(fields)) {}
  /// What each field must match; absent: any tuple.
  const std::optional<std::vector<Pattern>> fields;
};

/// `tuple.index`; an index of -1 accepts any index.
class TupleGetItemPatternNode final : public PatternNode {
 public:
  static constexpr PatternKind kKind = PatternKind::TupleGetItem;
  TupleGetItemPatternNode(Pattern tuple, int index, std::string name)
      : PatternNode(kKind, std::move(name)), tuple(std::move(tuple)), index(index) {}
  /// What the tuple must match.
  const Pattern tuple;
  /// The required index, or -1 for any.
  const int index;
};

/// `left`, or failing that `right` (greedy: never retried once `left` matched).
class AltPatternNode final : public PatternNode {
 public:
  static constexpr PatternKind kKind = PatternKind::Alt;
  AltPatternNode(Pattern left, Pattern right, std::string name)
      : PatternNode(kKind, std::move(name)), left(std::move(left)), right(std::move(right)) {}
  /// Tried first.
  const Pattern left;
  /// Tried only when `left` fails.
  const Pattern right;
};

/// `pattern`, and the matched op, call or function has the attributes `attrs`.
class AttrPatternNode final : public PatternNode {
 public:
  static constexpr PatternKind kKind = PatternKind::Attr;
  AttrPatternNode(Pattern pattern, Attrs attrs, std::string name)
      : PatternNode(kKind, std::move(name)), pattern(std::move(pattern)), attrs(std::move(attrs)) {}
  /// What must match first.
  const Pattern pattern;
  /// The attributes the matched node must have.
  const Attrs attrs;
};

/// `pattern`, and the checked type is structurally equal to `type`.
class TypePatternNode final : public PatternNode {
 public:
  static constexpr PatternKind kKind = PatternKind::Type;
  TypePatternNode(Pattern pattern, Type type, std::string name)
      : PatternNode(kKind, std::move(name)), pattern(std::move(pattern)), type(std::move(type)) {}
  /// What must also match.
  const Pattern pattern;
  /// The required checked type.
  const Type type;
};

/// `pattern`, and the checked type is a tensor of element type `dtype`.
class DTypePatternNode final : public PatternNode {
 public:
  static constexpr PatternKind kKind = PatternKind::DType;
  DTypePatternNode(Pattern pattern, DType dtype, std::string name)
      : PatternNode(kKind, std::move(name)), pattern(std::move(pattern)), dtype(dtype) {}
  /// What must also match.
  const Pattern pattern;
  /// The required element type.
  const DType dtype;
};

/// `pattern`, and the checked type is a tensor of exactly `shape`.
class ShapePatternNode final : public PatternNode {
 public:
  static constexpr PatternKind kKind = PatternKind::Shape;
  ShapePatternNode(Pattern pattern, Shape shape, std::string name)
      : PatternNode(kKind, std::move(name)), pattern(std::move(pattern)), shape(std::move(shape)) {}
  /// What must also match.
  const Pattern pattern;
  /// The required shape.
  const Shape shape;
};

/// `child` matches, every input on the way up matches `path` until `parent` is reached, and
/// `child` post-dominates a node matching `parent`.
class DominatorPatternNode final : public PatternNode {
 public:
  static constexpr PatternKind kKind = PatternKind::Dominator;
  DominatorPatternNode(Pattern parent, Pattern path, Pattern child, std::string name)
      : PatternNode(kKind, std::move(name)),
        parent(std::move(parent)),
        path(std::move(path)),
        child(std::move(child)) {}
  /// The node the child post-dominates.
  const Pattern parent;
  /// What every node between the parent and the child must match.
  const Pattern path;
  /// The dominating node, where the match is rooted.
  const Pattern child;
};

/// An `if` whose condition and branches match.
class IfPatternNode final : public PatternNode {
 public:
  static constexpr PatternKind kKind = PatternKind::If;
  IfPatternNode(Pattern cond, Pattern thenBranch, Pattern elseBranch, std::string name)
      : PatternNode(kKind, std::move(name)),
        cond(std::move(cond)),
        thenBranch(std::move(thenBranch)),
        elseBranch(std::move(elseBranch)) {}
  /// What the condition must match.
  const Pattern cond;
  /// What the then-branch must match.
  const Pattern thenBranch;
  /// What the else-branch must match.
  const Pattern elseBranch;
};

/// A `let` whose variable, value and body match.
class LetPatternNode final : public PatternNode {
 public:
  static constexpr PatternKind kKind = PatternKind::Let;
  LetPatternNode(Pattern var, Pattern value, Pattern body, std::string name)
      : PatternNode(kKind, std::move(name)), var(std::move(var)), value(std::move(value)), body(std::move(body)) {}
  /// What the bound variable must match.
  const Pattern var;
  /// What the bound value must match.
  const Pattern value;
  /// What the body must match.
  const Pattern body;
};

// ---------------------------------------------------------------------------------------------
// Builders

/// A fresh wildcard (`*`).
Pattern wildcard();
/// An expression pattern (`is_expr`).
Pattern isExpr(Expr expr);
/// The op `name`; the op must be registered (checked: a programming error otherwise).
Pattern isOp(std::string_view name);
/// A variable, optionally with that name.
Pattern isVar(std::string name = {});
/// Any constant.
Pattern isConstant();
/// `callee(args…)`.
Pattern isCall(Pattern callee, std::vector<Pattern> args);
/// `callee(..)`: any number of arguments.
Pattern isCallAnyArgs(Pattern callee);
/// `op(args…)` for a registered op.
Pattern callOp(std::string_view op, std::vector<Pattern> args);
/// A function literal; absent `params` accept any parameters.
Pattern isFunction(std::optional<std::vector<Pattern>> params, Pattern body);
/// A tuple of exactly these fields.
Pattern isTuple(std::vector<Pattern> fields);
/// Any tuple.
Pattern isAnyTuple();
/// `tuple.index`, or any index if -1.
Pattern isTupleGetItem(Pattern tuple, int index = -1);
/// `left | right`.
Pattern alt(Pattern left, Pattern right);
/// `pattern | wrap(pattern)`: `pattern`, optionally followed by what `wrap` builds around it.
Pattern optional(const Pattern& pattern, const std::function<Pattern(const Pattern&)>& wrap);
/// `pattern` with the attributes `attrs`.
Pattern hasAttr(Pattern pattern, Attrs attrs);
/// `pattern` of type `type`.
Pattern hasType(Pattern pattern, Type type);
/// `pattern` of element type `dtype`.
Pattern hasDType(Pattern pattern, DType dtype);
/// `pattern` of shape `shape`.
Pattern hasShape(Pattern pattern, Shape shape);
/// `dominates(parent, path, child)`.
Pattern dominates(Pattern parent, Pattern path, Pattern child);
/// `if (cond) then else`.
Pattern isIf(Pattern cond, Pattern thenBranch, Pattern elseBranch);
/// `let var = value; body`.
Pattern isLet(Pattern var, Pattern value, Pattern body);

/// A copy of `pattern` (same children, same redirect) carrying the name hint `name`.
Pattern withName(const Pattern& pattern, std::string name);

/// The direct sub-patterns of `node`, in the pattern's post-DFS order (callee before
/// arguments, parent/path/child for a dominator, a wildcard's redirect target).
std::vector<Pattern> patternChildren(const PatternNode& node);

/// Every node reachable from `root`, children before parents, each once. A child that is
/// still being visited (a cycle through a redirect) is not entered again.
std::vector<Pattern> patternPostOrder(const Pattern& root);

/// Every node reachable from any of `roots`, in the same order, each once over all of them.
std::vector<Pattern> patternPostOrder(std::span<const Pattern> roots);

/// Clears the redirect of every wildcard reachable from `root`, breaking the reference cycles of
/// recursive patterns so that their nodes can be freed. The pattern is unusable afterwards.
void clearRedirects(const Pattern& root);

/// The ops every match of `pattern` contains (as matched op nodes): a cheap filter — when one
/// of them does not occur in an expression, the pattern matches nowhere in it. Conservative:
/// an alternative requires only what both sides require; a dominator's path requires nothing.
std::set<std::string> requiredOps(const Pattern& pattern);

/// Short name of a pattern kind ("Call", "Wildcard", …), for messages.
const char* patternKindName(PatternKind kind);

/// `lhs | rhs`.
inline Pattern operator|(const Pattern& lhs, const Pattern& rhs) { return alt(lhs, rhs); }

}  // namespace byoc
