#pragma once
/// \file
/// A small canvas drawing a PatternSketch: rounded boxes in layers, edges from inputs down to
/// their users. It always fits its content (never enlarged beyond 100 %).

#include <QGraphicsView>

#include "authoring/pattern_sketch.h"
#include "theme.h"

namespace byoc::ui {

/// QGraphicsView of one pattern's sketch.
class PatternSketchView : public QGraphicsView {
  Q_OBJECT
 public:
  /// An empty canvas.
  explicit PatternSketchView(QWidget* parent = nullptr);

  /// Draws `sketch` (an empty sketch clears the view).
  void setSketch(PatternSketch sketch);
  /// The sketch drawn.
  const PatternSketch& sketch() const { return sketch_; }
  /// Redraws in `theme`'s colours.
  void setTheme(Theme theme);

 protected:
  void resizeEvent(QResizeEvent* event) override;

 private:
  void redraw();
  void fit();

  PatternSketch sketch_;
  Theme theme_ = Theme::Light;
};

}  // namespace byoc::ui
