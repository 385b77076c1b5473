/// \file
/// MergeCompilerRegions: merges adjacent annotated regions of one target, never creating a cycle.
///
/// Input: a typed module annotated by AnnotateTarget (every value on a region boundary wrapped in
/// `compiler_end`/`compiler_begin`). Output: the same annotations, minus every
/// `compiler_begin(compiler_end(x, t), t)` pair whose two ends now lie in one region. Regions only
/// merge with a parent (a region feeding one of their begins) of the same target, and never with a
/// parent they also depend on through a region of another target (spec §4); where TVM's merge order
/// would close a cycle, the merges that close one are refused (pass/analysis/region_merging.h).
/// Run PartitionGraph after.

#include "ir/traversal.h"
#include "pass/analysis/annotated_region_set.h"
#include "pass/analysis/region_merging.h"
#include "pass/partition/annotations.h"
#include "pass/partition/partition_passes.h"

namespace byoc {

namespace merge_compiler_regions {

using partitioning::isCompilerBegin;
using partitioning::isCompilerEnd;

/// Drops `begin(end(x))` pairs that now lie inside one region.
class InternalAnnotationRemover final : public ExprMutator {
 public:
  explicit InternalAnnotationRemover(const AnnotatedRegionSet& regions) : regions_(regions) {}

 protected:
  /// A begin of an end of its own region stands for the value the end wraps.
  const ExprNode* aliasOf(const ExprNode& node) override {
    const Expr begin(&node);
    if (!isCompilerBegin(begin)) return nullptr;
    const Expr& end = node.as<CallNode>()->args[0];
    if (!isCompilerEnd(end) || regions_.regionOf(begin) != regions_.regionOf(end)) return nullptr;
    return end->as<CallNode>()->args[0].get();
  }
  bool shouldDescend(const Expr& node) override { return partitioning::mayHoldAnnotations(*node); }

 private:
  const AnnotatedRegionSet& regions_;
};

Result<Function> mergeRegions(const Function& function, const Module& module, const PassContext& context) {
  BYOC_ASSIGN_OR_RETURN(AnnotatedRegionSet regions, mergeCompilerRegions(function, &context, &module));
  BYOC_TRY(context.checkCancelled());
  InternalAnnotationRemover remover(regions);
  BYOC_ASSIGN_OR_RETURN(Expr merged, remover.mutate(function));
  return downcast<FunctionNode>(merged);
}

}  // namespace merge_compiler_regions

PassPtr createMergeCompilerRegionsPass() {
  PassInfo info;
  info.name = "MergeCompilerRegions";
  info.summary = "merges adjacent annotated regions of the same target where no cycle results";
  info.description = "Input: a module annotated by AnnotateTarget. Regions merge with parents of the same target unless "
                     "they also depend on them through another target; annotations inside a merged region go. "
                     "Run PartitionGraph next.";
  return makeFunctionPass(std::move(info), [](const Function& function, const Module& module, PassContext& context) {
    return merge_compiler_regions::mergeRegions(function, module, context);
  });
}

}  // namespace byoc
