#pragma once
/// \file
/// groupBranches: the `then` and `else` boxes of a graph (see graph_model.h for the rule).
///
/// Every node and group (a *member* of the group it lies in, its *region*) goes to the innermost
/// branch that holds every use of it: the lowest common ancestor, in the tree of branches of its
/// region, of the places of its users, a use by a branch's result counting as inside that branch.
/// Users are placed before what they use (a topological order of the uses, Kahn's algorithm), so
/// one pass places everything; a member used outside its region, or by nothing, stays where it
/// is. Iterative throughout.

#include <vector>

#include "graph/graph_model.h"

namespace byoc::ui {

/// A use that is no edge: the call `call` of the let-bound function drawn as group `group`.
struct CalleeUse {
  int group = -1;
  int call = -1;
};

/// Moves members used by one branch of an `if` only into new `then`/`else` groups; `groups[g].nodes`
/// are left for the caller to rebuild.
void groupBranches(std::vector<GraphNode>& nodes, const std::vector<GraphEdge>& edges, std::vector<GraphGroup>& groups,
                   const std::vector<CalleeUse>& calleeUses);

}  // namespace byoc::ui
