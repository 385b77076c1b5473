#pragma once
/// \file
/// The per-region latency chart of the Run panel: one horizontal bar per offloaded region (labelled
/// with the codegen that ran it) and one for the host (everything not offloaded), in milliseconds
/// per run, from the timed runs, slowest first; drawn in the colours of the app's theme (theme.h).

#include <QChartView>
#include <QString>
#include <utility>
#include <vector>

#include "runtime/run_timing.h"
#include "theme.h"

namespace byoc::ui {

/// A bar per region plus the host.
class LatencyChart : public QChartView {
  Q_OBJECT
 public:
  explicit LatencyChart(QWidget* parent = nullptr);

  /// Draws `timings` (no bars when it has no runs).
  void setTimings(const RunTimings& timings);
  /// Draws the chart (now and from now on) in `theme`'s colours.
  void setTheme(Theme theme);
  /// The colour the chart's background is drawn in.
  QColor backgroundColour() const;
  /// The bars drawn: label and milliseconds per run, top (slowest) to bottom.
  const std::vector<std::pair<QString, double>>& bars() const { return bars_; }

 private:
  std::vector<std::pair<QString, double>> bars_;
  RunTimings timings_;
  Theme theme_ = Theme::Light;
};

}  // namespace byoc::ui
