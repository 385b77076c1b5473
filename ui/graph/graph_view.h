#pragma once
/// \file
/// The interactive view of a GraphScene: zoom (wheel, +/-), pan (drag), fit, and keyboard
/// navigation along the dataflow (Up: producer, Down: consumer, Left/Right: the other inputs of
/// the same consumer).

#include <QGraphicsView>

namespace byoc::ui {

class GraphScene;

/// QGraphicsView with zoom, pan and dataflow navigation.
class GraphView : public QGraphicsView {
  Q_OBJECT
 public:
  explicit GraphView(GraphScene* scene, QWidget* parent = nullptr);

  /// Current zoom factor (1 = 100 %).
  qreal zoom() const;
  /// Sets the zoom factor, clamped to [0.02, 4], keeping the centre of the view in place.
  void setZoom(qreal zoom);
  /// Sets the zoom factor keeping the scene point under `viewPoint` (viewport coordinates) in place.
  void zoomAt(qreal zoom, QPointF viewPoint);
  /// Shows the whole graph, never enlarged beyond 100 %.
  void fitAll();
  /// The first view of a graph: the whole graph when it can be read that way, else its inputs
  /// (the top of the picture) at 100 %.
  void showStart();
  /// Centres `area` (scene coordinates) and zooms to fit it, never beyond 100 %.
  void showArea(const QRectF& area);
  /// Shows `area` as showArea does when its labels can be read at the zoom that fits it; else
  /// (nodes spread over the graph) centres `first` at a legible zoom instead.
  void showAreaLegibly(const QRectF& area, const QRectF& first);
  /// Scrolls so that `node` is in view, at the current zoom.
  void revealNode(int node);
  /// Centres `node` at a zoom where its labels can be read (100 % when the view is zoomed out further).
  void focusNode(int node);
  /// Moves the selection along the dataflow as the arrow keys do; returns false when there is nowhere to go.
  bool step(Qt::Key key);

 signals:
  /// The zoom factor changed.
  void zoomChanged(qreal zoom);
  /// The visible part of the scene changed (scroll or zoom).
  void viewportMoved();

 protected:
  void wheelEvent(QWheelEvent* event) override;
  void keyPressEvent(QKeyEvent* event) override;
  void scrollContentsBy(int dx, int dy) override;

 private:
  GraphScene* graphScene_;
};

}  // namespace byoc::ui
