#pragma once
/// \file
/// The pattern tables of targets, parsed once: what MergeComposite and FuseOpsByPattern run.

#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "pattern/owned_pattern.h"
#include "support/result.h"
#include "target/target.h"

namespace byoc {

/// One pattern-table row ready to run.
struct CompositeRule {
  /// The composite name, `<target>.<name>`.
  std::string name;
  OwnedPattern pattern;
  /// Decides on the matched root call; absent means always.
  std::optional<Predicate> check;
  /// Ops every match calls: a function calling none of one of them cannot match.
  std::set<std::string> requiredOps;
  /// Whether the pattern has a function pattern, the one kind that matches inside a function
  /// literal (a composite included); other patterns only see calls outside composites.
  bool looksIntoFunctions = false;
};

/// The rows of every target's pattern table, targets in order; an error names a pattern that does
/// not parse.
Result<std::vector<CompositeRule>> compileCompositeRules(const std::vector<std::shared_ptr<const Target>>& targets);

/// The ops a function calls, for deciding which rules may match in it.
struct CalledOps {
  /// Called anywhere, composite bodies included.
  std::set<std::string> anywhere;
  /// Called outside the composites (function literals made by an earlier pattern).
  std::set<std::string> outsideComposites;
};

/// The ops `function` calls, anywhere and outside its composites.
CalledOps calledOpsOf(const Function& function);
/// The names of the ops `function` calls anywhere (composite bodies included).
std::set<std::string> opsCalledIn(const Expr& function);
/// The names of the ops `function` calls outside its composites.
std::set<std::string> opsCalledOutsideComposites(const Function& function);

/// Whether `rule` may match in a function calling `called`.
bool mayMatch(const CompositeRule& rule, const CalledOps& called);

}  // namespace byoc
