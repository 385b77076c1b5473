#pragma once
/// \file
/// Editing a laid-out picture in place: a group's own layout put where its collapsed node was, or
/// a group's content folded back into one node, without laying the whole graph out again.
///
/// Pure functions from Layout to Layout, tested on hand-made layouts:
/// - `expandInPlace` puts a group's layout (made alone by Graphviz, see writeGroupDot) with its top
///   where the collapsed node's top was and centred on it; everything entirely below the node
///   moves down by the growth in height, everything entirely to its right (left) moves right
///   (left) by half the growth in width. Nodes that did not overlap before do not overlap after,
///   and nodes on the same side keep their relative positions.
/// - `collapseInPlace` puts one node where the group's content began and moves what lies below
///   up by as much of the freed height as it can without overlapping anything.
/// Edges keep their routes, warped by the same moves: each end goes with its unit and each point
/// between moves as a unit there would. Edges crossing the group's border run as one smooth curve
/// between the outside unit and the group layout's border port (expand: meeting the port's route
/// along its direction, without a corner) or the group's node (collapse).

#include <QMarginsF>
#include <QSet>
#include <vector>

#include "layout/plain_layout.h"

namespace byoc::ui {

/// An edge between a layout unit inside a group and one outside it (both `n<id>` or `g<id>`).
struct BorderEdge {
  /// The unit outside the group.
  QString outside;
  /// The unit inside the group.
  QString inside;
  /// True when the edge goes from `outside` to `inside`.
  bool entering = true;
};

/// Room kept around a group's content: the padding of its box and its label above it.
inline constexpr QMarginsF kGroupRoom{18, 32, 18, 18};

/// The name of the port a group laid out alone has on its border for edges entering (`i_<unit>`)
/// or leaving (`o_<unit>`) the unit `inside`.
QString borderPortName(const QString& inside, bool entering);

/// `whole` with the unit `groupUnit` replaced by the units of `group` (a layout with border ports
/// named by borderPortName), the rest moved apart to make room; `border` lists the model edges
/// that cross the group's border, by unit. A `whole` without `groupUnit` is returned unchanged.
Layout expandInPlace(const Layout& whole, const QString& groupUnit, const Layout& group,
                     const std::vector<BorderEdge>& border);

/// `whole` with the units `members` replaced by one unit `groupUnit` of `size`, what lay below
/// moved up into the freed room; `border` lists the model edges that cross the group's border.
/// A `whole` holding none of `members` is returned unchanged.
Layout collapseInPlace(const Layout& whole, const QSet<QString>& members, const QString& groupUnit, QSizeF size,
                       const std::vector<BorderEdge>& border);

}  // namespace byoc::ui
