#pragma once
/// \file
/// The pattern tables of targets, parsed once: what MergeComposite and FuseOpsByPattern run.

#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "pattern/pattern.h"
#include "support/result.h"
#include "target/target.h"

namespace byoc {

/// One pattern-table row ready to run.
struct CompositeRule {
  /// The composite name, `<target>.<name>`.
  std::string name;
  Pattern pattern;
  /// Decides on the matched root call; absent means always.
  std::optional<Predicate> check;
  /// Ops every match calls: a function calling none of one of them cannot match.
  std::set<std::string> requiredOps;
};

/// The rows of every target's pattern table, targets in order; an error names a pattern that does
/// not parse.
Result<std::vector<CompositeRule>> compileCompositeRules(const std::vector<std::shared_ptr<const Target>>& targets);

/// The names of the ops `function` calls anywhere (composite bodies included).
std::set<std::string> opsCalledIn(const Expr& function);

/// Whether `rule` may match in a function calling exactly `called`.
bool mayMatch(const CompositeRule& rule, const std::set<std::string>& called);

}  // namespace byoc
