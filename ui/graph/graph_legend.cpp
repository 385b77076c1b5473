/// \file
/// legendEntries and the GraphLegend panel.

#include "graph/graph_legend.h"

#include <QPainter>

#include "graph/graph_items.h"

namespace byoc::ui {

namespace {

constexpr int kPad = 8;
constexpr int kRow = 18;
constexpr int kSwatchWidth = 26;
constexpr int kSwatchHeight = 12;

bool hasHull(const GraphOverlay& overlay, OverlayHull::Kind kind) {
  for (const OverlayHull& hull : overlay.hulls) {
    if (hull.kind == kind) return true;
  }
  return false;
}

}  // namespace

std::vector<LegendEntry> legendEntries(const GraphOverlay& overlay, const Decorations& shown, Theme theme) {
  using Swatch = LegendEntry::Swatch;
  std::vector<LegendEntry> entries;
  const std::vector<QString> targets = overlay.targets();
  for (std::size_t i = 0; i < targets.size(); ++i) {
    entries.push_back({Swatch::Tint, categoryColour(static_cast<int>(i), theme), QObject::tr("runs on %1").arg(targets[i])});
  }
  bool unsupported = false;
  for (const auto& [node, target] : overlay.nodeTargets) unsupported = unsupported || target == kDefaultTarget;
  if (unsupported) entries.push_back({Swatch::DashedBox, graphPalette(theme).border, QObject::tr("no target takes it: stays on the host")});
  if (hasHull(overlay, OverlayHull::Kind::Composite))
    entries.push_back({Swatch::DashedOutline, compositeHullColour(theme), QObject::tr("composite (a pattern's match)")});
  if (hasHull(overlay, OverlayHull::Kind::Region))
    entries.push_back({Swatch::SolidOutline, categoryColour(0, theme), QObject::tr("region of one target (a colour each)")});
  if (hasHull(overlay, OverlayHull::Kind::Partition))
    entries.push_back({Swatch::SolidOutline, categoryColour(0, theme), QObject::tr("outlined function (a colour each)")});
  if (shown.patternMatches) entries.push_back({Swatch::SolidOutline, matchOutlineColour(theme), QObject::tr("match of the edited pattern")});
  if (shown.matchInputs)
    entries.push_back({Swatch::DashedOutline, matchOutlineColour(theme), QObject::tr("input of a match (what a * matched)")});
  if (shown.searchMatches) entries.push_back({Swatch::Border, graphPalette(theme).searchMatch, QObject::tr("search match")});
  if (shown.loops)
    entries.push_back({Swatch::LoopBox, graphPalette(theme).border, QObject::tr("loop (a function calling itself; \u21BB: next iteration)")});
  if (shown.branches)
    entries.push_back({Swatch::BranchBox, graphPalette(theme).border, QObject::tr("then / else: what only that side of an if runs")});
  return entries;
}

GraphLegend::GraphLegend(QWidget* parent) : QWidget(parent) {
  setAttribute(Qt::WA_TransparentForMouseEvents);
  hide();
}

void GraphLegend::setEntries(std::vector<LegendEntry> entries, Theme theme) {
  entries_ = std::move(entries);
  theme_ = theme;
  resize(sizeHint());
  setVisible(wanted_ && !entries_.empty());
  update();
}

void GraphLegend::setWanted(bool wanted) {
  wanted_ = wanted;
  setVisible(wanted_ && !entries_.empty());
}

void GraphLegend::setCompact(bool compact) {
  if (compact == compact_) return;
  compact_ = compact;
  resize(sizeHint());
  update();
}

QSize GraphLegend::fullSize() const {
  int width = 0;
  for (const LegendEntry& entry : entries_) width = std::max(width, fontMetrics().horizontalAdvance(entry.text));
  return {width + kSwatchWidth + 3 * kPad, static_cast<int>(entries_.size()) * kRow + 2 * kPad - 4};
}

QSize GraphLegend::sizeHint() const {
  if (!compact_) return fullSize();
  int width = kPad;
  for (const LegendEntry& entry : entries_)
    width += kSwatchWidth + kPad / 2 + fontMetrics().horizontalAdvance(shortLegendText(entry.text)) + kPad * 2;
  return {width - kPad, kRow + 2 * kPad - 4};
}

QString shortLegendText(const QString& text) {
  qsizetype cut = text.size();
  for (const QString& explanation : {QStringLiteral(" ("), QStringLiteral(":")}) {
    const qsizetype at = text.indexOf(explanation);
    if (at >= 0) cut = std::min(cut, at);
  }
  return text.left(cut);
}

void GraphLegend::paintEvent(QPaintEvent*) {
  const GraphPalette& palette = graphPalette(theme_);
  QPainter painter(this);
  painter.setRenderHint(QPainter::Antialiasing);
  QColor backdrop = palette.background;
  backdrop.setAlphaF(0.9);
  painter.setPen(QPen(palette.border, 1));
  painter.setBrush(backdrop);
  painter.drawRoundedRect(QRectF(rect()).adjusted(0.5, 0.5, -0.5, -0.5), 6, 6);
  int top = kPad, left = kPad;
  for (const LegendEntry& entry : entries_) {
    const QRectF swatch(left, top + (kRow - 4 - kSwatchHeight) / 2.0, kSwatchWidth, kSwatchHeight);
    switch (entry.swatch) {
      case LegendEntry::Swatch::Tint:
        painter.setPen(QPen(entry.colour.darker(110), 1.4));
        painter.setBrush(tintedFill(palette.opFill, entry.colour));
        break;
      case LegendEntry::Swatch::DashedBox:
        painter.setPen(QPen(entry.colour, 1, Qt::DashLine));
        painter.setBrush(palette.stubFill);
        break;
      case LegendEntry::Swatch::DashedOutline:
      case LegendEntry::Swatch::SolidOutline: {
        QColor fill = entry.colour;
        fill.setAlphaF(0.15);
        painter.setPen(QPen(entry.colour, 2, entry.swatch == LegendEntry::Swatch::DashedOutline ? Qt::DashLine : Qt::SolidLine));
        painter.setBrush(fill);
        break;
      }
      case LegendEntry::Swatch::Border:
        painter.setPen(QPen(entry.colour, 2.2));
        painter.setBrush(palette.opFill);
        break;
      case LegendEntry::Swatch::LoopBox: setGroupPen(painter, GroupStyle::Loop, palette); break;
      case LegendEntry::Swatch::BranchBox: setGroupPen(painter, GroupStyle::Branch, palette); break;
    }
    painter.drawRoundedRect(swatch, 3, 3);
    painter.setPen(palette.text);
    const QString text = compact_ ? shortLegendText(entry.text) : entry.text;
    const int textLeft = left + kSwatchWidth + (compact_ ? kPad / 2 : kPad);
    painter.drawText(QRectF(textLeft, top, width() - textLeft, kRow - 4), Qt::AlignVCenter | Qt::AlignLeft, text);
    if (compact_) {
      left = textLeft + fontMetrics().horizontalAdvance(text) + kPad * 2;
    } else {
      top += kRow;
    }
  }
}

}  // namespace byoc::ui
