#include "pass/partition/composite_rules.h"

#include <algorithm>

#include "ir/op.h"
#include "ir/traversal.h"
#include "pattern/pattern.h"
#include "pattern/pattern_parser.h"

namespace byoc {

Result<std::vector<CompositeRule>> compileCompositeRules(const std::vector<std::shared_ptr<const Target>>& targets) {
  std::vector<CompositeRule> rules;
  for (const auto& target : targets) {
    for (const PatternEntry& entry : target->patterns) {
      Pattern pattern = entry.compiled;
      if (!pattern) {  // a target built in code rather than loaded
        BYOC_ASSIGN_OR_RETURN(pattern, parsePattern(entry.pattern, target->name + " pattern " + entry.name));
      }
      std::set<std::string> required = requiredOps(pattern);
      rules.push_back({entry.name, std::move(pattern), entry.check, std::move(required)});
    }
  }
  return rules;
}

std::set<std::string> opsCalledIn(const Expr& function) {
  std::set<std::string> ops;
  postOrderVisit(function, [&](const Expr& node) {
    if (const auto* op = node->as<OpNode>()) ops.insert(op->name());
  });
  return ops;
}

bool mayMatch(const CompositeRule& rule, const std::set<std::string>& called) {
  return std::includes(called.begin(), called.end(), rule.requiredOps.begin(), rule.requiredOps.end());
}

}  // namespace byoc
