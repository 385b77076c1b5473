/// \file
/// expandInPlace and collapseInPlace: one pass over the units and one over the edges each.

#include "layout/layout_edits.h"

#include <QStringBuilder>
#include <algorithm>
#include <cmath>
#include <functional>
#include <set>

namespace byoc::ui {

namespace {

/// An edge ends this far short of its head's box, where the arrow head is drawn (as dot's do).
constexpr qreal kArrowRoom = 7;
/// The least vertical gap kept between units when lifting what lies below a collapsed group.
constexpr qreal kLiftGap = 18;

bool isPort(const QString& unit) { return unit.startsWith(u"i_") || unit.startsWith(u"o_"); }

/// A cubic Bézier from `start` to `end` that leaves and arrives vertically.
QPolygonF curve(QPointF start, QPointF end) {
  const qreal bend = std::max<qreal>(12, std::abs(end.y() - start.y()) / 2) * (end.y() >= start.y() ? 1 : -1);
  return QPolygonF({start, start + QPointF(0, bend), end - QPointF(0, bend), end});
}

/// The unit vector along `step`, or straight down when it has no length.
QPointF unitAlong(QPointF step) {
  const qreal length = std::hypot(step.x(), step.y());
  return length > 0 ? step / length : QPointF(0, 1);
}

/// A cubic Bézier from `start` to `end` leaving along `leave` and arriving along `arrive` (unit
/// vectors), so that it joins a route that goes on in those directions without a corner.
QPolygonF curveAlong(QPointF start, QPointF leave, QPointF end, QPointF arrive) {
  const qreal arm = std::max<qreal>(12, std::hypot(end.x() - start.x(), end.y() - start.y()) / 2);
  return QPolygonF({start, start + leave * arm, end - arrive * arm, end});
}

/// Where an edge leaves `box` towards `target`: the middle of its bottom, or of its top when the target is above.
QPointF exitPoint(const QRectF& box, QPointF target) {
  return QPointF(box.center().x(), target.y() >= box.center().y() ? box.bottom() : box.top());
}

/// Where an edge from `source` ends before `box`, leaving room for the arrow head.
QPointF entryPoint(const QRectF& box, QPointF source) {
  return source.y() <= box.center().y() ? QPointF(box.center().x(), box.top() - kArrowRoom)
                                        : QPointF(box.center().x(), box.bottom() + kArrowRoom);
}

/// A plain route between two boxes.
QPolygonF route(const QRectF& from, const QRectF& to) {
  return curve(exitPoint(from, to.center()), entryPoint(to, from.center()));
}

/// How a unit at `box` moves when the rectangle `around` grows by `grow`: right (left) of it by half
/// the width's growth to the right (left), below it by the height's growth. Monotone along each
/// axis, so units separated along an axis stay separated.
QPointF spreadOffset(const QRectF& box, const QRectF& around, QSizeF grow) {
  QPointF offset;
  if (box.left() >= around.right()) offset.rx() = grow.width() / 2;
  if (box.right() <= around.left()) offset.rx() = -grow.width() / 2;
  if (box.top() >= around.bottom()) offset.ry() = grow.height();
  return offset;
}

/// Moves every unit by `offsetOf(its box)`, and every edge with them: its ends with their units,
/// the points between as `offsetOf` moves a point where they are, so that a route keeps to the
/// side of the units it passed (the spreads are monotone, so it stays clear of them).
void moveUnits(Layout& layout, const std::function<QPointF(const QRectF&)>& offsetOf) {
  QHash<QString, QPointF> offsets;
  offsets.reserve(layout.units.size());
  for (auto it = layout.units.begin(); it != layout.units.end(); ++it) {
    const QPointF offset = offsetOf(it.value());
    offsets.insert(it.key(), offset);
    it.value().translate(offset);
  }
  for (LayoutEdge& edge : layout.edges) {
    QPolygonF& spline = edge.spline;
    if (spline.size() < 2) continue;
    for (qsizetype i = 1; i + 1 < spline.size(); ++i) spline[i] += offsetOf(QRectF(spline[i], QSizeF(0, 0)));
    spline.first() += offsets.value(edge.from);
    spline.last() += offsets.value(edge.to);
  }
}

/// How far the units whose top is at or below `line` can move up, at most `wanted`, while keeping
/// kLiftGap (or the gap they have, if smaller) from every unit that stays above the line.
qreal liftBelow(const QHash<QString, QRectF>& units, qreal line, qreal wanted) {
  std::vector<QRectF> staying;
  std::vector<QRectF> moving;
  for (const QRectF& box : units) {
    if (box.top() >= line) {
      moving.push_back(box);
    } else if (box.bottom() > line - wanted - kLiftGap) {
      staying.push_back(box);  // only these can be reached
    }
  }
  qreal lift = wanted;
  for (const QRectF& above : staying) {
    for (const QRectF& below : moving) {
      if (above.left() < below.right() && below.left() < above.right())
        lift = std::min(lift, std::max<qreal>(0, below.top() - above.bottom() - kLiftGap));
    }
  }
  return lift;
}

/// Adds an edge between each border edge's outside unit and the unit `insideUnit(edge)`, routed by
/// `routeOf`, once per pair of units.
void addBorderEdges(Layout& layout, const std::vector<BorderEdge>& border,
                    const std::function<QString(const BorderEdge&)>& insideUnit,
                    const std::function<QPolygonF(const BorderEdge&, const QString& inside)>& routeOf) {
  std::set<std::pair<QString, QString>> joined;
  for (const BorderEdge& edge : border) {
    const QString inside = insideUnit(edge);
    const QString& from = edge.entering ? edge.outside : inside;
    const QString& to = edge.entering ? inside : edge.outside;
    if (!layout.units.contains(from) || !layout.units.contains(to) || !joined.insert({from, to}).second) continue;
    layout.edges.push_back({from, to, routeOf(edge, inside)});
  }
}

}  // namespace

QString borderPortName(const QString& inside, bool entering) {
  return (entering ? QStringLiteral("i_") : QStringLiteral("o_")) % inside;
}

Layout expandInPlace(const Layout& whole, const QString& groupUnit, const Layout& group,
                     const std::vector<BorderEdge>& border) {
  const auto node = whole.units.constFind(groupUnit);
  if (node == whole.units.cend()) return whole;
  const QRectF collapsed = *node;
  QRectF content;
  QRectF ports;
  for (auto it = group.units.cbegin(); it != group.units.cend(); ++it) (isPort(it.key()) ? ports : content) |= *it;
  if (content.isNull()) return whole;
  // The room the group takes: its content with its box and label, and the ports on its border.
  const QRectF room = content.marginsAdded(kGroupRoom) | ports;
  const QPointF shift(collapsed.center().x() - room.center().x(), collapsed.top() - room.top());
  const QSizeF grow(std::max<qreal>(0, room.width() - collapsed.width()), std::max<qreal>(0, room.height() - collapsed.height()));

  Layout result = whole;
  result.units.remove(groupUnit);
  std::erase_if(result.edges, [&](const LayoutEdge& edge) { return edge.from == groupUnit || edge.to == groupUnit; });
  moveUnits(result, [&](const QRectF& box) { return spreadOffset(box, collapsed, grow); });
  for (auto it = group.units.cbegin(); it != group.units.cend(); ++it) {
    if (!isPort(it.key())) result.units.insert(it.key(), it->translated(shift));
  }
  // Edges inside the group as Graphviz drew them; those to or from a port wait to be joined to the outside.
  QHash<QString, QPolygonF> portSplines;
  for (const LayoutEdge& edge : group.edges) {
    const QPolygonF spline = edge.spline.translated(shift);
    if (isPort(edge.from)) {
      portSplines.insert(edge.from, spline);
    } else if (isPort(edge.to)) {
      portSplines.insert(edge.to, spline);
    } else {
      result.edges.push_back({edge.from, edge.to, spline});
    }
  }
  // A crossing edge runs from the outside unit to the port, then along Graphviz's spline inside (or back).
  addBorderEdges(result, border, [](const BorderEdge& edge) { return edge.inside; },
                 [&](const BorderEdge& edge, const QString& inside) -> QPolygonF {
                   const QRectF outside = result.units.value(edge.outside);
                   const auto port = portSplines.constFind(borderPortName(inside, edge.entering));
                   if (port == portSplines.cend() || port->size() < 2)
                     return edge.entering ? route(outside, result.units.value(inside)) : route(result.units.value(inside), outside);
                   // The join follows the port's route where it meets it: no corner at the port.
                   if (edge.entering) {
                     const QPointF start = exitPoint(outside, port->first());
                     const QPointF down(0, port->first().y() >= start.y() ? 1 : -1);
                     return curveAlong(start, down, port->first(), unitAlong(port->at(1) - port->first())) + port->mid(1);
                   }
                   const QPointF end = entryPoint(outside, port->last());
                   const QPointF down(0, end.y() >= port->last().y() ? 1 : -1);
                   return *port + curveAlong(port->last(), unitAlong(port->last() - port->at(port->size() - 2)), end, down).mid(1);
                 });
  result.size += grow;
  return result;
}

Layout collapseInPlace(const Layout& whole, const QSet<QString>& members, const QString& groupUnit, QSizeF size,
                       const std::vector<BorderEdge>& border) {
  QRectF content;
  for (const QString& member : members) {
    if (const auto it = whole.units.constFind(member); it != whole.units.cend()) content |= *it;
  }
  if (content.isNull()) return whole;
  // The node takes the top of the content's place; what lies below moves up into the rest.
  const QRectF node(QPointF(content.center().x() - size.width() / 2, content.top()), size);
  Layout result = whole;
  for (const QString& member : members) result.units.remove(member);
  std::erase_if(result.edges, [&](const LayoutEdge& edge) { return members.contains(edge.from) || members.contains(edge.to); });
  const qreal lift = liftBelow(result.units, content.bottom(), std::max<qreal>(0, content.height() - size.height()));
  const QSizeF grow(std::max<qreal>(0, size.width() - content.width()), -lift);
  moveUnits(result, [&](const QRectF& box) { return spreadOffset(box, content, grow); });
  result.units.insert(groupUnit, node);
  addBorderEdges(result, border, [&](const BorderEdge&) { return groupUnit; },
                 [&](const BorderEdge& edge, const QString&) {
                   const QRectF outside = result.units.value(edge.outside);
                   return edge.entering ? route(outside, node) : route(node, outside);
                 });
  result.size += grow;
  return result;
}

}  // namespace byoc::ui
