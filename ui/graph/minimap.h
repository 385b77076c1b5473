#pragma once
/// \file
/// A small overview of the whole scene showing the main view's visible area; clicking or
/// dragging in it moves the main view there.

#include <QPixmap>
#include <QTimer>
#include <QWidget>

namespace byoc::ui {

class GraphView;

/// The minimap's size over a viewport of `viewport` showing a scene of `scene`: the scene's shape,
/// about 6 % of the viewport's area, at most 90 % of its height and 40 % of its width, and never
/// thinner than a finger's width (a tall narrow graph gets a strip along the edge, like an editor's
/// overview ruler).
QSize minimapSize(const QSizeF& scene, const QSize& viewport);

/// Overview of a GraphView's scene: a picture of the scene, drawn again once its changes settle
/// (a second live view of a scene of tens of thousands of items would repaint all of them after
/// every change), with the main view's visible area on top.
class Minimap : public QWidget {
  Q_OBJECT
 public:
  Minimap(GraphView* main, QWidget* parent = nullptr);
  /// Fits the whole scene in the minimap again (after a new layout).
  void refit();

 protected:
  void paintEvent(QPaintEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;
  /// Draws the picture again: the scene may have changed while the minimap was hidden.
  void showEvent(QShowEvent* event) override;

 private:
  /// Draws the scene into the cached picture.
  void render();
  /// Where the scene's rectangle lies in the widget (the scene fitted, keeping its aspect).
  QRectF pictureRect() const;
  void moveMainTo(const QPointF& position);

  GraphView* main_;
  QPixmap picture_;
  QTimer rerender_;
};

}  // namespace byoc::ui
