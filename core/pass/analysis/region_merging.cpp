#include "pass/analysis/region_merging.h"

#include <algorithm>
#include <cstdint>
#include <unordered_set>
#include <vector>

#include "ir/module.h"
#include "ir/traversal.h"
#include "pass/analysis/annotated_region_set.h"
#include "pass/analysis/merge_barriers.h"
#include "pass/partition/annotations.h"

namespace byoc {

namespace {

/// Which regions feed which, looking through values in no region (an If, a tuple left
/// unannotated), by the ids regions had before merging; and the merged groups' members.
class RegionDependencies {
 public:
  explicit RegionDependencies(AnnotatedRegionSet& regions) : regions_(regions), consumers_(regions.idCount()), members_(regions.idCount()) {
    std::vector<int> producers;
    for (AnnotatedRegion* region : regions.regions()) {
      members_[region->id].push_back(region->id);
      producers.clear();
      for (const Expr& begin : region->ins) appendProducers(begin->as<CallNode>()->args[0], producers);
      for (int producer : producers)
        if (producer != region->id) consumers_[producer].push_back(region->id);
    }
  }

  /// `from`'s region has been merged into `into`'s.
  void merged(int from, int into) {
    std::vector<int>& members = members_[into];
    members.insert(members.end(), members_[from].begin(), members_[from].end());
    std::vector<int>().swap(members_[from]);
  }

  /// Whether the regions as merged now depend on one another in a cycle.
  bool formCycle() const {
    const std::vector<AnnotatedRegion*> regions = regions_.regions();
    std::vector<int> incoming(regions_.idCount(), 0);
    std::vector<int> ready;
    for (const AnnotatedRegion* region : regions) forEachConsumer(region->id, [&](int consumer) { ++incoming[consumer]; });
    for (const AnnotatedRegion* region : regions)
      if (incoming[region->id] == 0) ready.push_back(region->id);
    std::size_t sorted = 0;
    while (!ready.empty()) {
      const int region = ready.back();
      ready.pop_back();
      ++sorted;
      forEachConsumer(region, [&](int consumer) {
        if (--incoming[consumer] == 0) ready.push_back(consumer);
      });
    }
    return sorted != regions.size();
  }

  /// Whether region `from` feeds region `to` through some other region (so merging them would
  /// make a cycle).
  bool feedsThroughAnother(int from, int to) const {
    std::vector<char> seen(regions_.idCount(), 0);
    std::vector<int> pending;
    seen[from] = 1;
    forEachConsumer(from, [&](int consumer) {
      if (consumer != to && !seen[consumer]) seen[consumer] = 1, pending.push_back(consumer);
    });
    bool found = false;
    while (!pending.empty() && !found) {
      const int region = pending.back();
      pending.pop_back();
      forEachConsumer(region, [&](int consumer) {
        found = found || consumer == to;
        if (!seen[consumer]) seen[consumer] = 1, pending.push_back(consumer);
      });
    }
    return found;
  }

 private:
  /// Appends to `producers` the regions (as merged) of the values `value` is computed from,
  /// looking through nodes in no region.
  void appendProducers(const Expr& value, std::vector<int>& producers) const {
    if (const AnnotatedRegion* region = regions_.regionOf(value)) {  // the usual case: an end
      producers.push_back(region->id);
      return;
    }
    std::vector<const ExprNode*> pending{value.get()};
    std::unordered_set<const ExprNode*> seen{value.get()};
    while (!pending.empty()) {
      const ExprNode* node = pending.back();
      pending.pop_back();
      if (const AnnotatedRegion* region = regions_.regionOf(Expr(node))) {
        producers.push_back(region->id);
        continue;
      }
      for (int i = 0, count = childCount(*node); i < count; ++i)
        if (const ExprNode* child = childAt(*node, i); partitioning::mayHoldAnnotations(*child) && seen.insert(child).second)
          pending.push_back(child);
    }
  }

  /// Calls `use` with each region (as merged) fed by a member of region `id`, once per edge.
  template <typename Use>
  void forEachConsumer(int id, Use&& use) const {
    for (int member : members_[id])
      for (int consumer : consumers_[member])
        if (const int merged = regions_.withId(consumer).id; merged != id) use(merged);
  }

  AnnotatedRegionSet& regions_;
  std::vector<std::vector<int>> consumers_;  ///< by id before merging
  std::vector<std::vector<int>> members_;    ///< by surviving id: the ids before merging it holds
};

/// Decides the merges on a region set, handling each region after its parents (spec §4.2). The
/// restriction sets are kept by `MergeBarriers`, which drops entries no later region can ask about.
/// Given `dependencies`, a merge that would make a cycle is refused as well.
class RegionMerger {
 public:
  explicit RegionMerger(AnnotatedRegionSet& regions, RegionDependencies* dependencies = nullptr)
      : regions_(regions),
        dependencies_(dependencies),
        handled_(regions.idCount(), 0),
        waiting_(regions.idCount(), 0),
        listedIn_(regions.idCount(), 0),
        barriers_(regions.idCount()) {}

  /// Handles every region, at its first end in post-order; an error (placed in `module`, when
  /// given) when regions feed one another in a cycle.
  Status run(const Module* module) {
    for (AnnotatedRegion* region : regions_.regions())
      for (const Expr& begin : region->ins)
        if (AnnotatedRegion* parent = parentOf(begin, *region))
          barriers_.expectConsumers(parent->id, 1, parent->target == region->target ? 1 : 0);
    for (const Expr& end : regions_.ends()) {
      AnnotatedRegion* region = regions_.regionOf(end);
      if (handled_[region->id]) continue;
      if (const AnnotatedRegion* cyclic = handleWithParentsFirst(*region)) {
        Diagnostic error = makeError("the annotated regions of " + cyclic->target +
                                     " and the regions feeding them depend on one another in a cycle");
        if (auto location = module ? module->locate(cyclic->ins.front()) : std::nullopt) error.location = *location;
        return error;
      }
    }
    return Status::ok();
  }

 private:
  /// The region feeding `begin` of `region`, or null (the value is in no region, or in `region`).
  AnnotatedRegion* parentOf(const Expr& begin, const AnnotatedRegion& region) {
    AnnotatedRegion* parent = regions_.regionOf(begin->as<CallNode>()->args[0]);
    return parent != &region ? parent : nullptr;
  }

  /// The regions feeding `region`'s begins, each once, in input order (a stamp per region keeps
  /// a concatenation of thousands of inputs linear).
  std::vector<AnnotatedRegion*> parentsOf(const AnnotatedRegion& region) {
    std::vector<AnnotatedRegion*> parents;
    ++listing_;
    for (const Expr& begin : region.ins) {
      AnnotatedRegion* parent = parentOf(begin, region);
      if (!parent || listedIn_[parent->id] == listing_) continue;
      listedIn_[parent->id] = listing_;
      parents.push_back(parent);
    }
    return parents;
  }

  /// Handles `first` after its not-yet-handled ancestors, with an explicit stack; returns a
  /// region that is its own ancestor, if any (then nothing more is handled).
  const AnnotatedRegion* handleWithParentsFirst(AnnotatedRegion& first) {
    std::vector<AnnotatedRegion*> stack{&first};
    while (!stack.empty()) {
      AnnotatedRegion* region = stack.back();
      if (handled_[region->id]) {
        stack.pop_back();
        continue;
      }
      if (!waiting_[region->id]) {  // first met: its parents go first
        waiting_[region->id] = 1;
        for (AnnotatedRegion* parent : parentsOf(*region)) {
          if (handled_[parent->id]) continue;
          if (waiting_[parent->id]) return parent;  // an ancestor of itself
          stack.push_back(parent);
        }
        continue;
      }
      stack.pop_back();  // met again: its parents are handled
      handle(*region);
    }
    return nullptr;
  }

  /// The regions of an If's condition and branches (looking through nested Ifs), appended.
  void appendRegionsBehindIf(const Expr& value, std::vector<int>& ids) {
    std::vector<Expr> pending{value};
    while (!pending.empty()) {
      Expr node = std::move(pending.back());
      pending.pop_back();
      if (const auto* branch = node->as<IfNode>()) {
        pending.insert(pending.end(), {branch->cond, branch->thenBranch, branch->elseBranch});
      } else if (const AnnotatedRegion* region = regions_.regionOf(node)) {
        ids.push_back(region->id);
      }
    }
  }

  void handle(AnnotatedRegion& region) {
    const std::vector<AnnotatedRegion*> parents = parentsOf(region);
    std::vector<int> parentIds, behindIfs;
    for (const AnnotatedRegion* parent : parents) parentIds.push_back(parent->id);
    for (const Expr& begin : region.ins) {
      const Expr& value = begin->as<CallNode>()->args[0];
      if (value->kind() == ExprKind::If && !regions_.regionOf(value)) appendRegionsBehindIf(value, behindIfs);
    }
    std::vector<int> restrictions = barriers_.unite(parentIds, behindIfs);
    for (const Expr& begin : region.ins)
      if (const AnnotatedRegion* parent = parentOf(begin, region)) barriers_.consumed(parent->id, parent->target == region.target);
    std::vector<int> foreignParents;
    for (AnnotatedRegion* parent : parents) {
      if (parent->target != region.target) {
        foreignParents.push_back(parent->id);  // region depends on a foreign region
      } else if (!MergeBarriers::contains(restrictions, parent->id) &&
                 !(dependencies_ && dependencies_->feedsThroughAnother(parent->id, region.id))) {
        barriers_.merge(parent->id, region.id);
        if (dependencies_) dependencies_->merged(parent->id, region.id);
        regions_.merge(*parent, region);
      }
    }
    std::sort(foreignParents.begin(), foreignParents.end());
    barriers_.addBarriers(region.id, restrictions);
    barriers_.addBarriers(region.id, foreignParents);
    barriers_.close(region.id);
    handled_[region.id] = 1;
  }

  AnnotatedRegionSet& regions_;
  RegionDependencies* dependencies_;
  std::vector<char> handled_;  ///< by region id
  std::vector<char> waiting_;  ///< by region id: met, its parents first
  std::vector<std::uint64_t> listedIn_;  ///< by region id: the parentsOf call that listed it last
  std::uint64_t listing_ = 0;
  MergeBarriers barriers_;     ///< by region id: the regions each must not merge with
};

}  // namespace

Status mergeRegionsAsTvm(AnnotatedRegionSet& regions, const Module* module) { return RegionMerger(regions).run(module); }

bool regionsFormCycle(AnnotatedRegionSet& regions) { return RegionDependencies(regions).formCycle(); }

Result<AnnotatedRegionSet> mergeCompilerRegions(const Function& function, const PassContext* context, const Module* module) {
  BYOC_ASSIGN_OR_RETURN(AnnotatedRegionSet regions, AnnotatedRegionSet::create(function, context, module));
  BYOC_TRY(mergeRegionsAsTvm(regions, module));
  if (!regionsFormCycle(regions)) return regions;
  // TVM's merges closed a cycle (a region grew after a region it feeds was handled): merge again,
  // refusing each merge that would close one.
  BYOC_ASSIGN_OR_RETURN(AnnotatedRegionSet checked, AnnotatedRegionSet::create(function, context, module));
  RegionDependencies dependencies(checked);
  BYOC_TRY(RegionMerger(checked, &dependencies).run(module));
  if (dependencies.formCycle()) return makeError("the annotated regions depend on one another in a cycle through values in no region");
  return checked;
}

}  // namespace byoc
