#include "run/latency_chart.h"

#include <QApplication>
#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QHorizontalBarSeries>
#include <QPalette>
#include <QValueAxis>
#include <algorithm>

namespace byoc::ui {

LatencyChart::LatencyChart(QWidget* parent) : QChartView(parent) {
  setRenderHint(QPainter::Antialiasing);
  setMinimumHeight(140);
  chart()->legend()->hide();
  chart()->setTitle(tr("Time per run (ms)"));
}

void LatencyChart::setTimings(const RunTimings& timings) {
  bars_.clear();
  if (timings.runs() > 0) {
    for (const RegionInfo& region : timings.regions)
      bars_.emplace_back(QString::fromStdString(region.label() + " · " + region.codegen), timings.regionMilliseconds(region));
    bars_.emplace_back(tr("host"), timings.hostMilliseconds());
  }
  auto* chart = new QChart;
  const bool dark = QApplication::palette().color(QPalette::Window).lightness() < 128;
  chart->setTheme(dark ? QChart::ChartThemeDark : QChart::ChartThemeLight);
  chart->setBackgroundBrush(QApplication::palette().color(QPalette::Base));
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
    set->setLabelColor(chart->titleBrush().color());
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
    categories->setTruncateLabels(false);
    chart->addAxis(categories, Qt::AlignLeft);
    series->attachAxis(categories);
    auto* values = new QValueAxis;
    values->setRange(0, longest > 0 ? longest * 1.25 : 1);
    values->applyNiceNumbers();
    values->setLabelFormat(QStringLiteral("%g"));
    chart->addAxis(values, Qt::AlignBottom);
    series->attachAxis(values);
  }
  QChart* previous = this->chart();
  setChart(chart);
  delete previous;
}

}  // namespace byoc::ui
