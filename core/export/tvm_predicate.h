#pragma once
/// \file
/// A condition of the rule language (target/predicate.h) as a Python expression over a TVM
/// Relay expression named `expr`, with the meaning the rule has here: paths become `expr.args[i]`,
/// types are read from `checked_type`, attributes from `attrs` (converted to Python values), and
/// equality, `in`, orderings and conditions behave as the rule language defines them (1 == 1.0,
/// True is not 1, orderings compare numbers only, a condition must be True or False) — through
/// small helper functions where plain Python would differ.
///
/// Errors are what the rule language would only report when evaluating: an unknown function, a
/// wrong number of arguments, a path that is not one; `line:column: message`.

#include <set>
#include <string>

#include "support/result.h"
#include "target/predicate.h"

namespace byoc {

/// A condition in Python, and the helper functions it calls.
struct PythonCondition {
  /// One Python expression whose value is True or False.
  std::string text;
  /// Names of the helpers `text` calls (see `pythonConditionHelpers`).
  std::set<std::string> helpers;
};

/// Translates `predicate`.
Result<PythonCondition> predicateAsPython(const Predicate& predicate);

/// The Python definitions of `helpers` and of the helpers they call, in a fixed order, each
/// followed by two blank lines; empty when `helpers` is empty.
std::string pythonConditionHelpers(const std::set<std::string>& helpers);

}  // namespace byoc
