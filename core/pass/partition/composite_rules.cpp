#include "pass/partition/composite_rules.h"

#include <algorithm>
#include <functional>

#include "ir/function_attrs.h"
#include "ir/op.h"
#include "ir/traversal.h"
#include "pattern/pattern.h"
#include "pattern/root_ops.h"

namespace byoc {

Result<std::vector<CompositeRule>> compileCompositeRules(const std::vector<std::shared_ptr<const Target>>& targets) {
  std::vector<CompositeRule> rules;
  for (const auto& target : targets) {
    for (const PatternEntry& entry : target->patterns) {
      OwnedPattern pattern = entry.compiled;
      const std::string row = "target " + target->name + ", pattern " + entry.name;
      if (!pattern) {  // a target built in code rather than loaded
        BYOC_ASSIGN_OR_RETURN(Pattern parsed, parseTablePattern(entry.pattern, row));
        pattern = OwnedPattern(std::move(parsed));
      }
      if (std::string problem = compositeRootProblem(pattern.get()); !problem.empty())
        return makeError(row + ": " + problem);
      std::set<std::string> required = requiredOps(pattern.get());
      const std::vector<Pattern> parts = patternPostOrder(pattern.get());
      const bool looksIntoFunctions = std::any_of(parts.begin(), parts.end(), [](const Pattern& part) {
        return part->kind() == PatternKind::Function;
      });
      rules.push_back({entry.name, std::move(pattern), entry.check, std::move(required), looksIntoFunctions});
    }
  }
  return rules;
}

CalledOps calledOpsOf(const Function& function) {
  std::set<std::string> anywhere = opsCalledIn(function);
  // Without function literals in the body, there is no composite to leave out.
  if (!function->body->reaches(ExprKind::Function)) return {anywhere, anywhere};
  return {std::move(anywhere), opsCalledOutsideComposites(function)};
}

namespace {

/// The names of the ops called under `root`, without looking into the function literals
/// `skipped` accepts.
std::set<std::string> opsCalledUnder(const Expr& root, const std::function<bool(const FunctionNode&)>& skipped) {
  std::set<std::string> ops;
  postOrderVisit(
      root,
      [&](const Expr& node) {
        if (const auto* op = node->as<OpNode>()) ops.insert(op->name());
      },
      [&](const Expr& node) {
        const auto* literal = node->as<FunctionNode>();
        return !literal || !skipped(*literal);
      });
  return ops;
}

}  // namespace

std::set<std::string> opsCalledIn(const Expr& function) {
  return opsCalledUnder(function, [](const FunctionNode&) { return false; });
}

std::set<std::string> opsCalledOutsideComposites(const Function& function) {
  return opsCalledUnder(function, [&](const FunctionNode& literal) {
    return &literal != function.get() && literal.attrs.contains(attr::kPartitionedFromPattern);
  });
}

bool mayMatch(const CompositeRule& rule, const CalledOps& called) {
  const std::set<std::string>& ops = rule.looksIntoFunctions ? called.anywhere : called.outsideComposites;
  return std::includes(ops.begin(), ops.end(), rule.requiredOps.begin(), rule.requiredOps.end());
}

}  // namespace byoc
