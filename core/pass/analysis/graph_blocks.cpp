/// \file
/// findBlocks: the width of every cut from a difference array, then one greedy scan per level.

#include "pass/analysis/graph_blocks.h"

#include <algorithm>

namespace byoc {

namespace {

/// Cuts `count` members into runs of `minMembers` to `maxMembers`, each ending at the cheapest
/// boundary of its window (the latest of the cheapest); `cost(i)` is the cost of the boundary
/// after member i. Returns the last member of each run.
template <typename Cost>
std::vector<int> cutRuns(int count, const BlockBounds& bounds, const Cost& cost) {
  std::vector<int> ends;
  int start = 0;
  while (count - start > bounds.maxMembers) {
    // The rest keeps at least minMembers, so that no run is a stray member or two.
    const int low = start + bounds.minMembers - 1;
    const int high = std::min(start + bounds.maxMembers - 1, count - 1 - bounds.minMembers);
    int best = high;
    for (int i = high - 1; i >= low; --i) {
      if (cost(i) < cost(best)) best = i;
    }
    ends.push_back(best);
    start = best + 1;
  }
  ends.push_back(count - 1);
  return ends;
}

}  // namespace

std::vector<GraphBlock> findBlocks(int count, const std::vector<std::pair<int, int>>& edges, BlockBounds bounds,
                                   const std::vector<bool>& goodStarts) {
  bounds.maxMembers = std::max(bounds.maxMembers, 2);
  bounds.minMembers = std::clamp(bounds.minMembers, 1, bounds.maxMembers / 2);
  std::vector<GraphBlock> blocks;
  if (count <= bounds.maxMembers) return blocks;
  // cut[i]: the edges crossing between item i and item i + 1.
  std::vector<int> cut(static_cast<std::size_t>(count) + 1, 0);
  for (const auto& [from, to] : edges) {
    if (from < 0 || to < 0 || from >= count || to >= count || from == to) continue;
    ++cut[std::min(from, to)];
    --cut[std::max(from, to)];
  }
  for (int i = 1; i < count; ++i) cut[i] += cut[i - 1];
  // A boundary costs twice its width, and one more unless the item after it is a good start.
  auto costAfter = [&](int item) {
    const bool good = static_cast<std::size_t>(item + 1) < goodStarts.size() && goodStarts[item + 1];
    return 2 * cut[item] + (good ? 0 : 1);
  };

  // Level 0 over the items, then each level over the blocks of the one below.
  std::size_t levelStart = 0;
  int members = count;
  for (int level = 0; members > bounds.maxMembers; ++level) {
    const std::size_t below = levelStart;
    // The last item of member i: the item itself at level 0, else the last item of block i below.
    auto lastItem = [&](int i) { return level == 0 ? i : blocks[below + i].last; };
    const std::vector<int> ends = cutRuns(members, bounds, [&](int i) { return costAfter(lastItem(i)); });
    levelStart = blocks.size();
    int first = 0;
    for (int end : ends) {
      const int index = static_cast<int>(blocks.size());
      const int firstItem = level == 0 ? first : blocks[below + first].first;
      blocks.push_back({firstItem, lastItem(end), level, -1});
      if (level > 0) {
        for (int i = first; i <= end; ++i) blocks[below + i].parent = index;
      }
      first = end + 1;
    }
    members = static_cast<int>(ends.size());
  }
  return blocks;
}

}  // namespace byoc
