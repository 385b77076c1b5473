#pragma once
/// \file
/// Blocks of a graph too large to draw at once and without a hierarchy of its own: runs of a
/// topological order cut where the fewest edges cross, nested until every level is small.
///
/// Contract: the items `0 … count-1` are given in a topological order (an edge from a later item to
/// an earlier one is allowed and counts as crossing every cut between its ends). A block is a run of
/// consecutive items, so it is convex: no path leaves a block and comes back into it, and drawing a
/// block as one box never makes a cycle. Level 0 cuts the items into runs of `minMembers` to
/// `maxMembers` items (a level of at most `maxMembers` items is not cut); in each window it takes
/// the cut the fewest edges cross (the single-entry single-exit points of a chain or of a residual
/// network are cuts of width 1), among those one before an item the caller marked as a good start
/// (say, the op the graph starts with, so that the blocks of a chain of repeated layers hold whole
/// layers), and among those the one giving the longest run. Each further
/// level cuts the blocks of the level below the same way, until a level holds at most `maxMembers`
/// blocks. Time O(count + edges + count · maxMembers / minMembers); nothing recurses.

#include <utility>
#include <vector>

namespace byoc {

/// How large the blocks findBlocks makes are, in members (items, or blocks of the level below).
struct BlockBounds {
  /// Most members of a block; also the most a level may hold without being cut.
  int maxMembers = 64;
  /// Fewest members of a block (raised to 1, and lowered to half of `maxMembers`, if need be).
  int minMembers = 24;
};

/// One block: the items `first … last` (inclusive), at every level.
struct GraphBlock {
  int first = 0;
  int last = 0;
  /// 0 for a block of items; k for a block of blocks of level k - 1.
  int level = 0;
  /// The enclosing block (an index into the result), or -1 for the outermost level.
  int parent = -1;
};

/// The blocks of items `0 … count-1` joined by `edges` (from, to): level 0 first, each level in
/// item order. `goodStarts` (empty, or one flag per item) marks the items a block would rather
/// start at. Empty when `count` is at most `bounds.maxMembers`.
std::vector<GraphBlock> findBlocks(int count, const std::vector<std::pair<int, int>>& edges, BlockBounds bounds = {},
                                   const std::vector<bool>& goodStarts = {});

}  // namespace byoc
