#pragma once
/// \file
/// The items of the graph canvas: nodes, edges, group boxes and overlay hulls.
///
/// Items only draw; they know their graph ids and the palette, nothing about the IR. Labels are
/// hidden when zoomed out (level of detail below `kLabelDetail`).

#include <QFont>
#include <QGraphicsItem>
#include <QGraphicsPathItem>

#include "graph/graph_model.h"
#include "theme.h"

namespace byoc::ui {

/// Zoom factor under which node and edge labels are not drawn.
inline constexpr qreal kLabelDetail = 0.45;

/// Fonts of the canvas.
struct GraphFonts {
  QFont title;
  QFont detail;
  QFont small;
};
/// The canvas fonts derived from the application font.
GraphFonts graphFonts();
/// Size in points of the box drawing `node`, measured with QFontMetrics.
QSizeF measureNode(const GraphNode& node, const GraphFonts& fonts);

/// A node box: title, detail line, kind colour, selection and overlay decorations.
class NodeItem : public QGraphicsItem {
 public:
  /// Qt item type of node boxes.
  enum { Type = UserType + 1 };
  /// `unit` is the node id, or -1 - group id for a collapsed group drawn as a node.
  NodeItem(int unit, GraphNodeKind kind, QString title, QString detail, QRectF rect, const GraphPalette* palette,
           const GraphFonts* fonts);

  int type() const override { return Type; }
  /// Node id, or -1 - group id for a collapsed group.
  int unit() const { return unit_; }
  QRectF boundingRect() const override;
  void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

  /// Colours the node by the target it is assigned to (invalid colour: none).
  void setTargetColour(const QColor& colour);
  /// Marks the node as not supported by any target.
  void setUnsupported(bool unsupported);
  /// Marks the node as a search match.
  void setMatched(bool matched);

 private:
  int unit_;
  GraphNodeKind kind_;
  QString title_;
  QString detail_;
  QRectF rect_;
  const GraphPalette* palette_;
  const GraphFonts* fonts_;
  QColor targetColour_;
  bool unsupported_ = false;
  bool matched_ = false;
};

/// An edge along a dot spline, with an arrow head and the carried shape as label.
class EdgeItem : public QGraphicsItem {
 public:
  EdgeItem(const QPolygonF& spline, QString label, const GraphPalette* palette, const GraphFonts* fonts);
  QRectF boundingRect() const override;
  void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

 private:
  QPainterPath path_;
  QPolygonF arrow_;
  QPointF labelAt_;
  QString label_;
  const GraphPalette* palette_;
  const GraphFonts* fonts_;
};

/// The box around an expanded group, labelled at its top; double-clicking it asks to collapse it.
class GroupItem : public QGraphicsItem {
 public:
  /// Qt item type of group boxes.
  enum { Type = UserType + 2 };
  GroupItem(int group, QString label, bool composite, QRectF rect, const GraphPalette* palette, const GraphFonts* fonts);
  int type() const override { return Type; }
  int group() const { return group_; }
  QRectF boundingRect() const override;
  void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

 private:
  int group_;
  QString label_;
  bool composite_;
  QRectF rect_;
  const GraphPalette* palette_;
  const GraphFonts* fonts_;
};

/// A translucent hull around a set of node boxes, labelled (composite, region, partition).
class HullItem : public QGraphicsPathItem {
 public:
  /// `dashed` draws the outline dashed and the label underneath (composite groups); otherwise the
  /// outline is solid and the label on top (regions, partitions).
  HullItem(const std::vector<QRectF>& rects, QString label, QColor colour, bool dashed, const GraphFonts* fonts);
  void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;
  QRectF boundingRect() const override;

 private:
  QString label_;
  QColor colour_;
  QPointF labelAt_;
  const GraphFonts* fonts_;
};

}  // namespace byoc::ui
