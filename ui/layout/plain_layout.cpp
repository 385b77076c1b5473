/// \file
/// parsePlainLayout: a line-by-line reader of Graphviz's plain format.

#include "layout/plain_layout.h"

#include <QStringBuilder>
#include <QStringList>

namespace byoc::ui {

namespace {

constexpr qreal kPointsPerInch = 72.0;

Diagnostic lineError(int line, const QString& message) {
  return makeError(message.toStdString(), SourceLocation{"<layout>", line, 0});
}

}  // namespace

Result<Layout> parsePlainLayout(const QString& text) {
  Layout layout;
  const QStringList lines = text.split(u'\n');
  bool sawGraph = false;
  bool sawStop = false;
  for (int i = 0; i < lines.size(); ++i) {
    const int lineNo = i + 1;
    const QStringList fields = lines[i].split(u' ', Qt::SkipEmptyParts);
    if (fields.isEmpty()) continue;
    const QString& tag = fields[0];
    auto number = [&](int index, bool& ok) { return index < fields.size() ? fields[index].toDouble(&ok) : (ok = false, 0.0); };
    bool ok = true;
    if (tag == u"graph") {
      qreal width = number(2, ok), height = ok ? number(3, ok) : 0;
      if (!ok) return lineError(lineNo, QStringLiteral("expected `graph scale width height`"));
      layout.size = QSizeF(width * kPointsPerInch, height * kPointsPerInch);
      sawGraph = true;
    } else if (tag == u"node") {
      if (!sawGraph) return lineError(lineNo, QStringLiteral("found a node before the `graph` line"));
      qreal x = number(2, ok), y = ok ? number(3, ok) : 0, w = ok ? number(4, ok) : 0, h = ok ? number(5, ok) : 0;
      if (!ok) return lineError(lineNo, QStringLiteral("expected `node name x y width height …`"));
      QPointF centre(x * kPointsPerInch, layout.size.height() - y * kPointsPerInch);
      QSizeF size(w * kPointsPerInch, h * kPointsPerInch);
      layout.units.insert(fields[1], QRectF(centre - QPointF(size.width() / 2, size.height() / 2), size));
    } else if (tag == u"edge") {
      if (!sawGraph) return lineError(lineNo, QStringLiteral("found an edge before the `graph` line"));
      int count = fields.size() > 3 ? fields[3].toInt(&ok) : (ok = false, 0);
      if (!ok || count < 2 || fields.size() < 4 + 2 * count)
        return lineError(lineNo, QStringLiteral("expected `edge tail head n x1 y1 … xn yn …`"));
      LayoutEdge edge{fields[1], fields[2], {}};
      for (int p = 0; p < count && ok; ++p) {
        qreal x = number(4 + 2 * p, ok), y = ok ? number(5 + 2 * p, ok) : 0;
        edge.spline << QPointF(x * kPointsPerInch, layout.size.height() - y * kPointsPerInch);
      }
      if (!ok) return lineError(lineNo, QStringLiteral("expected numbers for the edge's points"));
      layout.edges.push_back(std::move(edge));
    } else if (tag == u"stop") {
      sawStop = true;
      break;
    } else {
      return lineError(lineNo, u"found `" % tag % QStringLiteral("`, expected graph, node, edge or stop"));
    }
  }
  if (!sawStop) return lineError(static_cast<int>(lines.size()), QStringLiteral("the layout ended before `stop`"));
  return layout;
}

}  // namespace byoc::ui
