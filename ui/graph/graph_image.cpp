/// \file
/// recordGraph and writeGraphImage.

#include "graph/graph_image.h"

#include <QBuffer>
#include <QCoreApplication>
#include <QGraphicsScene>
#include <QImage>
#include <QPainter>
#include <QSvgGenerator>
#include <algorithm>
#include <cmath>

#include "support/output_file.h"

namespace byoc::ui {

namespace {

/// Rows of pixels drawn between two progress reports.
constexpr int kBandRows = 1024;

QString tr(const char* text) { return QCoreApplication::translate("GraphImage", text); }

bool stopped(const GraphImageProgress& progress, int percent, QString* error) {
  if (!progress || progress(percent)) return false;
  *error = tr("cancelled");
  return true;
}

bool writeSvg(const GraphRecording& recording, const QString& path, const GraphImageProgress& progress, QString* error) {
  QBuffer svg;
  svg.open(QIODevice::WriteOnly);
  QSvgGenerator generator;
  generator.setOutputDevice(&svg);
  generator.setSize(recording.size.toSize());
  generator.setViewBox(QRectF(QPointF(0, 0), recording.size));
  generator.setTitle(recording.title);
  generator.setDescription(QStringLiteral("Dataflow graph drawn by BYOC Studio"));
  {
    QPainter painter(&generator);
    QPicture(recording.picture).play(&painter);  // playing is not const
  }
  if (stopped(progress, 60, error)) return false;
  return writeOutputFile(path, svg.data(), error);
}

bool writePng(const GraphRecording& recording, const QString& path, double scale, const GraphImageProgress& progress,
              QString* error) {
  const double area = recording.size.width() * recording.size.height();
  if (area * scale * scale > kMostImagePixels) scale = std::sqrt(kMostImagePixels / area);
  const QSize pixels(std::max(1, static_cast<int>(std::ceil(recording.size.width() * scale))),
                     std::max(1, static_cast<int>(std::ceil(recording.size.height() * scale))));
  QImage image(pixels, QImage::Format_ARGB32_Premultiplied);
  if (image.isNull()) {
    *error = tr("cannot hold an image of %1×%2 pixels in memory").arg(pixels.width()).arg(pixels.height());
    return false;
  }
  image.fill(Qt::transparent);
  QPicture picture = recording.picture;  // playing is not const
  for (int top = 0; top < pixels.height(); top += kBandRows) {
    QPainter painter(&image);
    painter.setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
    painter.setClipRect(0, top, pixels.width(), std::min(kBandRows, pixels.height() - top));
    painter.scale(scale, scale);
    picture.play(&painter);
    painter.end();
    if (stopped(progress, 80 * std::min(pixels.height(), top + kBandRows) / pixels.height(), error)) return false;
  }
  QBuffer png;
  png.open(QIODevice::WriteOnly);
  if (!image.save(&png, "PNG")) {
    *error = tr("cannot encode the image as PNG (%1×%2)").arg(pixels.width()).arg(pixels.height());
    return false;
  }
  if (stopped(progress, 95, error)) return false;
  return writeOutputFile(path, png.data(), error);
}

}  // namespace

GraphRecording recordGraph(QGraphicsScene& scene, const QString& title) {
  GraphRecording recording;
  const QRectF source = scene.sceneRect();
  recording.size = source.size();
  recording.title = title;
  QPainter painter(&recording.picture);
  scene.render(&painter, QRectF(QPointF(0, 0), source.size()), source);
  return recording;
}

GraphImageFormat graphImageFormatOf(const QString& path) {
  return path.endsWith(QStringLiteral(".png"), Qt::CaseInsensitive) ? GraphImageFormat::Png : GraphImageFormat::Svg;
}

bool writeGraphImage(const GraphRecording& recording, const QString& path, GraphImageFormat format, double scale,
                     const GraphImageProgress& progress, QString* error) {
  const bool written = format == GraphImageFormat::Svg ? writeSvg(recording, path, progress, error)
                                                        : writePng(recording, path, scale, progress, error);
  if (written && progress) progress(100);
  return written;
}

}  // namespace byoc::ui
