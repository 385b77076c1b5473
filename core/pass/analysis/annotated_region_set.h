#pragma once
/// \file
/// The regions that `compiler_begin`/`compiler_end` annotations delimit in a function, as TVM's
/// `AnnotatedRegionSet` computes them.
///
/// The function is walked in post-order (callee first, then arguments left to right):
/// - each `compiler_begin` opens a new region, numbered 0, 1, 2, … in visiting order, and is its input;
/// - any other node joins the regions of its *open* arguments (those that are not `compiler_end`):
///   the region of the left-most one survives and the others are merged into it;
/// - each `compiler_end` joins the region of its argument and is one of its outputs.
/// MergeCompilerRegions merges further regions; PartitionGraph outlines each region.

#include <deque>
#include <list>
#include <span>
#include <string>
#include <vector>

#include "ir/expr.h"
#include "ir/node_map.h"
#include "support/result.h"

namespace byoc {

class Module;
class PassContext;

/// One region: its id, target, and its begin (input) and end (output) annotations in the order
/// they were met; a merged region's lists follow the survivor's (lists, so that merging splices).
struct AnnotatedRegion {
  int id = 0;
  std::string target;
  std::list<Expr> ins;
  std::list<Expr> outs;
};

/// The regions of one function, with membership of every annotated node.
class AnnotatedRegionSet {
 public:
  /// Builds the regions of `root`; an error when an end wraps a value that is in no region or
  /// a node's arguments are partly inside and partly outside regions (placed where `module`, when
  /// given, locates that node). Given a pass context, stops with its `cancelled` error once it is
  /// cancelled.
  static Result<AnnotatedRegionSet> create(const Expr& root, const PassContext* context = nullptr,
                                           const Module* module = nullptr);

  /// The region containing `node`, or null.
  AnnotatedRegion* regionOf(const Expr& node);
  const AnnotatedRegion* regionOf(const Expr& node) const;

  /// The surviving region whose id is `id` (as `regionOf` gives ids).
  AnnotatedRegion& withId(int id) { return slots_[findSlot(id)]; }

  /// Merges `from` into `into`: `into` keeps its id and gains `from`'s nodes, inputs and outputs.
  void merge(AnnotatedRegion& from, AnnotatedRegion& into);

  /// The surviving regions, by id.
  std::vector<AnnotatedRegion*> regions();
  /// One more than the highest region id (merged-away regions included).
  int idCount() const { return static_cast<int>(slots_.size()); }

  /// Every `compiler_end` of the function, in post-order.
  const std::vector<Expr>& ends() const { return ends_; }

 private:
  /// `slotOfNode_`'s value for a visited node that is in no region.
  static constexpr int kNoRegion = -1;

  int findSlot(int slot) const;
  /// The (surviving) slot of `node`'s region, or `kNoRegion`.
  int slotOf(const Expr& node) const;
  /// Joins `node` to the regions of its operands (call arguments, tuple fields, the tuple of an
  /// item, a function's body, an if's condition and branches, a let's variable, value and body).
  Status joinOperandRegions(const Expr& node);
  Status addToArgRegion(const Expr& node, std::span<const Expr> args);

  /// Where errors are placed while the set is built (may be null).
  const Module* module_ = nullptr;
  /// Regions by creation slot; merged-away ones stay (their slot forwards to the survivor). A
  /// deque, so that regions never move.
  std::deque<AnnotatedRegion> slots_;
  /// Union-find forwarding of merged slots.
  mutable std::vector<int> parent_;
  /// Every node of the function that may hold annotations → its region's creation slot, or
  /// `kNoRegion`; the other nodes are in no region.
  NodeMap<int> slotOfNode_;
  std::vector<Expr> ends_;
};

}  // namespace byoc
