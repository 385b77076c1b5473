/// \file
/// Minimap: a non-interactive second view of the same scene, with the visible area drawn on top.

#include "graph/minimap.h"

#include <QMouseEvent>

#include "graph/graph_view.h"

namespace byoc::ui {

Minimap::Minimap(GraphView* main, QWidget* parent) : QGraphicsView(main->scene(), parent), main_(main) {
  setInteractive(false);
  setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  setRenderHints(QPainter::Antialiasing);
  setFrameShape(QFrame::StyledPanel);
  setCursor(Qt::PointingHandCursor);
  setToolTip(tr("Overview: click to move the view"));
  connect(main_, &GraphView::viewportMoved, this, [this] { viewport()->update(); });
}

void Minimap::refit() { fitInView(scene()->sceneRect(), Qt::KeepAspectRatio); }

void Minimap::drawForeground(QPainter* painter, const QRectF&) {
  QRectF visible = main_->mapToScene(main_->viewport()->rect()).boundingRect();
  QColor accent = palette().color(QPalette::Highlight);
  painter->setPen(QPen(accent, 0));
  accent.setAlphaF(0.15);
  painter->setBrush(accent);
  painter->drawRect(visible.intersected(scene()->sceneRect()));
}

void Minimap::mousePressEvent(QMouseEvent* event) { moveMainTo(event->position().toPoint()); }

void Minimap::mouseMoveEvent(QMouseEvent* event) {
  if (event->buttons() & Qt::LeftButton) moveMainTo(event->position().toPoint());
}

void Minimap::resizeEvent(QResizeEvent* event) {
  QGraphicsView::resizeEvent(event);
  refit();
}

void Minimap::moveMainTo(const QPoint& position) {
  main_->centerOn(mapToScene(position));
  viewport()->update();
}

}  // namespace byoc::ui
