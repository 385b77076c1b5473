#pragma once
/// \file
/// DOT text of a GraphModel for Graphviz `dot`: a pure function, tested as text.
///
/// Nodes are named `n<id>` with fixed sizes (the caller measures labels) and no labels of their
/// own; groups become nested `cluster_g<id>` subgraphs; collapsed groups are drawn as one node
/// `g<id>` standing for all their members, and edges into or out of them are redirected to it
/// (edges inside a collapsed group disappear, duplicates between the same two nodes are merged).
///
/// `writeGroupDot` writes one expanded group alone, for laying out only that group: its cluster
/// with its members (nested groups as the collapsed state says), and for each member unit that an
/// edge from outside enters (or leaves) one small port node `i_<unit>` on the top rank (`o_<unit>`
/// on the bottom rank), so that crossing edges reach the group's border where they will attach.

#include <QSizeF>
#include <QString>
#include <vector>

#include "graph/graph_model.h"
#include "layout/layout_edits.h"

namespace byoc::ui {

/// What to write besides the model itself.
struct DotOptions {
  /// Size of each node in points (1/72 inch), indexed by node id.
  std::vector<QSizeF> nodeSizes;
  /// Collapsed state per group id (missing entries are expanded).
  std::vector<bool> collapsed;
  /// Size in points of each collapsed group's node, indexed by group id (see measureCollapsedGroup);
  /// `collapsedSize` where missing.
  std::vector<QSizeF> groupSizes;
  QSizeF collapsedSize{120, 36};
};

/// The layout unit a node is drawn in: the node itself or the outermost collapsed group holding it.
/// Returns `n<id>` or `g<id>`.
QString layoutUnitOf(const GraphModel& model, int node, const std::vector<bool>& collapsed);

/// The layout unit of every node, by node id, as a number: the node's id, or -1 - the id of the
/// outermost collapsed group holding it. One pass over the groups and one over the nodes.
std::vector<int> layoutUnits(const GraphModel& model, const std::vector<bool>& collapsed);

/// The name of a layout unit numbered as layoutUnits does: `n<id>` or `g<id>`.
QString unitName(int unit);

/// The DOT text of `model`.
QString writeDot(const GraphModel& model, const DotOptions& options);

/// True for each node id inside `group` or a group nested in it.
std::vector<bool> nodesInside(const GraphModel& model, int group);

/// The edges crossing the border of `group`, by layout unit (units as `collapsed` says), each pair
/// of units once.
std::vector<BorderEdge> borderEdges(const GraphModel& model, int group, const std::vector<bool>& collapsed);

/// The DOT text of `group` alone with its border ports; `options.collapsed` must show the group expanded.
QString writeGroupDot(const GraphModel& model, int group, const DotOptions& options);

}  // namespace byoc::ui
