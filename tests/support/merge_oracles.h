#pragma once
/// \file
/// The region merging of MergeCompilerRegions and the grouping of MergeCompositeFunctions written
/// the simple way, as TVM writes them: every region or group keeps the whole set of what it must
/// not absorb, the union of all its producers' sets, and merged ids are followed at every read.
/// Quadratic, and obviously the spec (§4.2, §7.2): the oracles the fast versions are checked
/// against.

#include <algorithm>
#include <set>
#include <string>
#include <unordered_set>
#include <vector>

#include "pass/analysis/annotated_region_set.h"

namespace byoc::testing {

/// MergeCompilerRegions' merges, applied to `regions`.
class SimpleRegionMerger {
 public:
  explicit SimpleRegionMerger(AnnotatedRegionSet& regions)
      : regions_(regions), handled_(regions.idCount(), 0), restrictions_(regions.idCount()), mergedInto_(regions.idCount(), -1) {}

  void run() {
    for (const Expr& end : regions_.ends()) {
      AnnotatedRegion* region = regions_.regionOf(end);
      if (!handled_[region->id]) handleWithParentsFirst(*region);
    }
  }

 private:
  std::vector<AnnotatedRegion*> parentsOf(const AnnotatedRegion& region) {
    std::vector<AnnotatedRegion*> parents;
    for (const Expr& begin : region.ins) {
      AnnotatedRegion* parent = regions_.regionOf(begin->as<CallNode>()->args[0]);
      if (parent && parent != &region && std::find(parents.begin(), parents.end(), parent) == parents.end())
        parents.push_back(parent);
    }
    return parents;
  }

  void handleWithParentsFirst(AnnotatedRegion& first) {
    std::vector<AnnotatedRegion*> stack{&first};
    while (!stack.empty()) {
      AnnotatedRegion* region = stack.back();
      if (handled_[region->id]) {
        stack.pop_back();
        continue;
      }
      bool waiting = false;
      for (AnnotatedRegion* parent : parentsOf(*region))
        if (!handled_[parent->id]) {
          stack.push_back(parent);
          waiting = true;
        }
      if (waiting) continue;
      stack.pop_back();
      handle(*region);
    }
  }

  void addRegionsBehindIf(const Expr& value, std::unordered_set<int>& restrictions) {
    std::vector<Expr> pending{value};
    while (!pending.empty()) {
      Expr node = std::move(pending.back());
      pending.pop_back();
      if (const auto* branch = node->as<IfNode>()) pending.insert(pending.end(), {branch->cond, branch->thenBranch, branch->elseBranch});
      else if (const AnnotatedRegion* region = regions_.regionOf(node)) restrictions.insert(region->id);
    }
  }

  void handle(AnnotatedRegion& region) {
    std::vector<AnnotatedRegion*> parents = parentsOf(region);
    std::unordered_set<int> restrictions = canonical(restrictions_[region.id]);
    for (const AnnotatedRegion* parent : parents)
      for (int id : canonical(restrictions_[parent->id])) restrictions.insert(id);
    for (const Expr& begin : region.ins) {
      const Expr& value = begin->as<CallNode>()->args[0];
      if (value->kind() == ExprKind::If && !regions_.regionOf(value)) addRegionsBehindIf(value, restrictions);
    }
    for (AnnotatedRegion* parent : parents) {
      if (parent->target != region.target) {
        restrictions.insert(parent->id);
      } else if (!restrictions.count(parent->id)) {
        regions_.merge(*parent, region);
        mergedInto_[parent->id] = region.id;
      }
    }
    restrictions_[region.id] = std::move(restrictions);
    handled_[region.id] = 1;
  }

  std::unordered_set<int> canonical(const std::unordered_set<int>& ids) const {
    std::unordered_set<int> result;
    for (int id : ids) {
      while (mergedInto_[id] >= 0) id = mergedInto_[id];
      result.insert(id);
    }
    return result;
  }

  AnnotatedRegionSet& regions_;
  std::vector<char> handled_;
  std::vector<std::unordered_set<int>> restrictions_;
  std::vector<int> mergedInto_;
};

/// MergeCompositeFunctions' groups (the argument form of `groupCompositeCalls`): each group keeps
/// every group it depends on, transitively.
inline std::vector<int> simpleCompositeGrouping(const std::vector<std::vector<int>>& operands, const std::vector<std::string>& codegens) {
  std::vector<int> parent;
  std::vector<std::string> codegenOf;
  std::vector<std::set<int>> deps;
  auto find = [&](int group) {
    while (parent[group] != group) group = parent[group];
    return group;
  };
  auto make = [&](const std::string& codegen) {
    parent.push_back(static_cast<int>(parent.size()));
    codegenOf.push_back(codegen);
    deps.emplace_back();
    return parent.back();
  };
  auto depsOf = [&](int group) {
    std::set<int> result;
    for (int dep : deps[find(group)]) result.insert(find(dep));
    return result;
  };
  std::vector<int> groupOf(operands.size());
  for (std::size_t i = 0; i < operands.size(); ++i) {
    std::vector<int> argGroups;
    for (int operand : operands[i]) argGroups.push_back(find(groupOf[operand]));
    std::set<int> reached;
    for (int g : argGroups) {
      std::set<int> more = depsOf(g);
      reached.insert(more.begin(), more.end());
    }
    int group = -1;
    if (!codegens[i].empty()) {
      for (int g : argGroups) {
        if (codegenOf[find(g)] != codegens[i] || reached.count(find(g))) continue;
        if (group < 0) {
          group = find(g);
        } else if (find(g) != group) {
          deps[group].insert(deps[find(g)].begin(), deps[find(g)].end());
          parent[find(g)] = group;
        }
      }
      if (group < 0) group = make(codegens[i]);
    } else {
      group = make("");
    }
    std::set<int> more = reached;
    for (int g : argGroups) more.insert(find(g));
    more.erase(find(group));
    deps[find(group)].insert(more.begin(), more.end());
    groupOf[i] = group;
  }
  for (int& group : groupOf) group = find(group);
  return groupOf;
}

}  // namespace byoc::testing
