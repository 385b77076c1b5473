#pragma once
/// \file
/// The main window of BYOC Studio: graph tabs in the centre, linked panels around them.
///
/// Panels: Module (function tree), Properties, Regions (of the current step), IR Text (of the
/// current step or tab, selection linked both ways), Diagnostics and Pass Timeline. Models open
/// from the File menu, by drag and drop, from the recent-files list or as the built-in demo;
/// loading runs on a worker. The window state, recent files and theme persist in QSettings.
///
/// Pass steps are plugged in with `setSnapshots`: each step is drawn as an overlay on the stable
/// layout of the loaded graph, and any step (or any function of its module) opens as its own tab.
///
/// The window creates its parts (welcome page, graph tabs, docks, partition toolbar, steps job)
/// and connects them; each part is a class of its own in ui/window.

#include <QMainWindow>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <vector>

#include "window/model_document.h"
#include "snapshot/snapshot.h"
#include "support/job.h"
#include "target/target.h"
#include "theme.h"

class QStackedWidget;
class QLabel;
class QTimer;
class QToolBar;

namespace byoc::ui {

class DiagnosticsModel;
class DockSet;
class GraphPage;
class GraphTabs;
class IrTextView;
class ModuleTreeModel;
class OpSupportModel;
class PartitionBar;
class PassSteps;
class PatternDock;
class PropertiesModel;
class RecentFilesMenu;
class RegionListModel;
class ComparePanel;
class RunPanel;
class ModuleExportJob;
class SnapshotListModel;
class StepsJob;
class GraphImageJob;
class SupportColourer;
class TargetDocument;
class TargetFiles;
class TextLinks;
class TimelineWidget;

/// The application window.
class MainWindow : public QMainWindow {
  Q_OBJECT
 public:
  /// How long after a target edit the passes run again, so that typing does not start a run per key.
  static constexpr int kRepartitionDelayMs = 400;

  explicit MainWindow(QWidget* parent = nullptr);
  ~MainWindow() override;

  /// Opens a model file in the background; `opened` or `openFailed` follows.
  void openFile(const QString& path);
  /// Opens the built-in demo in the background.
  void openDemo();
  /// Loads saved pass steps (see openStepFiles) in the background and shows them after the loaded
  /// module as step 0; `stepsOpened` or `openFailed` follows.
  void openSteps(const QStringList& paths);
  /// Loads `targets`' first entry (a built-in name or a target file) as the edited target and runs
  /// the partitioning flow `pipeline` ("relay" or "relax") for it, then for the others in order.
  void runPartition(const QStringList& targets, const QString& pipeline);
  /// Runs the partitioning flow `pipeline` on the open model, on a worker, for the edited target
  /// first and then `lowerPriority`; the timeline then shows one step per pass (`stepsOpened`).
  /// The run in flight, if any, is cancelled; a run cancelled from the status bar keeps the
  /// steps shown.
  void runPartition(const QString& pipeline, std::vector<std::shared_ptr<const Target>> lowerPriority = {});
  /// Shows `snapshots` in the timeline (step 0 is normally the loaded module) and selects step 0;
  /// drops the notes of an earlier run drawn on the graph.
  void setSnapshots(std::vector<Snapshot> snapshots);
  /// Switches theme and remembers it.
  void setTheme(Theme theme);

  /// The open model, or null.
  const ModelDocument* document() const { return document_.get(); }
  /// The tab showing the loaded model's entry function, or null.
  GraphPage* mainPage() const;
  /// The tab in front, or null.
  GraphPage* currentPage() const;
  /// Number of graph tabs.
  int pageCount() const;
  TimelineWidget* timeline() const;
  /// The target being authored (what "Run Passes" partitions for).
  TargetDocument* targetDocument() const { return targetDocument_; }
  /// The Op Support table, the target's colours on the loaded graph, and the Target menu.
  OpSupportModel* opSupportModel() const { return opSupport_; }
  SupportColourer* supportColourer() const { return colourer_; }
  TargetFiles* targetFiles() const { return targetFiles_; }
  /// The pattern editor dock's widget.
  PatternDock* patternDock() const;
  IrTextView* irText() const;
  /// The Run dock's panel.
  RunPanel* runPanel() const;
  /// The Compare dock's panel.
  ComparePanel* comparePanel() const;
  /// Partition runs, with their progress and Cancel in the status bar.
  StepsJob* stepsJob() const { return stepsJob_; }
  /// Runs the open model in the Run dock (shown), as its Run button does.
  void runModel();
  /// Exports the open model partitioned for the edited target to `directory` (File > Export
  /// Partitioned Module…); null without a model.
  ModuleExportJob* exportPartitionedModule(const QString& directory);
  PropertiesModel* propertiesModel() const { return properties_; }
  DiagnosticsModel* diagnosticsModel() const { return diagnostics_; }
  ModuleTreeModel* moduleTreeModel() const { return moduleTree_; }
  RegionListModel* regionModel() const { return regions_; }
  SnapshotListModel* snapshotModel() const { return snapshots_; }
  /// Selects every node of `row` of the region list, as clicking it does.
  void selectRegion(const QModelIndex& row);
  /// Puts the properties of the node selected on the current graph on the clipboard, one
  /// `Property: value` line each (Ctrl+C on the graph).
  void copySelectedNode();
  /// Selects `nodes` of the loaded graph and shows them at a legible zoom.
  void selectNodes(const QList<int>& nodes);
  /// Opens `function` of the current step's module in its own tab (or shows it if already open).
  GraphPage* openFunctionTab(const QString& function);
  /// Opens step `step`'s entry function in its own tab.
  GraphPage* openStepTab(int step);
  /// What double-clicking `node` of `page` does: a call of a global function opens that function
  /// in its own tab (returned); anything else does nothing (null).
  GraphPage* activateNode(GraphPage* page, int node);

 signals:
  /// A model was opened and its graph tab created (the layout may still be running).
  void opened();
  /// Opening failed; `message` is the diagnostic.
  void openFailed(const QString& message);
  /// Saved pass steps were loaded into the timeline.
  void stepsOpened();

 protected:
  void closeEvent(QCloseEvent* event) override;
  void showEvent(QShowEvent* event) override;
  void dragEnterEvent(QDragEnterEvent* event) override;
  void dropEvent(QDropEvent* event) override;

 private:
  void buildMenus();
  QToolBar* buildMainToolbar();
  /// Connects the docked panels to the window's state.
  void connectPanels();
  /// The model and the edited target, the latter marked when modified.
  void updateTitle();
  void startLoading(const QString& label, std::function<Result<ModelDocument>()> load);
  void adopt(ModelDocument document);
  /// Shows `steps` after the loaded model (once the worker delivers them).
  void showSteps(const std::vector<Snapshot>& steps);
  /// Shows `diagnostic` in Diagnostics and the status bar, after `what` failed ("Partitioning
  /// failed", "Could not open"), and emits `openFailed`.
  void reportFailure(const QString& what, const Diagnostic& diagnostic);
  /// Opens a tab titled `title` on `function` (named `name`), printed as `text`.
  GraphPage* addPage(const Function& function, const QString& name, const QString& title,
                     std::shared_ptr<const TextLinks> text);
  /// Shows `zoom` in the status bar.
  void showZoom(qreal zoom);
  void onNodeSelected(GraphPage* page, int node);
  /// The text the IR panel shows for `page`: for the loaded graph, that of the selected step
  /// (null while it is being printed); for another tab, that of what the tab draws.
  std::shared_ptr<const TextLinks> textOf(const GraphPage* page) const;
  /// Shows the current page's text (if it changed) and its selected node in it; for the loaded
  /// graph at a step not printed yet, shows nothing until the step is printed.
  void showCurrentText();
  void onTextLocation(int line, int column);
  void onStepChanged(int step);
  /// Gives the Compare panel the steps shown as its side A.
  void updateComparisonSide();
  /// Draws ops' constant inputs as nodes of their own (or as lines of their op's box) from now on.
  void setWeightsAsNodes(bool asNodes);
  void onTabChanged();
  /// Asks for a model file and opens it.
  void chooseModelFile();
  const Module& currentModule() const;

  std::unique_ptr<ModelDocument> document_;
  /// How graphs are drawn (View → Show Weights as Nodes).
  GraphOptions graphOptions_;
  /// The pass steps and their texts (step 0 shows the document's text).
  PassSteps* steps_;
  /// The text in the IR panel.
  std::shared_ptr<const TextLinks> shownText_;
  /// True while a click in the text selects its node (the text then keeps its cursor).
  bool followingText_ = false;
  /// The docks are still in their first arrangement, to be fitted to the window when it shows.
  bool docksToFit_ = true;
  Theme theme_ = Theme::Light;

  QStackedWidget* centre_;
  GraphTabs* tabs_;
  ModuleTreeModel* moduleTree_;
  PropertiesModel* properties_;
  RegionListModel* regions_;
  DiagnosticsModel* diagnostics_;
  SnapshotListModel* snapshots_;
  TargetDocument* targetDocument_;
  OpSupportModel* opSupport_;
  SupportColourer* colourer_;
  std::unique_ptr<DockSet> docks_;
  RecentFilesMenu* recentFiles_;
  TargetFiles* targetFiles_ = nullptr;
  PartitionBar* partitionBar_;
  /// Partition runs and saved steps being read, with their progress in the status bar.
  StepsJob* stepsJob_;
  GraphImageJob* imageJob_;
  /// Re-runs the passes shortly after the target changes, when they have been run.
  QTimer* repartition_;
  /// The pass whose step the next computed steps open at ("": the loaded model); none: the last
  /// step, the result. A re-run keeps the pass shown, also when the flow or target changed its
  /// place in the list.
  std::optional<QString> resumePass_;
  /// What the partition the timeline shows was made for: the targets (as their JSON) and the
  /// flow; empty when its steps are no partition (none yet, or saved step files). Run and Export
  /// reuse that partition while it still matches, instead of partitioning again.
  std::string timelinePartition_;
  /// The same for the partition being computed.
  std::string pendingPartition_;
  /// The timeline's partitioned module when it was made for `targets` with `pipeline`, else null.
  const Module* reusablePartition(const std::vector<std::shared_ptr<const Target>>& targets, const QString& pipeline) const;
  /// Where the next computed steps open: the pass shown now, when there are steps.
  void keepPlaceForNextSteps();
  QLabel* zoomLabel_;
  /// The last run's time per outlined function, drawn on the graph under each partition's label
  /// (dropped when the steps are recomputed: the functions may then be others).
  std::map<QString, QString> hullNotes_;
  /// Loading a model.
  JobTracker loadJob_{this};
};

}  // namespace byoc::ui
