#pragma once
/// \file
/// What can be known of a condition (target/predicate.h) before it is ever evaluated, checked when
/// a target is loaded rather than when AnnotateTarget or MergeComposite first runs it.

#include <span>
#include <string>

#include "support/result.h"
#include "target/predicate.h"

namespace byoc {

/// Checks that every function of `predicate` exists and gets the arguments it takes, that paths
/// are paths, that `and`, `or`, `not`, `if`, comparisons and `in` get values of the kinds they
/// need, and that the whole is a condition. With `ops` (the ops the call may be), a bare attribute
/// name and `attr(self, "name")` must name an attribute of every one of them. Errors are
/// `line:column: …` at the offending sub-expression, worded as the evaluator's.
Status checkPredicate(const Predicate& predicate, std::span<const std::string> ops = {});

}  // namespace byoc
