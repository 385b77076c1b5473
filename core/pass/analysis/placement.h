#pragma once
/// \file
/// Where the op calls of the loaded model ended up after partitioning: in which global function,
/// for which compiler, inside which composite.
///
/// Nodes are identified by their origin ids (ir/origin.h), so two partitionings of the same loaded
/// model can be laid side by side (partition_diff.h). A loaded op call that a pass split into
/// several calls (SimplifyInference turns `nn.batch_norm` into `add` and `multiply`) has several
/// placements, one per piece, in the order met; one folded away entirely has none.

#include <map>
#include <string>
#include <vector>

#include "ir/module.h"

namespace byoc {

/// Where one piece of a loaded op call sits in a partitioned module.
struct Placement {
  /// The global function that holds it (`main` for the host).
  std::string function;
  /// The `Compiler` of that function; empty on the host.
  std::string compiler;
  /// The `Composite` of the innermost function literal around it; empty outside composites.
  std::string composite;
  /// Which composite literal that is, among all of the module (0 outside composites): two
  /// pieces share an instance exactly when they sit in the same literal.
  std::size_t compositeInstance = 0;

  bool offloaded() const { return !compiler.empty(); }
  bool operator==(const Placement&) const = default;
};

/// Loaded node id → the placements of its pieces (deduplicated, in the order met).
using PlacementMap = std::map<NodeId, std::vector<Placement>>;

/// The placements of every op call of `module` that has an origin.
PlacementMap placeOpCalls(const Module& module);

/// The op calls of the loaded model `loaded`: origin id → op name.
std::map<NodeId, std::string> loadedOpCalls(const Module& loaded);

}  // namespace byoc
