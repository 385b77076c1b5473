#pragma once
/// \file
/// The items of the graph canvas: nodes, edges, group boxes and overlay hulls.
///
/// Items only draw; they know their graph ids and the palette, nothing about the IR. Labels are
/// hidden when zoomed out (level of detail below `kLabelDetail`), and shapes simplified further out
/// (below `kShapeDetail`); a collapsed group keeps its title, enlarged to read on screen as far as
/// its box holds it, so that a graph of collapsed blocks reads when fitted. Edge, group and hull labels go
/// where the scene places them (see LabelPlacer), elided to the room they got; an item whose label
/// found no room draws none and keeps the text in its tooltip.

#include <QFont>
#include <QFontMetricsF>
#include <QGraphicsItem>
#include <QGraphicsObject>
#include <QGraphicsPathItem>

#include "graph/graph_model.h"
#include "theme.h"

namespace byoc::ui {

/// Zoom factor under which node and edge labels are not drawn.
inline constexpr qreal kLabelDetail = 0.45;
/// Zoom factor under which boxes are drawn square and edges without arrow heads or antialiasing:
/// a whole large graph on screen paints quickly.
inline constexpr qreal kShapeDetail = 0.2;

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
/// The box a collapsed group is drawn as: its label over its detail, or its number of nodes.
GraphNode collapsedGroupNode(const GraphGroup& group);

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

  const QString& title() const { return title_; }
  /// The box (item coordinates).
  const QRectF& rect() const { return rect_; }
  /// The box's fill: its kind's, tinted by its target, or the unsupported fill.
  QColor fill() const;
  const GraphPalette& palette() const { return *palette_; }
  const GraphFonts& fonts() const { return *fonts_; }

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

/// A label's text and where it is drawn (scene coordinates; a null rectangle: not drawn).
struct PlacedLabel {
  QString text;
  QRectF rect;
};

/// An edge along a dot spline, with an arrow head and the carried shape as label and tooltip.
class EdgeItem : public QGraphicsItem {
 public:
  /// Qt item type of edges.
  enum { Type = UserType + 4 };
  int type() const override { return Type; }
  /// Draws `spline`, standing for the model edge `modelEdge` (-1: none, it cannot be selected).
  EdgeItem(const QPolygonF& spline, QString label, int modelEdge, const GraphPalette* palette, const GraphFonts* fonts);
  QRectF boundingRect() const override;
  /// The curve widened to be clicked, its arrow head and its label: not the box around them.
  QPainterPath shape() const override;
  void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

  /// The model edge whose tensor the curve carries (the first between its two boxes), or -1.
  int modelEdge() const { return modelEdge_; }
  const QString& label() const { return label_; }
  /// Where the label may go, best first: right of the curve's middle, then left of it.
  std::vector<QRectF> labelSpots() const;
  const QRectF& labelRect() const { return labelRect_; }
  void setLabelRect(const QRectF& rect);

 private:
  QPainterPath path_;
  QPolygonF arrow_;
  QPointF middle_;
  QString label_;
  QRectF labelRect_;
  int modelEdge_;
  const GraphPalette* palette_;
  const GraphFonts* fonts_;
};

/// How a group's box is drawn.
enum class GroupStyle {
  Plain,      ///< a function literal, a name scope or a block: dotted, filled
  Composite,  ///< a composite function: dotted, in the composite fill
  Loop,       ///< a function that calls itself: solid, drawn heavier
  Branch,     ///< the `then` or `else` of an `if`: dashed, unfilled
};
/// The style of `group`'s box.
GroupStyle groupStyle(const GraphGroup& group);
/// Sets `painter`'s pen and brush for a group box of `style` (the canvas and the legend draw alike).
void setGroupPen(QPainter& painter, GroupStyle style, const GraphPalette& palette);

/// The box around an expanded group; double-clicking it asks to collapse it. Its label is a
/// LabelItem, so that the boxes of nested groups never cover it.
class GroupItem : public QGraphicsItem {
 public:
  /// Qt item type of group boxes.
  enum { Type = UserType + 2 };
  GroupItem(int group, QString label, GroupStyle style, QRectF rect, const GraphPalette* palette);
  int type() const override { return Type; }
  int group() const { return group_; }
  const QString& label() const { return label_; }
  const QRectF& rect() const { return rect_; }
  QRectF boundingRect() const override;
  void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

 private:
  int group_;
  QString label_;
  GroupStyle style_;
  QRectF rect_;
  const GraphPalette* palette_;
};

/// A translucent outline around a set of node boxes (see memberOutline): a composite, region or
/// partition. Its label is a LabelItem, so that it can lie above every hull.
class HullItem : public QGraphicsPathItem {
 public:
  /// Qt item type of hulls.
  enum { Type = UserType + 5 };
  int type() const override { return Type; }
  /// `dashed` draws the outline dashed (composite groups), otherwise solid (regions, partitions).
  HullItem(const QPainterPath& outline, const QString& label, QColor colour, bool dashed);
  void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;
  bool dashed() const { return dashed_; }

 private:
  bool dashed_;
};

/// A label placed by the scene: text on an optional rounded backdrop, above nodes and hulls,
/// hidden when zoomed out.
class LabelItem : public QGraphicsItem {
 public:
  /// `backdrop` invalid: the text alone. `toolTip` is the full text when `text` is elided.
  LabelItem(PlacedLabel placed, QColor backdrop, QColor textColour, const QFont* font, const QString& toolTip);
  /// Qt item type of placed labels.
  enum { Type = UserType + 3 };
  int type() const override { return Type; }
  /// The text drawn (elided if it did not fit).
  const QString& text() const { return placed_.text; }
  QRectF boundingRect() const override { return placed_.rect; }
  void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

 private:
  PlacedLabel placed_;
  QColor backdrop_;
  QColor textColour_;
  const QFont* font_;
};

/// A ring that pulses around a box a few times and then removes itself: where search landed.
class FlashRing : public QGraphicsObject {
 public:
  /// Qt item type of flash rings.
  enum { Type = UserType + 6 };
  FlashRing(const QRectF& box, QColor colour);
  int type() const override { return Type; }
  QRectF boundingRect() const override;
  void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

 private:
  QRectF ring_;
  QColor colour_;
};

/// The size of `text` drawn as a label in `font`, with its padding.
QSizeF labelSize(const QString& text, const QFont& font);
/// The same for a text already measured `textWidth` wide with `metrics`.
QSizeF labelSize(qreal textWidth, const QFontMetricsF& metrics);

}  // namespace byoc::ui
