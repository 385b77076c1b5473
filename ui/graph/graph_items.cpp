/// \file
/// Painting of the canvas items.

#include "graph/graph_items.h"

#include <QApplication>
#include <QFontMetricsF>
#include <QPainter>
#include <QStyleOptionGraphicsItem>
#include <algorithm>
#include <cmath>

namespace byoc::ui {

namespace {

constexpr qreal kPadX = 10;
constexpr qreal kPadY = 6;
constexpr qreal kRadius = 5;
constexpr qreal kArrowLength = 7;
constexpr qreal kHullPad = 7;

QColor fillFor(GraphNodeKind kind, const GraphPalette& palette) {
  switch (kind) {
    case GraphNodeKind::Op: return palette.opFill;
    case GraphNodeKind::Call: return palette.callFill;
    case GraphNodeKind::Stub: return palette.stubFill;
    case GraphNodeKind::Tuple:
    case GraphNodeKind::Project:
    case GraphNodeKind::If: return palette.structureFill;
  }
  return palette.opFill;
}

qreal detailOf(const QStyleOptionGraphicsItem* option, const QPainter* painter) {
  return option->levelOfDetailFromTransform(painter->worldTransform());
}

/// Convex hull of points (monotone chain).
QPolygonF convexHull(std::vector<QPointF> points) {
  std::sort(points.begin(), points.end(), [](const QPointF& a, const QPointF& b) {
    return a.x() < b.x() || (a.x() == b.x() && a.y() < b.y());
  });
  auto cross = [](const QPointF& o, const QPointF& a, const QPointF& b) {
    return (a.x() - o.x()) * (b.y() - o.y()) - (a.y() - o.y()) * (b.x() - o.x());
  };
  std::vector<QPointF> hull(2 * points.size());
  std::size_t k = 0;
  for (const QPointF& p : points) {
    while (k >= 2 && cross(hull[k - 2], hull[k - 1], p) <= 0) --k;
    hull[k++] = p;
  }
  for (std::size_t i = points.size() - 1, lower = k + 1; i-- > 0;) {
    while (k >= lower && cross(hull[k - 2], hull[k - 1], points[i]) <= 0) --k;
    hull[k++] = points[i];
  }
  hull.resize(k > 0 ? k - 1 : 0);
  return QPolygonF(QList<QPointF>(hull.begin(), hull.end()));
}

}  // namespace

GraphFonts graphFonts() {
  GraphFonts fonts;
  fonts.title = QApplication::font();
  fonts.title.setPointSizeF(9.5);
  fonts.title.setWeight(QFont::DemiBold);
  fonts.detail = QApplication::font();
  fonts.detail.setPointSizeF(8);
  fonts.small = fonts.detail;
  fonts.small.setPointSizeF(7.5);
  return fonts;
}

QSizeF measureNode(const GraphNode& node, const GraphFonts& fonts) {
  const bool stub = node.kind == GraphNodeKind::Stub;
  QFontMetricsF title(stub ? fonts.detail : fonts.title);
  QFontMetricsF detail(stub ? fonts.small : fonts.detail);
  qreal width = title.horizontalAdvance(node.title);
  qreal height = title.height();
  if (!node.detail.isEmpty()) {
    const QStringList lines = node.detail.split(u'\n');
    for (const QString& line : lines) width = std::max(width, detail.horizontalAdvance(line));
    height += detail.height() * static_cast<qreal>(lines.size());
  }
  const qreal padX = stub ? kPadX * 0.6 : kPadX;
  const qreal padY = stub ? kPadY * 0.5 : kPadY;
  return QSizeF(std::ceil(std::max(width + 2 * padX, stub ? 24.0 : 64.0)), std::ceil(height + 2 * padY));
}

NodeItem::NodeItem(int unit, GraphNodeKind kind, QString title, QString detail, QRectF rect,
                   const GraphPalette* palette, const GraphFonts* fonts)
    : unit_(unit), kind_(kind), title_(std::move(title)), detail_(std::move(detail)), rect_(rect),
      palette_(palette), fonts_(fonts) {
  setFlags(ItemIsSelectable | ItemIsFocusable);
  setZValue(2);
  setToolTip(detail_.isEmpty() ? title_ : title_ + u'\n' + detail_);
}

QRectF NodeItem::boundingRect() const { return rect_.adjusted(-3, -3, 3, 3); }

void NodeItem::paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget*) {
  const GraphPalette& palette = *palette_;
  const bool stub = kind_ == GraphNodeKind::Stub;
  QColor fill = fillFor(kind_, palette);
  if (targetColour_.isValid()) fill = QColor::fromRgbF(
      fill.redF() * 0.75 + targetColour_.redF() * 0.25, fill.greenF() * 0.75 + targetColour_.greenF() * 0.25,
      fill.blueF() * 0.75 + targetColour_.blueF() * 0.25);
  QPen border(isSelected() ? palette.selection : (matched_ ? palette.searchMatch : palette.border),
              isSelected() || matched_ ? 2.2 : 1.0);
  if (unsupported_) border.setStyle(Qt::DashLine);
  if (targetColour_.isValid() && !isSelected() && !matched_) border = QPen(targetColour_.darker(110), 1.4);
  painter->setPen(border);
  painter->setBrush(unsupported_ ? palette.stubFill : fill);
  const qreal radius = stub ? rect_.height() / 2 : kRadius;
  painter->drawRoundedRect(rect_, radius, radius);
  if (targetColour_.isValid()) {
    painter->setPen(Qt::NoPen);
    painter->setBrush(targetColour_);
    painter->drawRoundedRect(QRectF(rect_.left() + 1, rect_.top() + 1, 4, rect_.height() - 2), 2, 2);
  }
  if (detailOf(option, painter) < kLabelDetail) return;
  const QFont& titleFont = stub ? fonts_->detail : fonts_->title;
  const QFont& detailFont = stub ? fonts_->small : fonts_->detail;
  QFontMetricsF titleMetrics(titleFont);
  qreal top = rect_.top() + (stub ? kPadY * 0.5 : kPadY);
  painter->setFont(titleFont);
  painter->setPen(unsupported_ ? palette.detailText : palette.text);
  QRectF titleRect(rect_.left(), top, rect_.width(), titleMetrics.height());
  if (detail_.isEmpty()) titleRect = rect_;
  painter->drawText(titleRect, Qt::AlignCenter, title_);
  if (detail_.isEmpty()) return;
  painter->setFont(detailFont);
  painter->setPen(palette.detailText);
  const qreal detailHeight = QFontMetricsF(detailFont).height() * static_cast<qreal>(detail_.count(u'\n') + 1);
  painter->drawText(QRectF(rect_.left(), top + titleMetrics.height(), rect_.width(), detailHeight),
                    Qt::AlignHCenter | Qt::AlignTop, detail_);
}

void NodeItem::setTargetColour(const QColor& colour) {
  if (targetColour_ == colour) return;  // an overlay sets each item once per node it shows
  targetColour_ = colour;
  update();
}

void NodeItem::setUnsupported(bool unsupported) {
  if (unsupported_ == unsupported) return;
  unsupported_ = unsupported;
  update();
}

void NodeItem::setMatched(bool matched) {
  if (matched_ == matched) return;
  matched_ = matched;
  update();
}

EdgeItem::EdgeItem(const QPolygonF& spline, QString label, const GraphPalette* palette, const GraphFonts* fonts)
    : label_(std::move(label)), palette_(palette), fonts_(fonts) {
  setZValue(1);
  if (spline.size() < 2) return;
  path_.moveTo(spline[0]);
  int i = 1;
  for (; i + 2 < spline.size(); i += 3) path_.cubicTo(spline[i], spline[i + 1], spline[i + 2]);
  for (; i < spline.size(); ++i) path_.lineTo(spline[i]);
  // dot ends the spline at the arrow's base; the head continues along the last tangent.
  QPointF end = spline.last();
  QPointF before = spline[spline.size() - 2];
  QPointF direction = end - before;
  qreal length = std::hypot(direction.x(), direction.y());
  direction = length > 0 ? direction / length : QPointF(0, 1);
  QPointF tip = end + direction * kArrowLength;
  QPointF normal(-direction.y(), direction.x());
  arrow_ << tip << end + normal * 3.5 << end - normal * 3.5;
  labelAt_ = path_.pointAtPercent(0.5);
}

QRectF EdgeItem::boundingRect() const {
  QRectF box = path_.boundingRect().united(arrow_.boundingRect()).adjusted(-2, -2, 2, 2);
  if (!label_.isEmpty()) box = box.united(QRectF(labelAt_, QSizeF(QFontMetricsF(fonts_->small).horizontalAdvance(label_) + 8, 14)));
  return box;
}

void EdgeItem::paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget*) {
  painter->setRenderHint(QPainter::Antialiasing);
  painter->setPen(QPen(palette_->edge, 1.1));
  painter->setBrush(Qt::NoBrush);
  painter->drawPath(path_);
  painter->setPen(Qt::NoPen);
  painter->setBrush(palette_->edge);
  painter->drawPolygon(arrow_);
  if (label_.isEmpty() || detailOf(option, painter) < kLabelDetail * 1.5) return;
  painter->setFont(fonts_->small);
  QFontMetricsF metrics(fonts_->small);
  QRectF box(labelAt_ + QPointF(4, -metrics.ascent() + 3), QSizeF(metrics.horizontalAdvance(label_) + 3, metrics.height()));
  QColor backdrop = palette_->background;
  backdrop.setAlphaF(0.85);
  painter->setPen(Qt::NoPen);
  painter->setBrush(backdrop);
  painter->drawRoundedRect(box, 2, 2);
  painter->setPen(palette_->edgeLabel);
  painter->drawText(labelAt_ + QPointF(5, 4), label_);
}

GroupItem::GroupItem(int group, QString label, bool composite, QRectF rect, const GraphPalette* palette,
                     const GraphFonts* fonts)
    : group_(group), label_(std::move(label)), composite_(composite), rect_(rect), palette_(palette), fonts_(fonts) {
  setZValue(0);
  setToolTip(QStringLiteral("%1 — double-click to collapse").arg(label_));
}

QRectF GroupItem::boundingRect() const { return rect_.adjusted(-1, -16, 1, 1); }

void GroupItem::paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget*) {
  painter->setPen(QPen(palette_->border, 1, Qt::DotLine));
  painter->setBrush(composite_ ? palette_->compositeFill : palette_->groupFill);
  painter->drawRoundedRect(rect_, 8, 8);
  if (detailOf(option, painter) < kLabelDetail * 0.6) return;
  painter->setFont(fonts_->detail);
  painter->setPen(palette_->groupText);
  painter->drawText(rect_.topLeft() + QPointF(8, -4), label_);
}

HullItem::HullItem(const std::vector<QRectF>& rects, QString label, QColor colour, bool dashed, const GraphFonts* fonts)
    : label_(std::move(label)), colour_(std::move(colour)), fonts_(fonts) {
  std::vector<QPointF> corners;
  for (const QRectF& rect : rects) {
    QRectF padded = rect.adjusted(-kHullPad, -kHullPad, kHullPad, kHullPad);
    corners.insert(corners.end(), {padded.topLeft(), padded.topRight(), padded.bottomLeft(), padded.bottomRight()});
  }
  QPolygonF hull = convexHull(corners);
  QPainterPath path;
  path.addPolygon(hull);
  path.closeSubpath();
  setPath(path);
  QPen pen(colour_, 2);
  pen.setJoinStyle(Qt::RoundJoin);
  if (dashed) pen.setStyle(Qt::DashLine);
  setPen(pen);
  QColor fill = colour_;
  fill.setAlphaF(0.10);
  setBrush(fill);
  setZValue(0.5);
  // Composite labels go under the hull so that they never cover the label of a region around it.
  labelAt_ = dashed ? path.boundingRect().bottomLeft() + QPointF(4, 13) : path.boundingRect().topLeft() + QPointF(4, -5);
  setToolTip(label_);
}

QRectF HullItem::boundingRect() const {
  QFontMetricsF metrics(fonts_->detail);
  QRectF label(labelAt_ - QPointF(3, metrics.ascent() + 1), QSizeF(metrics.horizontalAdvance(label_) + 6, metrics.height() + 2));
  return QGraphicsPathItem::boundingRect().united(label);
}

void HullItem::paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) {
  painter->setRenderHint(QPainter::Antialiasing);
  QStyleOptionGraphicsItem plain(*option);
  plain.state &= ~QStyle::State_Selected;
  QGraphicsPathItem::paint(painter, &plain, widget);
  if (label_.isEmpty() || option->levelOfDetailFromTransform(painter->worldTransform()) < kLabelDetail * 0.6) return;
  QFontMetricsF metrics(fonts_->detail);
  QRectF box(labelAt_ - QPointF(3, metrics.ascent() + 1), QSizeF(metrics.horizontalAdvance(label_) + 6, metrics.height() + 2));
  painter->setPen(Qt::NoPen);
  painter->setBrush(colour_);
  painter->drawRoundedRect(box, 3, 3);
  painter->setFont(fonts_->detail);
  painter->setPen(Qt::white);
  painter->drawText(labelAt_, label_);
}

}  // namespace byoc::ui
