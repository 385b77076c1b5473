#pragma once
/// \file
/// A small overview of the whole scene showing the main view's visible area; clicking or
/// dragging in it moves the main view there.

#include <QGraphicsView>

namespace byoc::ui {

class GraphView;

/// Overview of a GraphView's scene.
class Minimap : public QGraphicsView {
  Q_OBJECT
 public:
  Minimap(GraphView* main, QWidget* parent = nullptr);
  /// Fits the whole scene in the minimap again (after a new layout).
  void refit();

 protected:
  void drawForeground(QPainter* painter, const QRectF& rect) override;
  void mousePressEvent(QMouseEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;

 private:
  void moveMainTo(const QPoint& position);
  GraphView* main_;
};

}  // namespace byoc::ui
