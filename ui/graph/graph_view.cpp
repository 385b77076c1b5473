/// \file
/// GraphView: zoom around the cursor, dataflow stepping through the GraphModel's edge lists.

#include "graph/graph_view.h"

#include <QKeyEvent>
#include <QScrollBar>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>

#include "graph/graph_scene.h"

namespace byoc::ui {

namespace {
constexpr qreal kMinZoom = 0.02;
constexpr qreal kMaxZoom = 4.0;
/// Below this zoom a node's labels are too small to read.
constexpr qreal kLegibleZoom = 0.6;
}  // namespace

GraphView::GraphView(GraphScene* scene, QWidget* parent) : QGraphicsView(scene, parent), graphScene_(scene) {
  setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing | QPainter::SmoothPixmapTransform);
  setDragMode(QGraphicsView::ScrollHandDrag);
  setTransformationAnchor(QGraphicsView::AnchorViewCenter);  // the wheel anchors at the cursor itself
  setViewportUpdateMode(QGraphicsView::SmartViewportUpdate);
  setFrameShape(QFrame::NoFrame);
  setFocusPolicy(Qt::StrongFocus);
}

qreal GraphView::zoom() const { return transform().m11(); }

void GraphView::setZoom(qreal zoom) {
  zoom = std::clamp(zoom, kMinZoom, kMaxZoom);
  if (qFuzzyCompare(zoom, this->zoom())) return;
  setTransform(QTransform::fromScale(zoom, zoom));
  emit zoomChanged(zoom);
  emit viewportMoved();
}

void GraphView::zoomAt(qreal zoom, QPointF viewPoint) {
  const QPointF anchor = mapToScene(viewPoint.toPoint());
  setZoom(zoom);
  const QPoint drift = mapFromScene(anchor) - viewPoint.toPoint();
  horizontalScrollBar()->setValue(horizontalScrollBar()->value() + drift.x());
  verticalScrollBar()->setValue(verticalScrollBar()->value() + drift.y());
}

void GraphView::fitAll() { showArea(scene()->sceneRect()); }

void GraphView::showStart() {
  fitAll();
  if (zoom() >= kLegibleZoom) return;
  setZoom(1.0);
  // The topmost node: where the dataflow starts.
  const QGraphicsItem* first = nullptr;
  for (const QGraphicsItem* item : scene()->items()) {
    if (item->type() == NodeItem::Type && (!first || item->sceneBoundingRect().top() < first->sceneBoundingRect().top()))
      first = item;
  }
  const QRectF start = first ? first->sceneBoundingRect() : scene()->sceneRect();
  centerOn(start.center().x(), start.top() - 40 + viewport()->height() / 2.0);
}

void GraphView::showArea(const QRectF& area) {
  if (area.isEmpty()) return;
  const QRectF padded = area.adjusted(-40, -40, 40, 40);
  const qreal fit = std::min(viewport()->width() / padded.width(), viewport()->height() / padded.height());
  setZoom(std::min(fit, 1.0));
  centerOn(area.center());
}

void GraphView::showAreaLegibly(const QRectF& area, const QRectF& first) {
  if (area.isEmpty()) return;
  const QRectF padded = area.adjusted(-40, -40, 40, 40);
  if (std::min(viewport()->width() / padded.width(), viewport()->height() / padded.height()) >= kLegibleZoom) {
    showArea(area);
    return;
  }
  if (zoom() < kLegibleZoom) setZoom(1.0);
  centerOn(first.center());
}

void GraphView::revealNode(int node) {
  if (NodeItem* item = graphScene_->itemOf(node)) ensureVisible(item, 60, 60);
}

void GraphView::focusNode(int node) {
  NodeItem* item = graphScene_->itemOf(node);
  if (!item) return;
  if (zoom() < kLegibleZoom) setZoom(1.0);
  centerOn(item);
}

bool GraphView::step(Qt::Key key) {
  const GraphModel* model = graphScene_->model();
  int current = graphScene_->selectedNode();
  if (!model || current < 0) return false;
  int next = -1;
  if (key == Qt::Key_Up) {
    std::vector<int> in = model->inEdges(current);
    if (!in.empty()) next = model->edges()[in.front()].from;
  } else if (key == Qt::Key_Down) {
    std::vector<int> out = model->outEdges(current);
    if (!out.empty()) next = model->edges()[out.front()].to;
  } else if (key == Qt::Key_Left || key == Qt::Key_Right) {
    std::vector<int> out = model->outEdges(current);
    if (out.empty()) return false;
    const GraphEdge& edge = model->edges()[out.front()];
    std::vector<int> siblings = model->inEdges(edge.to);
    auto it = std::find(siblings.begin(), siblings.end(), out.front());
    int index = static_cast<int>(it - siblings.begin()) + (key == Qt::Key_Right ? 1 : -1);
    if (index >= 0 && index < static_cast<int>(siblings.size())) next = model->edges()[siblings[index]].from;
  }
  if (next < 0) return false;
  graphScene_->selectNode(next);
  revealNode(next);
  return true;
}

void GraphView::wheelEvent(QWheelEvent* event) {
  const qreal steps = event->angleDelta().y() / 120.0;
  if (steps == 0) return;
  zoomAt(zoom() * std::pow(1.18, steps), event->position());
  event->accept();
}

void GraphView::keyPressEvent(QKeyEvent* event) {
  switch (event->key()) {
    case Qt::Key_Up:
    case Qt::Key_Down:
    case Qt::Key_Left:
    case Qt::Key_Right:
      if (step(static_cast<Qt::Key>(event->key()))) return;
      break;
    case Qt::Key_Plus:
    case Qt::Key_Equal:
      setZoom(zoom() * 1.25);
      return;
    case Qt::Key_Minus:
      setZoom(zoom() / 1.25);
      return;
    default:
      break;
  }
  QGraphicsView::keyPressEvent(event);
}

void GraphView::scrollContentsBy(int dx, int dy) {
  QGraphicsView::scrollContentsBy(dx, dy);
  emit viewportMoved();
}

}  // namespace byoc::ui
