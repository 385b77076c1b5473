/// \file
/// withOpSupport: one pass over the rules, rebuilding only the rules that name the edited op.

#include "target/rule_edit.h"

#include <algorithm>
#include <iterator>
#include <optional>

#include "ir/op.h"

namespace byoc {

namespace {

std::string trimmed(std::string_view text) {
  const std::size_t begin = text.find_first_not_of(" \t\n");
  if (begin == std::string_view::npos) return {};
  const std::size_t end = text.find_last_not_of(" \t\n");
  return std::string(text.substr(begin, end - begin + 1));
}

/// The text of a rule naming `ops` under `condition` (empty: always).
std::string ruleText(const std::vector<std::string>& ops, const std::string& condition) {
  std::string text;
  for (const std::string& op : ops) text += (text.empty() ? "" : ", ") + op;
  return condition.empty() ? text : text + " when " + condition;
}

std::string conditionOf(const OpRule& rule) { return rule.condition ? trimmed(rule.condition->text()) : std::string(); }

}  // namespace

OpSupport opSupport(const Target& target, std::string_view op) {
  for (const OpRule& rule : target.opRules) {
    if (std::find(rule.ops.begin(), rule.ops.end(), op) != rule.ops.end()) return {true, conditionOf(rule)};
  }
  return {};
}

Result<Target> withOpSupport(const Target& target, std::string_view op, const OpSupport& support) {
  if (!OpRegistry::global().find(std::string(op))) return makeError("unknown op '" + std::string(op) + "'");
  const std::string condition = trimmed(support.condition);
  std::optional<OpRule> own;
  if (support.supported) {
    if (!condition.empty()) BYOC_TRY(Predicate::parse(condition).status());
    BYOC_ASSIGN_OR_RETURN(OpRule rule, parseOpRule(ruleText({std::string(op)}, condition)));
    own = std::move(rule);
  }

  Target edited = target;
  edited.opRules.clear();
  for (const OpRule& rule : target.opRules) {
    if (std::find(rule.ops.begin(), rule.ops.end(), op) == rule.ops.end()) {
      edited.opRules.push_back(rule);
      continue;
    }
    std::vector<std::string> others;
    std::copy_if(rule.ops.begin(), rule.ops.end(), std::back_inserter(others), [op](const std::string& each) { return each != op; });
    if (!others.empty()) {
      // The other ops were parsed before, and so was the condition: the rebuilt rule parses.
      BYOC_ASSIGN_OR_RETURN(OpRule rest, parseOpRule(ruleText(others, conditionOf(rule))));
      edited.opRules.push_back(std::move(rest));
    }
    if (own) {
      edited.opRules.push_back(std::move(*own));
      own.reset();
    }
  }
  if (own) edited.opRules.push_back(std::move(*own));
  return edited;
}

}  // namespace byoc
