#pragma once
/// \file
/// The merge decisions of MergeCompilerRegions (spec §4.2): each region, after its parents,
/// absorbs its parents of the same target unless it also depends on them through another region
/// (or through an If). Regions are handled at their first end in post-order.
///
/// TVM's rule can close a cycle: a region that feeds an already handled region may later be
/// absorbed by a region that depends on that one's consumers (the handled region never learns the
/// new dependency). TVM's PartitionGraph then outlines a function that reads its own output. Here
/// the merge runs as TVM's does and, only when that leaves a cycle, again with every merge that
/// would close one refused, so the result is TVM's wherever TVM's is a valid partitioning.

#include "ir/expr.h"
#include "support/result.h"

namespace byoc {

class AnnotatedRegionSet;
class Module;
class PassContext;

/// The regions of `function` merged as MergeCompilerRegions merges them; an error when the
/// annotations alone already make regions feed themselves, or (with `context`) once cancelled.
Result<AnnotatedRegionSet> mergeCompilerRegions(const Function& function, const PassContext* context = nullptr,
                                                const Module* module = nullptr);

/// TVM's merge decisions applied to `regions`, exactly: they may close a cycle. An error (placed
/// in `module`, when given) when regions already feed one another in a cycle, where TVM recurses
/// without end.
Status mergeRegionsAsTvm(AnnotatedRegionSet& regions, const Module* module = nullptr);

/// Whether regions of `regions` (as merged so far) feed one another in a cycle, looking through
/// values in no region.
bool regionsFormCycle(AnnotatedRegionSet& regions);

}  // namespace byoc
