#pragma once
/// \file
/// The legend of the graph canvas: what the colours and line styles of the current picture mean.
///
/// Built from what is drawn (the step's overlay, pattern-match outlines, search matches, loop and
/// branch boxes), so it lists only what the picture shows: one row per target tint, then the
/// outline kinds present, then the boxes of control flow.

#include <QWidget>
#include <vector>

#include "overlay/graph_overlay.h"
#include "theme.h"

namespace byoc::ui {

/// One row of the legend.
struct LegendEntry {
  enum class Swatch { Tint, DashedBox, DashedOutline, SolidOutline, Border, LoopBox, BranchBox };
  Swatch swatch = Swatch::Tint;
  QColor colour;
  QString text;
};

/// What the picture shows besides the overlay.
struct Decorations {
  bool patternMatches = false;  ///< outlines of the edited pattern's matches
  bool matchInputs = false;     ///< dashed rings around the inputs their wildcards matched
  bool searchMatches = false;
  bool loops = false;     ///< boxes of functions that call themselves
  bool branches = false;  ///< `then`/`else` boxes
};

/// What the picture's decorations mean, in drawing order (see the file comment).
std::vector<LegendEntry> legendEntries(const GraphOverlay& overlay, const Decorations& shown, Theme theme);

/// A small translucent panel listing legend entries, drawn over the view.
class GraphLegend : public QWidget {
  Q_OBJECT
 public:
  explicit GraphLegend(QWidget* parent = nullptr);
  /// Shows `entries` (hidden when there are none or the user turned the legend off).
  void setEntries(std::vector<LegendEntry> entries, Theme theme);
  const std::vector<LegendEntry>& entries() const { return entries_; }
  /// Whether the user wants the legend (it still hides while there is nothing to explain).
  void setWanted(bool wanted);
  /// Whether the legend lists its entries on one line, each by its short text (a small view).
  void setCompact(bool compact);
  bool compact() const { return compact_; }
  /// The size of the full list, whether or not it is compact now.
  QSize fullSize() const;
  QSize sizeHint() const override;

 protected:
  void paintEvent(QPaintEvent* event) override;

 private:
  std::vector<LegendEntry> entries_;
  Theme theme_ = Theme::Light;
  bool wanted_ = true;
  bool compact_ = false;
};

/// An entry's text up to its explanation: `composite` for `composite (a pattern's match)`.
QString shortLegendText(const QString& text);

}  // namespace byoc::ui
