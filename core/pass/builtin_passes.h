#pragma once
/// \file
/// The built-in passes: the generic transforms and the partitioning passes, registered by name.

#include "pass/registry.h"

namespace byoc {

/// Adds the built-in passes (InferType, FoldConstant, FuseOps, …, MergeComposite, PartitionGraph,
/// …) to `registry`.
void registerBuiltinPasses(PassRegistry& registry);

/// A process-wide registry holding the built-in passes, built on first use.
const PassRegistry& builtinPasses();

}  // namespace byoc
