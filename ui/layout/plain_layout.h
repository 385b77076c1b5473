#pragma once
/// \file
/// Graphviz "plain" output parsed into scene geometry: a pure function, tested as text.
///
/// Input: what `dot -Tplain` writes for a graph from writeDot (nodes `n<id>` and `g<id>`,
/// coordinates in inches with y growing upwards). Output: rectangles and edge splines in points
/// with y growing downwards, the way a QGraphicsScene draws them.

#include <QHash>
#include <QPolygonF>
#include <QRectF>
#include <QString>
#include <vector>

#include "support/result.h"

namespace byoc::ui {

/// One routed edge: the Bézier control points (first point, then three per cubic segment).
struct LayoutEdge {
  QString from;
  QString to;
  QPolygonF spline;
};

/// Positions of everything `dot` placed.
struct Layout {
  QSizeF size;
  /// Node rectangles by layout unit name (`n3`, `g1`).
  QHash<QString, QRectF> units;
  /// Edges in the order dot listed them.
  std::vector<LayoutEdge> edges;
};

/// Parses "plain" text; the error names the line and what was expected.
Result<Layout> parsePlainLayout(const QString& text);

}  // namespace byoc::ui
