/// \file
/// memberOutline: padded boxes united with bands along member-to-member edges.

#include "graph/member_outline.h"

#include <QPainterPathStroker>
#include <algorithm>
#include <array>
#include <set>
#include <unordered_set>

namespace byoc::ui {

namespace {

/// Boxes whose centres are closer than this many box heights are neighbours (adjacent ranks).
constexpr qreal kNeighbourSpacing = 3;

}  // namespace

std::vector<QRectF> memberBoxes(const std::vector<int>& members, const std::function<QRectF(int node)>& boxOf) {
  // Boxes compare by value: the nodes of one collapsed group share one.
  std::set<std::array<qreal, 4>> seen;
  std::vector<QRectF> boxes;
  for (int node : members) {
    const QRectF box = boxOf(node);
    if (!box.isNull() && seen.insert({box.x(), box.y(), box.width(), box.height()}).second) boxes.push_back(box);
  }
  return boxes;
}

QPainterPath memberOutline(const GraphModel& model, const std::vector<int>& members,
                           const std::function<QRectF(int node)>& boxOf, qreal pad) {
  QPainterPath path;
  path.setFillRule(Qt::WindingFill);
  const std::unordered_set<int> memberSet(members.begin(), members.end());
  QPainterPathStroker band;
  band.setCapStyle(Qt::FlatCap);
  // Square boxes: rounded ones would give the union many times more segments to intersect (a
  // 1,000-node partition took 2.5 times as long); the outline's round pen joins soften the corners.
  for (const QRectF& box : memberBoxes(members, boxOf)) {
    path.addRect(box.adjusted(-pad, -pad, pad, pad));
  }
  for (int node : members) {
    const QRectF box = boxOf(node);
    if (box.isNull()) continue;
    for (int edge : model.inEdges(node)) {
      const int from = model.edges()[edge].from;
      if (!memberSet.contains(from)) continue;
      const QRectF input = boxOf(from);
      if (input.isNull() || input == box) continue;
      // Between neighbours, half as wide as the narrower box: the members read as one shape, not as
      // beads on a string. A long edge (a skip connection) gets a thin band, or it would paint a
      // wide corridor across canvas that holds none of the members.
      const QLineF between(input.center(), box.center());
      const bool neighbours = between.length() < kNeighbourSpacing * std::max(input.height(), box.height());
      band.setWidth((neighbours ? std::min(input.width(), box.width()) / 2 : 0) + 2 * pad);
      QPainterPath line(input.center());
      line.lineTo(box.center());
      path.addPath(band.createStroke(line));
    }
  }
  return path.simplified();
}

}  // namespace byoc::ui
