/// \file
/// PatternSketchView: layers are rows centred on the widest one; edges are straight lines.

#include "authoring/pattern_sketch_view.h"

#include <QFontMetricsF>
#include <QGraphicsRectItem>
#include <QGraphicsScene>
#include <QGraphicsSimpleTextItem>
#include <QPainterPath>
#include <algorithm>
#include <cmath>

#include "graph/graph_items.h"

namespace byoc::ui {

namespace {

constexpr qreal kPadX = 8;
constexpr qreal kGapX = 14;
constexpr qreal kLayerHeight = 46;
constexpr qreal kArrow = 5;

}  // namespace

PatternSketchView::PatternSketchView(QWidget* parent) : QGraphicsView(parent) {
  setScene(new QGraphicsScene(this));
  setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
  setAlignment(Qt::AlignCenter);
  setFrameShape(QFrame::NoFrame);
  setMinimumSize(120, 80);
}

void PatternSketchView::setSketch(PatternSketch sketch) {
  sketch_ = std::move(sketch);
  redraw();
}

void PatternSketchView::setTheme(Theme theme) {
  theme_ = theme;
  redraw();
}

void PatternSketchView::redraw() {
  QGraphicsScene* canvas = scene();
  canvas->clear();
  const GraphPalette& palette = graphPalette(theme_);
  setBackgroundBrush(palette.background);
  const QFont font = graphFonts().title;
  const QFontMetricsF metrics(font);
  const qreal boxHeight = metrics.height() + 8;
  // Widths per node, then each layer's total width to centre it.
  std::vector<qreal> widths;
  std::vector<qreal> layerWidths(sketch_.layerCount, 0);
  for (const PatternSketch::Node& node : sketch_.nodes) {
    widths.push_back(std::max(metrics.horizontalAdvance(node.label) + 2 * kPadX, 28.0));
    layerWidths[node.layer] += widths.back() + (layerWidths[node.layer] > 0 ? kGapX : 0);
  }
  const qreal widest = layerWidths.empty() ? 0 : *std::max_element(layerWidths.begin(), layerWidths.end());
  std::vector<qreal> cursor(sketch_.layerCount);
  for (int layer = 0; layer < sketch_.layerCount; ++layer) cursor[layer] = (widest - layerWidths[layer]) / 2;
  std::vector<QRectF> boxes;
  for (std::size_t i = 0; i < sketch_.nodes.size(); ++i) {
    const int layer = sketch_.nodes[i].layer;
    boxes.emplace_back(cursor[layer], layer * kLayerHeight, widths[i], boxHeight);
    cursor[layer] += widths[i] + kGapX;
  }
  for (const auto& [from, to] : sketch_.edges) {
    const QPointF start(boxes[from].center().x(), boxes[from].bottom());
    const QPointF end(boxes[to].center().x(), boxes[to].top());
    const bool back = boxes[from].top() >= boxes[to].top();  // a recursive pattern's back edge
    QPainterPath path(start);
    if (back) {
      const qreal side = std::max(boxes[from].right(), boxes[to].right()) + 18;
      path = QPainterPath(QPointF(boxes[from].right(), boxes[from].center().y()));
      path.cubicTo(QPointF(side, boxes[from].center().y()), QPointF(side, boxes[to].center().y()),
                   QPointF(boxes[to].right(), boxes[to].center().y()));
    } else {
      path.lineTo(end);
    }
    canvas->addPath(path, QPen(palette.edge, 1.2, back ? Qt::DashLine : Qt::SolidLine));
    const QPointF tip = path.currentPosition();
    const qreal angle = path.angleAtPercent(1) * M_PI / 180;
    const QPointF direction(std::cos(angle), -std::sin(angle));
    const QPointF normal(-direction.y(), direction.x());
    QPolygonF arrow({tip, tip - direction * kArrow * 1.6 + normal * kArrow * 0.7,
                     tip - direction * kArrow * 1.6 - normal * kArrow * 0.7});
    canvas->addPolygon(arrow, Qt::NoPen, palette.edge);
  }
  for (std::size_t i = 0; i < sketch_.nodes.size(); ++i) {
    const bool root = i + 1 == sketch_.nodes.size();
    QPainterPath shape;
    shape.addRoundedRect(boxes[i], 5, 5);
    canvas->addPath(shape, QPen(root ? palette.selection : palette.border, root ? 1.8 : 1), palette.opFill);
    auto* label = canvas->addSimpleText(sketch_.nodes[i].label, font);
    label->setBrush(palette.text);
    label->setPos(boxes[i].left() + kPadX, boxes[i].top() + 4);
  }
  canvas->setSceneRect(canvas->itemsBoundingRect().adjusted(-8, -8, 8, 8));
  fit();
}

void PatternSketchView::fit() {
  resetTransform();
  const QRectF area = sceneRect();
  if (area.isEmpty()) return;
  const qreal scale = std::min({1.0, viewport()->width() / area.width(), viewport()->height() / area.height()});
  this->scale(scale, scale);
}

void PatternSketchView::resizeEvent(QResizeEvent* event) {
  QGraphicsView::resizeEvent(event);
  fit();
}

}  // namespace byoc::ui
