#include "pattern/required_ops.h"

#include <unordered_set>

#include "ir/op.h"

namespace byoc {

namespace {

/// The sub-patterns every match of `node` also matches.
std::vector<Pattern> mandatoryParts(const PatternNode& node) {
  switch (node.kind()) {
    case PatternKind::Call: {
      const auto& call = *node.as<CallPatternNode>();
      std::vector<Pattern> parts{call.callee};
      if (call.args) parts.insert(parts.end(), call.args->begin(), call.args->end());
      return parts;
    }
    case PatternKind::Function: return {node.as<FunctionPatternNode>()->body};
    case PatternKind::Tuple: {
      const auto& fields = node.as<TuplePatternNode>()->fields;
      return fields ? *fields : std::vector<Pattern>{};
    }
    case PatternKind::TupleGetItem: return {node.as<TupleGetItemPatternNode>()->tuple};
    case PatternKind::Attr: return {node.as<AttrPatternNode>()->pattern};
    case PatternKind::Type: return {node.as<TypePatternNode>()->pattern};
    case PatternKind::DType: return {node.as<DTypePatternNode>()->pattern};
    case PatternKind::Shape: return {node.as<ShapePatternNode>()->pattern};
    case PatternKind::Dominator: {
      const auto& dominator = *node.as<DominatorPatternNode>();
      return {dominator.parent, dominator.child};
    }
    case PatternKind::If: {
      const auto& branch = *node.as<IfPatternNode>();
      return {branch.cond, branch.thenBranch, branch.elseBranch};
    }
    case PatternKind::Let: {
      const auto& let = *node.as<LetPatternNode>();
      return {let.value, let.body};
    }
    default: return {};  // wildcards, vars, constants, and alternatives (either side may match)
  }
}

}  // namespace

std::set<std::string> requiredOps(const Pattern& pattern) {
  std::set<std::string> ops;
  std::unordered_set<const PatternNode*> seen;
  std::vector<Pattern> pending{pattern};
  while (!pending.empty()) {
    Pattern node = std::move(pending.back());
    pending.pop_back();
    if (!seen.insert(node.get()).second) continue;
    if (const auto* expr = node->as<ExprPatternNode>()) {
      if (const auto* op = expr->expr->as<OpNode>()) ops.insert(op->name());
      continue;
    }
    for (Pattern& part : mandatoryParts(*node)) pending.push_back(std::move(part));
  }
  return ops;
}

}  // namespace byoc
