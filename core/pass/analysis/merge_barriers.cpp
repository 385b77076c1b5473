#include "pass/analysis/merge_barriers.h"

#include <algorithm>
#include <iterator>

namespace byoc {

MergeBarriers::MergeBarriers(int count)
    : parent_(count), barriers_(count), pendingReaders_(count, 0), pendingAskers_(count, 0), closed_(count, 0) {
  for (int group = 0; group < count; ++group) parent_[group] = group;
}

int MergeBarriers::add() {
  const int group = static_cast<int>(parent_.size());
  parent_.push_back(group);
  barriers_.emplace_back();
  pendingReaders_.push_back(0);
  pendingAskers_.push_back(0);
  closed_.push_back(0);
  return group;
}

int MergeBarriers::find(int group) const {
  while (parent_[group] != group) {
    parent_[group] = parent_[parent_[group]];
    group = parent_[group];
  }
  return group;
}

void MergeBarriers::expectConsumers(int group, int readers, int askers) {
  group = find(group);
  pendingReaders_[group] += readers;
  pendingAskers_[group] += askers;
}

void MergeBarriers::consumed(int group, bool asks) {
  group = find(group);
  --pendingReaders_[group];
  if (asks) --pendingAskers_[group];
  releaseIfUnread(group);
}

void MergeBarriers::close(int group) {
  group = find(group);
  closed_[group] = 1;
  releaseIfUnread(group);
}

bool MergeBarriers::mayBeAsked(int group) const {
  group = find(group);
  return !closed_[group] || pendingAskers_[group] > 0;
}

void MergeBarriers::releaseIfUnread(int group) {
  if (closed_[group] && pendingReaders_[group] == 0) std::vector<int>().swap(barriers_[group]);
}

std::vector<int> MergeBarriers::unite(std::span<const int> sources, std::span<const int> extra) const {
  std::vector<int> result;
  auto keep = [&](int group) {
    if (mayBeAsked(group)) result.push_back(find(group));
  };
  for (int source : sources)
    for (int group : barriers_[find(source)]) keep(group);
  for (int group : extra) keep(group);
  std::sort(result.begin(), result.end());
  result.erase(std::unique(result.begin(), result.end()), result.end());
  return result;
}

void MergeBarriers::addBarriers(int group, std::span<const int> more) {
  std::vector<int>& barriers = barriers_[find(group)];
  std::vector<int> merged;
  merged.reserve(barriers.size() + more.size());
  std::set_union(barriers.begin(), barriers.end(), more.begin(), more.end(), std::back_inserter(merged));
  barriers = std::move(merged);
}

bool MergeBarriers::contains(std::span<const int> barriers, int group) {
  return std::binary_search(barriers.begin(), barriers.end(), group);
}

void MergeBarriers::merge(int from, int into) {
  from = find(from);
  into = find(into);
  if (from == into) return;
  parent_[from] = into;
  pendingReaders_[into] += pendingReaders_[from];
  pendingAskers_[into] += pendingAskers_[from];
  addBarriers(into, barriers_[from]);
  std::vector<int>().swap(barriers_[from]);
}

}  // namespace byoc
