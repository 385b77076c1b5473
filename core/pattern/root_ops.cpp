#include "pattern/root_ops.h"

#include <unordered_set>

namespace byoc {

namespace {

/// The pattern an attribute, type, dtype, shape or dominator node constrains: its root is that
/// pattern's root.
const PatternNode* constrained(const PatternNode& node) {
  switch (node.kind()) {
    case PatternKind::Attr: return node.as<AttrPatternNode>()->pattern.get();
    case PatternKind::Type: return node.as<TypePatternNode>()->pattern.get();
    case PatternKind::DType: return node.as<DTypePatternNode>()->pattern.get();
    case PatternKind::Shape: return node.as<ShapePatternNode>()->pattern.get();
    case PatternKind::Dominator: return node.as<DominatorPatternNode>()->child.get();
    default: return nullptr;
  }
}

}  // namespace

std::optional<std::vector<std::string>> rootOps(const Pattern& pattern) {
  // A recursive pattern redirects a wildcard to a pattern around it: give up after a few steps.
  constexpr int kMaxSteps = 64;
  std::vector<std::string> ops;
  std::vector<const PatternNode*> pending{pattern.get()};
  for (int steps = 0; !pending.empty(); ++steps) {
    if (steps == kMaxSteps) return std::nullopt;
    const PatternNode& node = *pending.back();
    pending.pop_back();
    switch (node.kind()) {
      case PatternKind::Call: {
        const auto* callee = node.as<CallPatternNode>()->callee->as<ExprPatternNode>();
        const OpNode* op = callee ? callee->expr->as<OpNode>() : nullptr;
        if (!op) return std::nullopt;
        ops.push_back(op->name());
        // The matcher's limited associativity matches each of these at a call of the other.
        if (op->name() == "multiply") ops.emplace_back("divide");
        if (op->name() == "divide") ops.emplace_back("multiply");
        break;
      }
      case PatternKind::Alt: {
        const auto& either = *node.as<AltPatternNode>();
        pending.insert(pending.end(), {either.left.get(), either.right.get()});
        break;
      }
      case PatternKind::Attr:
      case PatternKind::Type:
      case PatternKind::DType:
      case PatternKind::Shape:
      case PatternKind::Dominator: pending.push_back(constrained(node)); break;
      case PatternKind::Wildcard: {
        const Pattern& target = node.as<WildcardPatternNode>()->redirect();
        if (!target) return std::nullopt;
        pending.push_back(target.get());
        break;
      }
      default: return std::nullopt;  // the root is not an op call, or may be anything
    }
  }
  return ops;
}

namespace {

/// What a leaf pattern node matches, in words.
std::string loneValue(const PatternNode& node) {
  if (node.kind() == PatternKind::Var) return "a variable";
  if (node.kind() == PatternKind::Constant) return "a constant";
  const Expr& expr = node.as<ExprPatternNode>()->expr;
  if (const auto* op = expr->as<OpNode>()) return "the op " + op->name() + " itself (not a call of it)";
  if (const auto* global = expr->as<GlobalVarNode>()) return "the global function @" + global->name;
  return "a literal";
}

}  // namespace

std::string compositeRootProblem(const Pattern& pattern) {
  std::unordered_set<const PatternNode*> seen;
  std::vector<const PatternNode*> pending{pattern.get()};
  while (!pending.empty()) {
    const PatternNode& node = *pending.back();
    pending.pop_back();
    if (!seen.insert(&node).second)
      return "the pattern refers to itself before it matches anything";
    switch (node.kind()) {
      case PatternKind::Call:
      case PatternKind::Tuple:
      case PatternKind::TupleGetItem:
      case PatternKind::If:
      case PatternKind::Let: break;
      case PatternKind::Alt: {
        const auto& either = *node.as<AltPatternNode>();
        pending.insert(pending.end(), {either.right.get(), either.left.get()});
        break;
      }
      case PatternKind::Attr:
      case PatternKind::Type:
      case PatternKind::DType:
      case PatternKind::Shape:
      case PatternKind::Dominator: pending.push_back(constrained(node)); break;
      case PatternKind::Wildcard: {
        const Pattern& target = node.as<WildcardPatternNode>()->redirect();
        if (!target) return "the pattern's root may match any value, which would become a composite of no operation";
        pending.push_back(target.get());
        break;
      }
      case PatternKind::Function:
        return "the pattern's root may match a function literal, which nothing would call";
      default: return "the pattern's root may match " + loneValue(node) + ", which would become a composite of no operation";
    }
  }
  return "";
}

}  // namespace byoc
