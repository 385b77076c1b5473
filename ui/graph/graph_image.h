#pragma once
/// \file
/// Writing a drawn graph as an SVG or PNG file without holding up the window.
///
/// Drawing a large scene into an image is slow (resnet50 at twice its size is a picture of about
/// 10⁸ pixels, seconds of antialiased painting and PNG compression), but recording what the scene
/// paints is quick: `recordGraph` records it on the GUI thread as paint commands, proportional to
/// the items drawn, and `writeGraphImage` plays them into the image, encodes and writes it on any
/// thread, in bands, reporting its progress and stopping when asked to.

#include <QPicture>
#include <QRectF>
#include <QString>
#include <functional>

class QGraphicsScene;

namespace byoc::ui {

/// What a scene painted, ready to be drawn on another thread.
struct GraphRecording {
  QPicture picture;  ///< the scene's painting, in scene coordinates shifted to start at (0, 0)
  QSizeF size;       ///< of the scene's rectangle
  QString title;     ///< the SVG's title
};

/// Records `scene` (its whole scene rectangle) on the GUI thread.
GraphRecording recordGraph(QGraphicsScene& scene, const QString& title);

/// The image formats the graph is written in.
enum class GraphImageFormat { Svg, Png };

/// The format of `path` by its suffix: PNG for `.png` (any case), else SVG.
GraphImageFormat graphImageFormatOf(const QString& path);

/// Called with the share done, 0 to 100; returns false to stop.
using GraphImageProgress = std::function<bool(int percent)>;

/// The largest PNG written, in pixels; a larger graph is written at a smaller scale.
inline constexpr double kMostImagePixels = 200e6;

/// Draws `recording` at `scale` (PNG; SVG keeps the scene's units) and writes it to `path` through
/// the one writer of outputs. False with `error` set when it fails or `progress` asked to stop.
bool writeGraphImage(const GraphRecording& recording, const QString& path, GraphImageFormat format, double scale,
                     const GraphImageProgress& progress, QString* error);

}  // namespace byoc::ui
