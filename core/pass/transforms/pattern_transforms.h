#pragma once
/// \file
/// The two things TVM does with a pattern besides matching, as passes: `rewrite` with a
/// replacement written in the pattern language (pattern/replacement.h), and `pattern.partition()`.
///
/// PatternRewrite. Input: any module. Output: in every global function but external and
/// primitive ones, each match of the pattern replaced by the replacement built from what the
/// pattern's names matched, repeated until nothing changes (pattern/rewrite.h: a bounded number
/// of passes and a bounded growth, errors past either). A rewritten function's return type is
/// inferred anew.
///
/// PatternPartition. Input: any module. Output: in the same functions, every group of the pattern
/// outlined into a function literal with `PartitionedFromPattern` (and no `Composite`), called in
/// place (pattern/partition.h).
///
/// InferType runs after either (function passes).

#include "pass/pass.h"
#include "pattern/replacement.h"

namespace byoc {

/// The pass rewriting every match of `replacement`'s pattern. Its errors start with `source`, where
/// the rewrite was written (a target file's row), when one is given.
PassPtr createPatternRewritePass(Replacement replacement, std::string source = {});

/// The pass outlining every group of `pattern`.
PassPtr createPatternPartitionPass(OwnedPattern pattern);

}  // namespace byoc
