#pragma once
/// \file
/// OptimizeExternal: a target's optimize hook (TVM's `relay.ext.<target>.optimize`, which
/// PartitionGraph calls on each function it outlines for the target).
///
/// Input: a typed module after PartitionGraph. Output: each function whose `Compiler` is the
/// target, run through the target's pipeline on its own, as the `main` of a module of its own and
/// without its `Compiler`, `Primitive` and `Inline` attributes (function passes skip functions
/// that carry them); the result keeps the function's name and every attribute it had. Other
/// functions are untouched. The module is typed again after it.

#include <string>
#include <vector>

#include "pass/pass.h"

namespace byoc {

/// The pass running `passes` (in order) on each function of `target`.
PassPtr createOptimizeExternalPass(std::string target, std::vector<PassPtr> passes);

}  // namespace byoc
