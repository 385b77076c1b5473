/// \file
/// MergeCompilerRegions: merges adjacent annotated regions of one target, never creating a cycle.
///
/// Input: a typed module annotated by AnnotateTarget (every value on a region boundary wrapped in
/// `compiler_end`/`compiler_begin`). Output: the same annotations, minus every
/// `compiler_begin(compiler_end(x, t), t)` pair whose two ends now lie in one region. Regions only
/// merge with a parent (a region feeding one of their begins) of the same target, and never with a
/// parent they also depend on through a region of another target (spec §4). Run PartitionGraph after.

#include <unordered_set>
#include <vector>

#include "ir/traversal.h"
#include "pass/analysis/annotated_region_set.h"
#include "pass/partition/annotations.h"
#include "pass/partition/partition_passes.h"

namespace byoc {

namespace merge_compiler_regions {

using partitioning::annotationTarget;
using partitioning::isCompilerBegin;
using partitioning::isCompilerEnd;

/// Decides the merges on a region set, handling each region after its parents.
class RegionMerger {
 public:
  explicit RegionMerger(AnnotatedRegionSet& regions)
      : regions_(regions),
        handled_(regions.idCount(), 0),
        restrictions_(regions.idCount()),
        mergedInto_(regions.idCount(), -1) {}

  /// Handles every region, at its first end in post-order.
  void run() {
    for (const Expr& end : regions_.ends()) {
      AnnotatedRegion* region = regions_.regionOf(end);
      if (!handled_[region->id]) handleWithParentsFirst(*region);
    }
  }

 private:
  /// The regions feeding `region`'s begins, each once, in input order.
  std::vector<AnnotatedRegion*> parentsOf(const AnnotatedRegion& region) {
    std::vector<AnnotatedRegion*> parents;
    for (const Expr& begin : region.ins) {
      AnnotatedRegion* parent = regions_.regionOf(begin->as<CallNode>()->args[0]);
      if (parent && parent != &region && std::find(parents.begin(), parents.end(), parent) == parents.end())
        parents.push_back(parent);
    }
    return parents;
  }

  /// Handles `first` after its not-yet-handled ancestors, with an explicit stack.
  void handleWithParentsFirst(AnnotatedRegion& first) {
    std::vector<AnnotatedRegion*> stack{&first};
    while (!stack.empty()) {
      AnnotatedRegion* region = stack.back();
      if (handled_[region->id]) {
        stack.pop_back();
        continue;
      }
      bool waiting = false;
      for (AnnotatedRegion* parent : parentsOf(*region)) {
        if (!handled_[parent->id]) {
          stack.push_back(parent);
          waiting = true;
        }
      }
      if (waiting) continue;
      stack.pop_back();
      handle(*region);
    }
  }

  /// Adds the regions of an If's condition and branches (looking through nested Ifs).
  void addRegionsBehindIf(const Expr& value, std::unordered_set<int>& restrictions) {
    std::vector<Expr> pending{value};
    while (!pending.empty()) {
      Expr node = std::move(pending.back());
      pending.pop_back();
      if (const auto* branch = node->as<IfNode>()) {
        pending.insert(pending.end(), {branch->cond, branch->thenBranch, branch->elseBranch});
      } else if (const AnnotatedRegion* region = regions_.regionOf(node)) {
        restrictions.insert(region->id);
      }
    }
  }

  void handle(AnnotatedRegion& region) {
    std::vector<AnnotatedRegion*> parents = parentsOf(region);
    std::unordered_set<int> restrictions = canonical(restrictions_[region.id]);
    for (const AnnotatedRegion* parent : parents) {
      for (int id : canonical(restrictions_[parent->id])) restrictions.insert(id);
    }
    for (const Expr& begin : region.ins) {
      const Expr& value = begin->as<CallNode>()->args[0];
      if (value->kind() == ExprKind::If && !regions_.regionOf(value)) addRegionsBehindIf(value, restrictions);
    }
    for (AnnotatedRegion* parent : parents) {
      if (parent->target != region.target) {
        restrictions.insert(parent->id);  // region depends on a foreign region
      } else if (!restrictions.count(parent->id)) {
        regions_.merge(*parent, region);
        mergedInto_[parent->id] = region.id;
      }
    }
    restrictions_[region.id] = std::move(restrictions);
    handled_[region.id] = 1;
  }

  /// `ids` with every merged-away region replaced by the region it was merged into.
  std::unordered_set<int> canonical(const std::unordered_set<int>& ids) const {
    std::unordered_set<int> result;
    for (int id : ids) {
      while (mergedInto_[id] >= 0) id = mergedInto_[id];
      result.insert(id);
    }
    return result;
  }

  AnnotatedRegionSet& regions_;
  std::vector<char> handled_;                           ///< by region id
  std::vector<std::unordered_set<int>> restrictions_;  ///< by region id: regions it must not merge with
  std::vector<int> mergedInto_;                         ///< by region id: the region it merged into, or -1
};

/// Drops `begin(end(x))` pairs that now lie inside one region.
class InternalAnnotationRemover final : public ExprMutator {
 public:
  explicit InternalAnnotationRemover(const AnnotatedRegionSet& regions) : regions_(regions) {}

 protected:
  Result<Expr> rewriteCall(const Call& pre, const Call& post) override {
    if (!isCompilerBegin(pre)) return Expr(post);
    const Expr& end = pre->args[0];
    if (!isCompilerEnd(end) || regions_.regionOf(pre) != regions_.regionOf(end)) return Expr(post);
    return post->args[0]->as<CallNode>()->args[0];
  }
  bool shouldDescend(const Expr& node) override { return partitioning::mayHoldAnnotations(*node); }

 private:
  const AnnotatedRegionSet& regions_;
};

Result<Function> mergeRegions(const Function& function, const Module& module, const PassContext& context) {
  BYOC_ASSIGN_OR_RETURN(AnnotatedRegionSet regions, AnnotatedRegionSet::create(function, &context, &module));
  RegionMerger(regions).run();
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
