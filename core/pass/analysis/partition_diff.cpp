#include "pass/analysis/partition_diff.h"

#include <algorithm>
#include <numeric>
#include <set>
#include <unordered_map>

namespace byoc {

namespace {

/// A named set of loaded op calls: a region or a composite literal of one side.
struct Member {
  std::string name;
  std::vector<NodeId> calls;  ///< ascending
};

/// The members of one side keyed by what tells them apart, in the order first met.
class Members {
 public:
  void add(const std::string& key, const std::string& name, NodeId id) {
    auto [slot, added] = index_.try_emplace(key, members_.size());
    if (added) members_.push_back({name, {}});
    std::vector<NodeId>& calls = members_[slot->second].calls;
    if (calls.empty() || calls.back() != id) calls.push_back(id);
  }
  std::vector<Member> take() && { return std::move(members_); }

 private:
  std::unordered_map<std::string, std::size_t> index_;
  std::vector<Member> members_;
};

/// The regions and composite literals of one side, over the loaded op calls only.
struct Side {
  std::vector<Member> regions;
  std::vector<Member> composites;
};

Side collectSide(const PlacementMap& placements, const std::map<NodeId, std::string>& loadedCalls) {
  Members regions, composites;
  // Ids ascend in a std::map, so each member's calls come out ascending.
  for (const auto& [id, pieces] : placements) {
    if (!loadedCalls.contains(id)) continue;
    for (const Placement& piece : pieces) {
      if (piece.offloaded()) regions.add(piece.function, piece.function, id);
      if (piece.compositeInstance) composites.add(std::to_string(piece.compositeInstance), piece.composite, id);
    }
  }
  return {std::move(regions).take(), std::move(composites).take()};
}

/// Members of A and of B that share calls, directly or through others: indices into each side.
struct OverlapGroup {
  std::vector<std::size_t> a;
  std::vector<std::size_t> b;
};

/// Union-find over the members of both sides (A's first), joined by shared calls.
std::vector<OverlapGroup> overlapGroups(const std::vector<Member>& a, const std::vector<Member>& b) {
  std::vector<std::size_t> parent(a.size() + b.size());
  std::iota(parent.begin(), parent.end(), std::size_t{0});
  auto root = [&](std::size_t item) {
    while (parent[item] != item) item = parent[item] = parent[parent[item]];
    return item;
  };
  std::unordered_map<NodeId, std::size_t> firstHolder;
  auto join = [&](const std::vector<Member>& side, std::size_t offset) {
    for (std::size_t i = 0; i < side.size(); ++i)
      for (NodeId id : side[i].calls) {
        auto [holder, added] = firstHolder.try_emplace(id, offset + i);
        if (!added) parent[root(offset + i)] = root(holder->second);
      }
  };
  join(a, 0);
  join(b, a.size());

  std::vector<OverlapGroup> groups;
  std::unordered_map<std::size_t, std::size_t> groupOfRoot;
  for (std::size_t item = 0; item < parent.size(); ++item) {
    auto [slot, added] = groupOfRoot.try_emplace(root(item), groups.size());
    if (added) groups.emplace_back();
    if (item < a.size()) groups[slot->second].a.push_back(item);
    else groups[slot->second].b.push_back(item - a.size());
  }
  return groups;
}

std::vector<std::string> namesOf(const std::vector<Member>& side, const std::vector<std::size_t>& indices) {
  std::vector<std::string> names;
  for (std::size_t i : indices) names.push_back(side[i].name);
  return names;
}

std::size_t callCount(const std::vector<Member>& side, const std::vector<std::size_t>& indices) {
  std::size_t count = 0;
  for (std::size_t i : indices) count += side[i].calls.size();
  return count;
}

/// True when the group is one member on each side holding the same calls (and, when
/// `sameNameToo`, of the same name).
bool unchanged(const OverlapGroup& group, const std::vector<Member>& a, const std::vector<Member>& b, bool sameNameToo) {
  if (group.a.size() != 1 || group.b.size() != 1) return false;
  const Member& left = a[group.a[0]];
  const Member& right = b[group.b[0]];
  return left.calls == right.calls && (!sameNameToo || left.name == right.name);
}

RegionChange classify(const OverlapGroup& group) {
  if (group.b.empty()) return RegionChange::OnlyInA;
  if (group.a.empty()) return RegionChange::OnlyInB;
  if (group.a.size() == 1 && group.b.size() == 1) return RegionChange::Resized;
  if (group.a.size() == 1) return RegionChange::SplitInB;
  if (group.b.size() == 1) return RegionChange::MergedInB;
  return RegionChange::Regrouped;
}

/// Every call any member of the group holds, ascending.
std::vector<NodeId> groupCalls(const OverlapGroup& group, const std::vector<Member>& a, const std::vector<Member>& b) {
  std::set<NodeId> calls;
  for (std::size_t i : group.a) calls.insert(a[i].calls.begin(), a[i].calls.end());
  for (std::size_t i : group.b) calls.insert(b[i].calls.begin(), b[i].calls.end());
  return {calls.begin(), calls.end()};
}

std::vector<RegionDifference> regionDifferences(const std::vector<Member>& a, const std::vector<Member>& b) {
  std::vector<RegionDifference> differences;
  for (const OverlapGroup& group : overlapGroups(a, b)) {
    if (unchanged(group, a, b, /*sameNameToo=*/false)) continue;
    differences.push_back({classify(group), namesOf(a, group.a), namesOf(b, group.b), callCount(a, group.a), callCount(b, group.b),
                           groupCalls(group, a, b)});
  }
  return differences;
}

std::vector<CompositeDifference> compositeDifferences(const std::vector<Member>& a, const std::vector<Member>& b) {
  std::vector<CompositeDifference> differences;
  for (const OverlapGroup& group : overlapGroups(a, b)) {
    if (unchanged(group, a, b, /*sameNameToo=*/true)) continue;
    differences.push_back({namesOf(a, group.a), namesOf(b, group.b), groupCalls(group, a, b)});
  }
  return differences;
}

std::string joinedNames(const std::vector<std::string>& names) {
  if (names.empty()) return "-";
  std::string text;
  for (const std::string& name : names) text += (text.empty() ? "" : " + ") + name;
  return text;
}

}  // namespace

std::string placementSummary(const std::vector<Placement>& pieces) {
  if (pieces.empty()) return "folded";
  std::set<std::string> where;
  for (const Placement& piece : pieces) where.insert(piece.offloaded() ? piece.compiler : "host");
  std::string text;
  for (const std::string& name : where) text += (text.empty() ? "" : "+") + name;
  return text;
}

std::string regionChangeName(RegionChange change) {
  switch (change) {
    case RegionChange::OnlyInA: return "only in A";
    case RegionChange::OnlyInB: return "only in B";
    case RegionChange::SplitInB: return "split in B";
    case RegionChange::MergedInB: return "merged in B";
    case RegionChange::Resized: return "resized";
    case RegionChange::Regrouped: return "regrouped";
  }
  return "";
}

PartitionDiff comparePartitionings(const Module& loaded, const Module& a, const Module& b) {
  const std::map<NodeId, std::string> loadedCalls = loadedOpCalls(loaded);
  const PlacementMap placedA = placeOpCalls(a);
  const PlacementMap placedB = placeOpCalls(b);

  PartitionDiff diff;
  diff.comparedCalls = loadedCalls.size();
  static const std::vector<Placement> kNowhere;
  auto piecesOf = [](const PlacementMap& placed, NodeId id) -> const std::vector<Placement>& {
    auto found = placed.find(id);
    return found == placed.end() ? kNowhere : found->second;
  };
  for (const auto& [id, op] : loadedCalls) {
    std::string left = placementSummary(piecesOf(placedA, id));
    std::string right = placementSummary(piecesOf(placedB, id));
    if (left != right) diff.offload.push_back({id, op, std::move(left), std::move(right)});
  }

  const Side sideA = collectSide(placedA, loadedCalls);
  const Side sideB = collectSide(placedB, loadedCalls);
  diff.regionsA = sideA.regions.size();
  diff.regionsB = sideB.regions.size();
  diff.compositesA = sideA.composites.size();
  diff.compositesB = sideB.composites.size();
  diff.regions = regionDifferences(sideA.regions, sideB.regions);
  diff.composites = compositeDifferences(sideA.composites, sideB.composites);
  return diff;
}

std::vector<OffloadRow> offloadRows(const PartitionDiff& diff) {
  std::map<std::tuple<std::string, std::string, std::string>, std::vector<NodeId>> rows;
  for (const OffloadDifference& call : diff.offload) rows[{call.op, call.a, call.b}].push_back(call.id);
  std::vector<OffloadRow> result;
  for (auto& [key, calls] : rows) result.push_back({std::get<0>(key), std::get<1>(key), std::get<2>(key), std::move(calls)});
  return result;
}

std::vector<CompositeRow> compositeRows(const PartitionDiff& diff) {
  std::map<std::pair<std::string, std::string>, CompositeRow> rows;
  for (const CompositeDifference& composite : diff.composites) {
    std::string a = joinedNames(composite.a), b = joinedNames(composite.b);
    CompositeRow& row = rows[{a, b}];
    row.a = std::move(a);
    row.b = std::move(b);
    ++row.times;
    row.groups.push_back(&composite);
  }
  std::vector<CompositeRow> result;
  for (auto& [key, row] : rows) result.push_back(std::move(row));
  return result;
}

}  // namespace byoc
