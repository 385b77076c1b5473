/// \file
/// Painting of the canvas items.

#include "graph/graph_items.h"

#include <QApplication>
#include <QFontMetricsF>
#include <QPainter>
#include <QPainterPathStroker>
#include <QStyleOptionGraphicsItem>
#include <QVariantAnimation>
#include <algorithm>
#include <cmath>

namespace byoc::ui {

namespace {

constexpr qreal kPadX = 10;
constexpr qreal kPadY = 6;
constexpr qreal kRadius = 5;
constexpr qreal kArrowLength = 7;
/// How wide around its curve an edge can be clicked.
constexpr qreal kEdgeGrabWidth = 8;
constexpr int kFlashMilliseconds = 1200;
/// Smallest height on screen, in pixels, of a collapsed group's title drawn when zoomed out.
constexpr qreal kFarTitlePixels = 7;
/// How wide on screen, in pixels, such a title may be drawn before it is elided.
constexpr qreal kFarTitleWidthPixels = 130;
/// How far past each side of its box, in points, such a title may run.
constexpr qreal kFarTitleOverflow = 70;

QColor fillFor(GraphNodeKind kind, const GraphPalette& palette) {
  switch (kind) {
    case GraphNodeKind::Op: return palette.opFill;
    case GraphNodeKind::Call:
    case GraphNodeKind::LoopBack: return palette.callFill;
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

/// The title of a collapsed group's box when zoomed out past kLabelDetail, in a font enlarged to
/// read at its usual size on screen as far as the box is tall enough. A child of the box, so that
/// a title wider than the box may run over its sides (on a backdrop of its fill) without the box
/// taking more room.
class FarTitle : public QGraphicsItem {
 public:
  /// Qt item type of far titles.
  enum { Type = QGraphicsItem::UserType + 7 };
  int type() const override { return Type; }

  explicit FarTitle(NodeItem* box) : QGraphicsItem(box), box_(box) {
    setAcceptedMouseButtons(Qt::NoButton);
    setAcceptHoverEvents(false);
  }
  QRectF boundingRect() const override { return box_->rect().adjusted(-kFarTitleOverflow, 0, kFarTitleOverflow, 0); }

  void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget*) override {
    const qreal detail = detailOf(option, painter);
    if (detail >= kLabelDetail || detail < kShapeDetail) return;
    const QRectF& rect = box_->rect();
    QFont font = box_->fonts().title;
    const qreal natural = QFontMetricsF(font).height();
    const qreal scale = std::min(1 / detail, (rect.height() - kPadY) / natural);
    if (scale * natural * detail < kFarTitlePixels) return;  // too small to read even so
    font.setPointSizeF(font.pointSizeF() * scale);
    const QFontMetricsF metrics(font);
    const qreal room = std::min(std::max(rect.width() - kPadX, kFarTitleWidthPixels / detail), boundingRect().width() - kPadX);
    const QString text = metrics.elidedText(box_->title(), Qt::ElideMiddle, room);
    QRectF area(0, 0, metrics.horizontalAdvance(text) + kPadX, rect.height() - 2);
    area.moveCenter(rect.center());
    if (area.width() > rect.width()) {
      painter->setPen(Qt::NoPen);
      painter->setBrush(box_->fill());
      painter->drawRoundedRect(area, kRadius, kRadius);
    }
    painter->setFont(font);
    painter->setPen(box_->palette().text);
    painter->drawText(area, Qt::AlignCenter, text);
  }

 private:
  NodeItem* box_;
};

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

GraphNode collapsedGroupNode(const GraphGroup& group) {
  GraphNode node;
  node.kind = GraphNodeKind::Call;
  node.title = group.label;
  node.detail = group.detail.isEmpty() ? QObject::tr("%n node(s)", nullptr, group.allNodes) : group.detail;
  return node;
}

NodeItem::NodeItem(int unit, GraphNodeKind kind, QString title, QString detail, QRectF rect,
                   const GraphPalette* palette, const GraphFonts* fonts)
    : unit_(unit), kind_(kind), title_(std::move(title)), detail_(std::move(detail)), rect_(rect),
      palette_(palette), fonts_(fonts) {
  setFlags(ItemIsSelectable | ItemIsFocusable);
  setZValue(2);
  if (unit_ < 0) new FarTitle(this);
  setToolTip(detail_.isEmpty() ? title_ : title_ + u'\n' + detail_);
}

QRectF NodeItem::boundingRect() const { return rect_.adjusted(-3, -3, 3, 3); }

QColor NodeItem::fill() const {
  if (unsupported_) return palette_->stubFill;
  const QColor fill = fillFor(kind_, *palette_);
  return targetColour_.isValid() ? tintedFill(fill, targetColour_) : fill;
}


void NodeItem::paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget*) {
  const GraphPalette& palette = *palette_;
  const bool stub = kind_ == GraphNodeKind::Stub;
  const QColor fill = this->fill();
  QPen border(isSelected() ? palette.selection : (matched_ ? palette.searchMatch : palette.border),
              isSelected() || matched_ ? 2.2 : 1.0);
  if (unsupported_) border.setStyle(Qt::DashLine);
  if (targetColour_.isValid() && !isSelected() && !matched_) border = QPen(targetColour_.darker(110), 1.4);
  painter->setPen(border);
  painter->setBrush(fill);
  const qreal detail = detailOf(option, painter);
  if (detail < kShapeDetail) {
    painter->setRenderHint(QPainter::Antialiasing, false);
    painter->drawRect(rect_);
    return;
  }
  const qreal radius = stub ? rect_.height() / 2 : kRadius;
  painter->drawRoundedRect(rect_, radius, radius);
  if (targetColour_.isValid()) {
    painter->setPen(Qt::NoPen);
    painter->setBrush(targetColour_);
    painter->drawRoundedRect(QRectF(rect_.left() + 1, rect_.top() + 1, 4, rect_.height() - 2), 2, 2);
  }
  if (detail < kLabelDetail) return;  // a collapsed group's FarTitle draws its title
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

EdgeItem::EdgeItem(const QPolygonF& spline, QString label, int modelEdge, const GraphPalette* palette, const GraphFonts* fonts)
    : label_(std::move(label)), modelEdge_(modelEdge), palette_(palette), fonts_(fonts) {
  setZValue(1);
  if (modelEdge_ >= 0) setFlag(ItemIsSelectable);
  setToolTip(label_);  // the shape, also where no label fits
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
  middle_ = path_.pointAtPercent(0.5);
}

std::vector<QRectF> EdgeItem::labelSpots() const {
  if (label_.isEmpty()) return {};
  const QSizeF size = labelSize(label_, fonts_->small);
  const qreal top = middle_.y() - size.height() / 2;
  return {QRectF(QPointF(middle_.x() + 4, top), size), QRectF(QPointF(middle_.x() - 4 - size.width(), top), size)};
}

void EdgeItem::setLabelRect(const QRectF& rect) {
  if (rect == labelRect_) return;
  prepareGeometryChange();
  labelRect_ = rect;
}

QRectF EdgeItem::boundingRect() const {
  return path_.boundingRect().united(arrow_.boundingRect()).adjusted(-2, -2, 2, 2).united(labelRect_);
}

QPainterPath EdgeItem::shape() const {
  QPainterPathStroker stroker;
  stroker.setWidth(kEdgeGrabWidth);
  QPainterPath grabbed = stroker.createStroke(path_);
  grabbed.addPolygon(arrow_);
  if (!labelRect_.isNull()) grabbed.addRect(labelRect_);
  return grabbed;
}

void EdgeItem::paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget*) {
  const qreal detail = detailOf(option, painter);
  painter->setRenderHint(QPainter::Antialiasing, detail >= kShapeDetail);
  painter->setPen(isSelected() ? QPen(palette_->selection, 2.4) : QPen(palette_->edge, 1.1));
  painter->setBrush(Qt::NoBrush);
  painter->drawPath(path_);
  if (detail < kShapeDetail) return;
  painter->setPen(Qt::NoPen);
  painter->setBrush(isSelected() ? palette_->selection : palette_->edge);
  painter->drawPolygon(arrow_);
  if (labelRect_.isNull() || detail < kLabelDetail * 1.5) return;
  QColor backdrop = palette_->background;
  backdrop.setAlphaF(0.85);
  painter->setBrush(backdrop);
  painter->drawRoundedRect(labelRect_, 2, 2);
  painter->setFont(fonts_->small);
  painter->setPen(palette_->edgeLabel);
  painter->drawText(labelRect_, Qt::AlignCenter, label_);
}

GroupStyle groupStyle(const GraphGroup& group) {
  if (group.branchOf >= 0) return GroupStyle::Branch;
  if (group.loop) return GroupStyle::Loop;
  return group.composite ? GroupStyle::Composite : GroupStyle::Plain;
}

void setGroupPen(QPainter& painter, GroupStyle style, const GraphPalette& palette) {
  switch (style) {
    case GroupStyle::Plain:
    case GroupStyle::Composite:
      painter.setPen(QPen(palette.border, 1, Qt::DotLine));
      painter.setBrush(style == GroupStyle::Composite ? palette.compositeFill : palette.groupFill);
      return;
    case GroupStyle::Loop:
      painter.setPen(QPen(palette.border, 1.8));
      painter.setBrush(palette.groupFill);
      return;
    case GroupStyle::Branch:
      painter.setPen(QPen(palette.border, 1.2, Qt::DashLine));
      painter.setBrush(Qt::NoBrush);
      return;
  }
}

GroupItem::GroupItem(int group, QString label, GroupStyle style, QRectF rect, const GraphPalette* palette)
    : group_(group), label_(std::move(label)), style_(style), rect_(rect), palette_(palette) {
  setZValue(0);
  setToolTip(QStringLiteral("%1 — double-click to collapse").arg(label_));
}

QRectF GroupItem::boundingRect() const { return rect_.adjusted(-1, -1, 1, 1); }

void GroupItem::paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget*) {
  setGroupPen(*painter, style_, *palette_);
  if (detailOf(option, painter) < kShapeDetail) {
    painter->drawRect(rect_);
    return;
  }
  painter->drawRoundedRect(rect_, 8, 8);
}

HullItem::HullItem(const QPainterPath& outline, const QString& label, QColor colour, bool dashed)
    : QGraphicsPathItem(outline), dashed_(dashed) {
  QPen pen(colour, 2);
  pen.setJoinStyle(Qt::RoundJoin);
  if (dashed) pen.setStyle(Qt::DashLine);
  setPen(pen);
  colour.setAlphaF(0.10);
  setBrush(colour);
  setZValue(0.5);
  setToolTip(label);
}

void HullItem::paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) {
  painter->setRenderHint(QPainter::Antialiasing);
  QStyleOptionGraphicsItem plain(*option);
  plain.state &= ~QStyle::State_Selected;
  QGraphicsPathItem::paint(painter, &plain, widget);
}

LabelItem::LabelItem(PlacedLabel placed, QColor backdrop, QColor textColour, const QFont* font, const QString& toolTip)
    : placed_(std::move(placed)), backdrop_(std::move(backdrop)), textColour_(std::move(textColour)), font_(font) {
  setZValue(3);
  setToolTip(toolTip);
}

void LabelItem::paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget*) {
  if (detailOf(option, painter) < kLabelDetail * 0.6) return;
  if (backdrop_.isValid()) {
    painter->setRenderHint(QPainter::Antialiasing);
    painter->setPen(Qt::NoPen);
    painter->setBrush(backdrop_);
    painter->drawRoundedRect(placed_.rect, 3, 3);
  }
  painter->setFont(*font_);
  painter->setPen(textColour_);
  painter->drawText(placed_.rect, Qt::AlignCenter, placed_.text);
}

FlashRing::FlashRing(const QRectF& box, QColor colour) : ring_(box.adjusted(-6, -6, 6, 6)), colour_(std::move(colour)) {
  setZValue(4);
  setAcceptedMouseButtons(Qt::NoButton);
  auto* pulse = new QVariantAnimation(this);
  pulse->setStartValue(0.0);
  pulse->setEndValue(1.0);
  pulse->setDuration(kFlashMilliseconds);
  connect(pulse, &QVariantAnimation::valueChanged, this, [this](const QVariant& value) {
    // Three pulses that fade: |sin| over three half-periods, scaled down over time.
    const qreal t = value.toReal();
    setOpacity(std::abs(std::sin(t * 3 * M_PI)) * (1 - t * 0.6));
  });
  connect(pulse, &QVariantAnimation::finished, this, &QObject::deleteLater);
  pulse->start();
}

QRectF FlashRing::boundingRect() const { return ring_.adjusted(-3, -3, 3, 3); }

void FlashRing::paint(QPainter* painter, const QStyleOptionGraphicsItem*, QWidget*) {
  painter->setRenderHint(QPainter::Antialiasing);
  painter->setPen(QPen(colour_, 4));
  painter->setBrush(Qt::NoBrush);
  painter->drawRoundedRect(ring_, 9, 9);
}

QSizeF labelSize(const QString& text, const QFont& font) {
  QFontMetricsF metrics(font);
  return labelSize(metrics.horizontalAdvance(text), metrics);
}

QSizeF labelSize(qreal textWidth, const QFontMetricsF& metrics) {
  return {std::ceil(textWidth + 6), std::ceil(metrics.height() + 2)};
}

}  // namespace byoc::ui
