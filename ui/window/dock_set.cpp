/// \file
/// DockSet: the panels' views and their places.

#include "window/dock_set.h"

#include <QDockWidget>
#include <QHeaderView>
#include <QMainWindow>
#include <QMenu>
#include <QTableView>
#include <QTreeView>

#include "authoring/op_support_panel.h"
#include "authoring/pattern_dock.h"
#include "compare/compare_panel.h"
#include "models/diagnostics_model.h"
#include "models/module_tree_model.h"
#include "models/properties.h"
#include "models/region_list_model.h"
#include "panels/ir_text_view.h"
#include "panels/row_table.h"
#include "panels/timeline_widget.h"
#include "run/run_panel.h"

namespace byoc::ui {

namespace {

QDockWidget* dock(QMainWindow* window, const QString& title, const char* name, QWidget* widget, Qt::DockWidgetArea area) {
  auto* result = new QDockWidget(title, window);
  result->setObjectName(QString::fromLatin1(name));
  result->setWidget(widget);
  window->addDockWidget(area, result);
  return result;
}

}  // namespace

DockSet::DockSet(QMainWindow* window, const PanelModels& models) : window_(window) {
  window->setCorner(Qt::BottomLeftCorner, Qt::LeftDockWidgetArea);
  window->setCorner(Qt::BottomRightCorner, Qt::RightDockWidgetArea);
  moduleView_ = new QTreeView(window);
  moduleView_->setModel(models.moduleTree);
  moduleView_->setUniformRowHeights(true);
  moduleView_->setTextElideMode(Qt::ElideMiddle);
  moduleView_->header()->setStretchLastSection(false);
  moduleView_->header()->setSectionResizeMode(0, QHeaderView::Stretch);
  moduleView_->header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
  propertiesView_ = makeRowTable(models.properties, window);
  propertiesView_->setSelectionMode(QAbstractItemView::NoSelection);
  propertiesView_->horizontalHeader()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
  regionView_ = new QTreeView(window);
  regionView_->setModel(models.regions);
  regionView_->setUniformRowHeights(true);
  regionView_->setAlternatingRowColors(true);
  regionView_->setSelectionMode(QAbstractItemView::SingleSelection);
  regionView_->setTextElideMode(Qt::ElideMiddle);  // names differ at their ends: `…_main_12`
  regionView_->header()->setSectionResizeMode(0, QHeaderView::Stretch);
  regionView_->header()->setStretchLastSection(false);
  regionView_->header()->setMinimumSectionSize(48);
  for (int column : {1, 2, 3}) regionView_->header()->setSectionResizeMode(column, QHeaderView::ResizeToContents);
  diagnosticsView_ = makeRowTable(models.diagnostics, window);
  diagnosticsView_->setWordWrap(true);
  irText_ = new IrTextView(window);
  timeline_ = new TimelineWidget(models.snapshots, window);
  runPanel_ = new RunPanel(window);
  patternDock_ = new PatternDock(models.target, window);
  comparePanel_ = new ComparePanel(window);

  QDockWidget* module = dock(window, tr("Module"), "moduleDock", moduleView_, Qt::LeftDockWidgetArea);
  QDockWidget* timeline = dock(window, tr("Pass Timeline"), "timelineDock", timeline_, Qt::LeftDockWidgetArea);
  QDockWidget* properties =
      dock(window, tr("Properties"), "propertiesDock", propertiesView_, Qt::RightDockWidgetArea);
  QDockWidget* regions = dock(window, tr("Regions"), "regionsDock", regionView_, Qt::RightDockWidgetArea);
  QDockWidget* text = dock(window, tr("IR Text"), "textDock", irText_, Qt::BottomDockWidgetArea);
  QDockWidget* diagnostics =
      dock(window, tr("Diagnostics"), "diagnosticsDock", diagnosticsView_, Qt::BottomDockWidgetArea);
  QDockWidget* opSupport = dock(window, tr("Op Support"), "opSupportDock",
                                new OpSupportPanel(models.opSupport, models.colourer, models.target, window),
                                Qt::RightDockWidgetArea);
  QDockWidget* run = dock(window, tr("Run"), "runDock", runPanel_, Qt::BottomDockWidgetArea);
  window->splitDockWidget(module, timeline, Qt::Vertical);
  window->splitDockWidget(properties, regions, Qt::Vertical);
  window->tabifyDockWidget(regions, opSupport);
  regions->raise();
  window->tabifyDockWidget(text, diagnostics);
  window->tabifyDockWidget(text, run);
  QDockWidget* patterns = dock(window, tr("Patterns"), "patternsDock", patternDock_, Qt::BottomDockWidgetArea);
  QObject::connect(patterns, &QDockWidget::visibilityChanged, patternDock_, &PatternDock::setOutlinesShown);
  window->tabifyDockWidget(text, patterns);
  QDockWidget* compare = dock(window, tr("Compare"), "compareDock", comparePanel_, Qt::BottomDockWidgetArea);
  window->tabifyDockWidget(text, compare);
  text->raise();
  window->resizeDocks({module, properties}, {280, 330}, Qt::Horizontal);
  window->resizeDocks({text}, {220}, Qt::Vertical);
  moduleDock_ = module;
  timelineDock_ = timeline;
  propertiesDock_ = properties;
  textDock_ = text;
  viewMenu_ = new QMenu(tr("&View"), window);
  for (QDockWidget* each : {module, timeline, properties, regions, opSupport, text, diagnostics, run, patterns, compare})
    viewMenu_->addAction(each->toggleViewAction());
  viewMenu_->addSeparator();
}

void DockSet::fitTo(const QSize& size) {
  if (size.width() >= 1600 && size.height() >= 900) return;
  window_->tabifyDockWidget(timelineDock_, moduleDock_);
  timelineDock_->raise();
  // As narrow as their contents allow.
  window_->resizeDocks({timelineDock_, propertiesDock_}, {size.width() / 8, size.width() / 6}, Qt::Horizontal);
  window_->resizeDocks({textDock_}, {size.height() * 22 / 100}, Qt::Vertical);
}

QDockWidget* DockSet::raise(QWidget* panel) const {
  for (QDockWidget* dock : window_->findChildren<QDockWidget*>()) {
    if (dock->widget() != panel) continue;
    dock->show();
    dock->raise();
    return dock;
  }
  return nullptr;
}

}  // namespace byoc::ui
