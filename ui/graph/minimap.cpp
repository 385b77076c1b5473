/// \file
/// Minimap: a cached picture of the scene, with the visible area drawn on top.

#include "graph/minimap.h"

#include <QGraphicsScene>
#include <QMouseEvent>
#include <QPainter>
#include <algorithm>
#include <cmath>

#include "graph/graph_view.h"

namespace byoc::ui {

namespace {

/// How long the scene must stay unchanged before the picture is drawn again.
constexpr int kRerenderDelayMs = 150;

constexpr double kAreaShare = 0.06;
constexpr double kMostHeight = 0.9;
constexpr double kMostWidth = 0.4;
constexpr int kThinnest = 28;

}  // namespace

QSize minimapSize(const QSizeF& scene, const QSize& viewport) {
  if (scene.isEmpty() || viewport.isEmpty()) return {kThinnest, kThinnest};
  const double aspect = scene.width() / scene.height();
  const double area = kAreaShare * viewport.width() * viewport.height();
  double width = std::sqrt(area * aspect), height = std::sqrt(area / aspect);
  const double mostWidth = kMostWidth * viewport.width(), mostHeight = kMostHeight * viewport.height();
  if (height > mostHeight) {
    height = mostHeight;
    width = height * aspect;
  }
  if (width > mostWidth) {
    width = mostWidth;
    height = width / aspect;
  }
  return {std::max(kThinnest, static_cast<int>(std::lround(width))), std::max(kThinnest, static_cast<int>(std::lround(height)))};
}

Minimap::Minimap(GraphView* main, QWidget* parent) : QWidget(parent), main_(main) {
  setAttribute(Qt::WA_OpaquePaintEvent);
  setCursor(Qt::PointingHandCursor);
  setToolTip(tr("Overview: click to move the view"));
  rerender_.setSingleShot(true);
  rerender_.setInterval(kRerenderDelayMs);
  connect(&rerender_, &QTimer::timeout, this, &Minimap::render);
  connect(main_->scene(), &QGraphicsScene::changed, this, [this] {
    if (isVisible()) rerender_.start();
  });
  connect(main_, &GraphView::viewportMoved, this, [this] { update(); });
}

void Minimap::refit() { render(); }

QRectF Minimap::pictureRect() const {
  const QRectF scene = main_->scene()->sceneRect();
  const QRectF area = QRectF(rect()).adjusted(2, 2, -2, -2);
  if (scene.isEmpty() || area.isEmpty()) return area;
  const qreal scale = std::min(area.width() / scene.width(), area.height() / scene.height());
  QRectF fitted(QPointF(), scene.size() * scale);
  fitted.moveCenter(area.center());
  return fitted;
}

void Minimap::render() {
  if (width() <= 0 || height() <= 0) return;
  const qreal ratio = devicePixelRatioF();
  picture_ = QPixmap(size() * ratio);
  picture_.setDevicePixelRatio(ratio);
  picture_.fill(palette().color(QPalette::Base));
  QPainter painter(&picture_);
  painter.setRenderHints(QPainter::Antialiasing);
  main_->scene()->render(&painter, pictureRect(), main_->scene()->sceneRect());
  update();
}

void Minimap::paintEvent(QPaintEvent*) {
  QPainter painter(this);
  if (picture_.isNull()) painter.fillRect(rect(), palette().color(QPalette::Base));
  else painter.drawPixmap(0, 0, picture_);
  const QRectF scene = main_->scene()->sceneRect();
  const QRectF picture = pictureRect();
  if (!scene.isEmpty()) {
    // The main view's visible area, mapped from scene to widget coordinates.
    const QRectF visible = main_->mapToScene(main_->viewport()->rect()).boundingRect().intersected(scene);
    const qreal scale = picture.width() / scene.width();
    const QRectF shown(picture.topLeft() + (visible.topLeft() - scene.topLeft()) * scale, visible.size() * scale);
    QColor accent = palette().color(QPalette::Highlight);
    painter.setPen(QPen(accent, 0));
    accent.setAlphaF(0.15);
    painter.setBrush(accent);
    painter.drawRect(shown);
  }
  painter.setPen(palette().color(QPalette::Mid));
  painter.setBrush(Qt::NoBrush);
  painter.drawRect(QRectF(rect()).adjusted(0.5, 0.5, -0.5, -0.5));
}

void Minimap::mousePressEvent(QMouseEvent* event) { moveMainTo(event->position()); }

void Minimap::mouseMoveEvent(QMouseEvent* event) {
  if (event->buttons() & Qt::LeftButton) moveMainTo(event->position());
}

void Minimap::resizeEvent(QResizeEvent* event) {
  QWidget::resizeEvent(event);
  render();
}

void Minimap::showEvent(QShowEvent* event) {
  QWidget::showEvent(event);
  render();
}

void Minimap::moveMainTo(const QPointF& position) {
  const QRectF scene = main_->scene()->sceneRect();
  const QRectF picture = pictureRect();
  if (scene.isEmpty() || picture.isEmpty()) return;
  main_->centerOn(scene.topLeft() + (position - picture.topLeft()) * (scene.width() / picture.width()));
  update();
}

}  // namespace byoc::ui
