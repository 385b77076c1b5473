#include "run/latency_chart.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QHorizontalBarSeries>
#include <QPen>
#include <QValueAxis>
#include <algorithm>

namespace byoc::ui {

namespace {

constexpr int kMinimumHeight = 140;
constexpr int kAxesHeight = 70;  ///< the title and the value axis
constexpr int kBarHeight = 22;

}  // namespace

LatencyChart::LatencyChart(QWidget* parent) : QChartView(parent) {
  setRenderHint(QPainter::Antialiasing);
  setMinimumHeight(kMinimumHeight);
  chart()->legend()->hide();
  chart()->setTitle(tr("Time per run (ms)"));
}

void LatencyChart::setTheme(Theme theme) {
  theme_ = theme;
  setTimings(RunTimings(timings_));
}

QColor LatencyChart::backgroundColour() const { return chart()->backgroundBrush().color(); }

void LatencyChart::setTimings(const RunTimings& timings) {
  timings_ = timings;
  bars_.clear();
  if (timings.runs() > 0) {
    for (const RegionInfo& region : timings.regions)
      bars_.emplace_back(QString::fromStdString(region.label() + " · " + region.codegen), timings.regionMilliseconds(region));
    bars_.emplace_back(tr("host"), timings.hostMilliseconds());
    // Slowest first: with dozens of regions, what costs the time is at the top.
    std::stable_sort(bars_.begin(), bars_.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
  }
  // Each bar keeps a readable height; the Run panel scrolls the chart when they do not all fit.
  setMinimumHeight(std::max(kMinimumHeight, kAxesHeight + kBarHeight * static_cast<int>(bars_.size())));
  const GraphPalette& colours = graphPalette(theme_);
  auto* chart = new QChart;
  chart->setTheme(theme_ == Theme::Dark ? QChart::ChartThemeDark : QChart::ChartThemeLight);
  chart->setBackgroundBrush(colours.background);
  chart->setBackgroundPen(QPen(colours.border));
  chart->setTitleBrush(colours.text);
  setBackgroundBrush(colours.background);
  chart->legend()->hide();
  chart->setTitle(timings.runs() > 0 ? tr("Time per run (ms), mean of %n run(s)", nullptr, timings.runs())
                                     : tr("Time per run (ms)"));
  chart->setMargins(QMargins(4, 4, 4, 4));
  if (!bars_.empty()) {
    auto* set = new QBarSet(tr("ms per run"));
    QStringList labels;
    double longest = 0;
    // A horizontal bar chart draws its first category at the bottom: add them bottom-up.
    for (auto it = bars_.rbegin(); it != bars_.rend(); ++it) {
      *set << it->second;
      labels << it->first;
      longest = std::max(longest, it->second);
    }
    set->setLabelColor(colours.text);
    set->setColor(categoryColour(0, theme_));
    set->setBorderColor(categoryColour(0, theme_));
    auto* series = new QHorizontalBarSeries;
    series->append(set);
    series->setLabelsVisible(true);
    series->setLabelsPosition(QAbstractBarSeries::LabelsOutsideEnd);
    series->setLabelsFormat(QStringLiteral("@value"));
    series->setLabelsPrecision(3);
    chart->addSeries(series);
    auto* categories = new QBarCategoryAxis;
    categories->append(labels);
    QFont small = categories->labelsFont();
    small.setPointSizeF(small.pointSizeF() * 0.85);
    categories->setLabelsFont(small);
    categories->setLabelsBrush(colours.text);
    categories->setGridLineVisible(false);
    categories->setTruncateLabels(false);
    chart->addAxis(categories, Qt::AlignLeft);
    series->attachAxis(categories);
    auto* values = new QValueAxis;
    values->setRange(0, longest > 0 ? longest * 1.25 : 1);
    values->applyNiceNumbers();
    values->setLabelFormat(QStringLiteral("%g"));
    values->setLabelsBrush(colours.detailText);
    values->setGridLineColor(colours.grid);
    chart->addAxis(values, Qt::AlignBottom);
    series->attachAxis(values);
  }
  QChart* previous = this->chart();
  setChart(chart);
  delete previous;
}

}  // namespace byoc::ui
