#pragma once
/// \file
/// The Compare dock: the partitioning the timeline ends with (side A) against another one (side
/// B): another target, the other flow, or an earlier partitioned step of the timeline. Compare runs
/// side B on a worker, then lists what differs (comparison_model.h) and hands the window one
/// overlay of both sides (comparison_overlay.h). A row picked in the list names its nodes.
///
/// The panel does not know the window: the window gives it side A with `setSideA` whenever the
/// steps are recomputed (the old comparison is then stale and goes), and answers `overlayChanged`
/// and `nodesChosen`.

#include <QWidget>
#include <memory>
#include <vector>

#include "graph/graph_model.h"
#include "ir/module.h"
#include "overlay/graph_overlay.h"
#include "pass/analysis/partition_diff.h"
#include "snapshot/snapshot.h"
#include "support/job.h"

class QCheckBox;
class QComboBox;
class QLabel;
class QPushButton;
class QTableView;

namespace byoc::ui {

class ComparisonModel;

/// Side A of a comparison: the loaded model, its graph, and the timeline that partitioned it.
struct ComparisonSideA {
  Module loaded;
  std::shared_ptr<const GraphModel> graph;
  /// How side A was made, e.g. `byoc-target, relay flow`.
  QString description;
  /// The snapshots of the timeline; side A is the last.
  std::vector<Snapshot> steps;
};

/// The Compare panel.
class ComparePanel : public QWidget {
  Q_OBJECT
 public:
  explicit ComparePanel(QWidget* parent = nullptr);
  ~ComparePanel() override;

  /// Compares from now on against `side`; forgets the comparison shown.
  void setSideA(ComparisonSideA side);
  /// Forgets side A and the comparison (no model, or no steps yet).
  void clear();
  /// Compares side A with the choice at `index` of the chooser (side B); a target runs on a worker.
  void compareWith(int index);
  /// Adds the target file `path` to the chooser (once) and returns its index.
  int addTargetChoice(const QString& path);
  /// Whether side B is being partitioned.
  bool isRunning() const { return job_.isRunning(); }

  /// The side-B chooser: `target, flow` for each built-in target and flow, the target files
  /// chosen so far (each with side A's flow), each earlier partitioned step, and "Target file…",
  /// which asks for a file.
  QComboBox* chooser() const { return chooser_; }
  QPushButton* compareButton() const { return compareButton_; }
  ComparisonModel* model() const { return model_; }
  QTableView* table() const { return table_; }
  /// The summary line, or what went wrong.
  QString summary() const;
  /// The overlay of the comparison shown (empty when none).
  const GraphOverlay& overlay() const { return overlay_; }

 signals:
  /// The overlay to draw on the loaded graph changed; empty means "draw the step again".
  void overlayChanged(const GraphOverlay& overlay);
  /// The user picked a row: its nodes of the loaded graph.
  void nodesChosen(const QList<int>& nodes);

 private:
  /// One entry of the chooser.
  struct Choice {
    QString target;    ///< a built-in target name or a target file; empty for a step
    QString pipeline;  ///< relay or relax
    int step = -1;     ///< an index into side A's steps
  };
  void fillChooser();
  /// Asks for a target file; its index in the chooser, or -1 when none was chosen.
  int askForTargetFile();
  void showComparison(const Module& sideB, PartitionDiff diff, const QString& description);
  void showError(const QString& message);
  void forgetComparison();
  void publishOverlay();

  ComparisonSideA sideA_;
  /// The flow of side A's timeline (relay or relax), which target files are run with.
  QString pipelineA_ = QStringLiteral("relay");
  std::vector<QString> targetFiles_;
  std::vector<Choice> choices_;
  PartitionDiff diff_;
  GraphOverlay overlay_;
  QComboBox* chooser_;
  QPushButton* compareButton_;
  QCheckBox* showOnGraph_;
  QLabel* summary_;
  ComparisonModel* model_;
  QTableView* table_;
  JobTracker job_{this};
};

}  // namespace byoc::ui
