#pragma once
/// \file
/// What differs between two partitionings of the same loaded model (say, for two targets, or by
/// the Relay and the Relax flow): which op calls are offloaded on one side only, which regions
/// were split, merged or changed, and which composites differ.
///
/// Both sides are matched through the origins of their op calls (placement.h), so names of
/// regions and composites need not agree: a region is the same on both sides when it holds the
/// same loaded op calls, a composite when it also has the same name.

#include <cstddef>
#include <string>
#include <vector>

#include "pass/analysis/placement.h"

namespace byoc {

/// Where a loaded op call ran on one side: its compilers joined by `+` (`host` for pieces left on
/// the host), or `folded` when no piece of it is left.
std::string placementSummary(const std::vector<Placement>& pieces);

/// A loaded op call placed differently on the two sides.
struct OffloadDifference {
  NodeId id = 0;
  std::string op;  ///< its op in the loaded model
  std::string a;   ///< placementSummary on side A
  std::string b;   ///< placementSummary on side B
};

/// How a group of overlapping regions differs.
enum class RegionChange {
  OnlyInA,    ///< a region of A whose calls are offloaded by no region of B
  OnlyInB,    ///< the converse
  SplitInB,   ///< one region of A covers several of B
  MergedInB,  ///< several regions of A are one of B
  Resized,    ///< one region on each side, holding different calls
  Regrouped,  ///< several on each side
};

/// The name of a RegionChange, as the command line prints it (`split in B`).
std::string regionChangeName(RegionChange change);

/// Regions (global functions with a `Compiler`) of both sides that share loaded op calls.
struct RegionDifference {
  RegionChange change = RegionChange::Resized;
  std::vector<std::string> a;  ///< names of A's regions, ordered by their first loaded call
  std::vector<std::string> b;
  std::size_t callsA = 0;      ///< loaded op calls A's regions hold
  std::size_t callsB = 0;
  std::vector<NodeId> calls;   ///< the loaded op calls any of them holds, ascending
};

/// Composite function literals of both sides that share loaded op calls and are not the same.
struct CompositeDifference {
  std::vector<std::string> a;    ///< the `Composite` names on side A, ordered by their first loaded call
  std::vector<std::string> b;
  std::vector<NodeId> calls;     ///< the loaded op calls any of them holds, ascending
};

/// Everything that differs, and how much was compared.
struct PartitionDiff {
  std::size_t comparedCalls = 0;  ///< op calls of the loaded model
  std::size_t regionsA = 0, regionsB = 0;
  std::size_t compositesA = 0, compositesB = 0;
  std::vector<OffloadDifference> offload;  ///< ascending by id
  std::vector<RegionDifference> regions;
  std::vector<CompositeDifference> composites;

  bool empty() const { return offload.empty() && regions.empty() && composites.empty(); }
};

/// Compares `a` and `b`, two partitionings of `loaded`.
PartitionDiff comparePartitionings(const Module& loaded, const Module& a, const Module& b);

/// The op calls placed differently, gathered by op and placements (what `byoc compare` prints
/// and the app lists), ordered by op, then A's placement, then B's.
struct OffloadRow {
  std::string op, a, b;
  std::vector<NodeId> calls;  ///< ascending
};
std::vector<OffloadRow> offloadRows(const PartitionDiff& diff);

/// The composite differences, gathered by the names on each side joined by ` + ` (`-` for none),
/// ordered by those names.
struct CompositeRow {
  std::string a, b;
  std::size_t times = 0;                            ///< how many differences have these names
  std::vector<const CompositeDifference*> groups;   ///< those differences, in `diff` order
};
std::vector<CompositeRow> compositeRows(const PartitionDiff& diff);

}  // namespace byoc
