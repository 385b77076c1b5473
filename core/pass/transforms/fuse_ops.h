#pragma once
/// \file
/// FuseOps: groups ops by fusion kind and outlines each group as a function with `Primitive=1`.
///
/// Input: a typed module (requires InferType). Output: in every function, each group found by
/// `partitionForFusion` (see analysis/fusion_partition.h) becomes a call of a local function
/// `fn (%p0, %p1, …, Primitive=1) { … }` whose parameters are the group's inputs in the order
/// TVM allocates them (first use while walking the group from its result, arguments in order);
/// scalar constants fused into a group stay inside it. At `fuse_opt_level=0` every op call is
/// its own group; `-1` (the default) means the context's opt level. The config key
/// `relay.FuseOps.max_depth` (default 256) caps the ops of one group. Primitive and external
/// functions are left alone; InferType runs after it. New nodes take the union of the origins
/// of the nodes they group.

#include "pass/registry.h"

namespace byoc {

/// `function` with its ops fused at `optLevel`; the same node if it holds no op call.
Function fuseOps(const Function& function, int optLevel, int maxFuseDepth = 256);

/// The pass; `fuseOptLevel` -1 uses the context's opt level.
PassPtr createFuseOpsPass(int fuseOptLevel = -1);

/// Metadata and factory for the registry.
PassRegistration fuseOpsRegistration();

}  // namespace byoc
