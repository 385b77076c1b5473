#pragma once
/// \file
/// The main window's docked panels, built around the centre: Module and Pass Timeline on the
/// left; Properties, Regions and Op Support on the right; IR Text, Diagnostics, Run, Patterns and
/// Compare below. Each has a toggle in the View menu. The window connects them.

#include <QCoreApplication>

class QDockWidget;
class QMainWindow;
class QSize;
class QMenu;
class QTableView;
class QTreeView;
class QWidget;

namespace byoc::ui {

class ComparePanel;
class DiagnosticsModel;
class IrTextView;
class ModuleTreeModel;
class OpSupportModel;
class PatternDock;
class PropertiesModel;
class RegionListModel;
class RunPanel;
class SnapshotListModel;
class SupportColourer;
class TargetDocument;
class TimelineWidget;

/// What the docked panels show (owned by the window).
struct PanelModels {
  ModuleTreeModel* moduleTree;
  PropertiesModel* properties;
  RegionListModel* regions;
  DiagnosticsModel* diagnostics;
  SnapshotListModel* snapshots;
  TargetDocument* target;
  OpSupportModel* opSupport;
  SupportColourer* colourer;
};

/// The panels, each in a dock of the window.
class DockSet {
  Q_DECLARE_TR_FUNCTIONS(DockSet)

 public:
  /// Builds the panels over `models` and docks them in `window` (which owns them).
  DockSet(QMainWindow* window, const PanelModels& models);

  QTreeView* moduleView() const { return moduleView_; }
  QTreeView* regionView() const { return regionView_; }
  QTableView* diagnosticsView() const { return diagnosticsView_; }
  IrTextView* irText() const { return irText_; }
  TimelineWidget* timeline() const { return timeline_; }
  RunPanel* runPanel() const { return runPanel_; }
  PatternDock* patternDock() const { return patternDock_; }
  ComparePanel* comparePanel() const { return comparePanel_; }
  /// The View menu, holding a toggle for each dock.
  QMenu* viewMenu() const { return viewMenu_; }
  /// Shows and raises the dock holding `panel` (one of the above).
  QDockWidget* raise(QWidget* panel) const;
  /// Arranges the docks for a window of `size`: on a small screen (under 1600×900) the side docks
  /// narrow to their contents, the Module tree goes behind the Pass Timeline and the bottom docks
  /// lower, so that the graph keeps most of the window.
  void fitTo(const QSize& size);

 private:
  QMainWindow* window_;
  QDockWidget* moduleDock_;
  QDockWidget* timelineDock_;
  QDockWidget* propertiesDock_;
  QDockWidget* textDock_;
  QTreeView* moduleView_;
  QTableView* propertiesView_;
  QTreeView* regionView_;
  QTableView* diagnosticsView_;
  IrTextView* irText_;
  TimelineWidget* timeline_;
  RunPanel* runPanel_;
  PatternDock* patternDock_;
  ComparePanel* comparePanel_;
  QMenu* viewMenu_;
};

}  // namespace byoc::ui
