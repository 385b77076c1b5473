#pragma once
/// \file
/// The Run dock: the inputs of the loaded model (random from a seed, in the shape typed for an
/// input with `?` dimensions, or a `.npy` file each), Run and Cancel, a progress bar, then the
/// outputs compared with the reference (verdict, per-output errors) and the per-region latency
/// chart; a line says which codegen ran the regions. An export runs as exported (see run_job.h).
///
/// The panel does not know the window: pressing Run emits `runRequested`, and the window answers
/// with `run(targets, pipeline)` for the target it edits. The work runs on a worker thread
/// (runAndCompare); Cancel sets the flag the executor polls between ops, so a run stops within one op.

#include <QWidget>
#include <map>
#include <memory>
#include <optional>

#include "ir/module.h"
#include "run/run_job.h"
#include "support/job.h"
#include "support/result.h"
#include "theme.h"

class QCheckBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTableView;

namespace byoc::ui {

class LatencyChart;
class RunInputsModel;
class RunResultsModel;

/// The Run panel.
class RunPanel : public QWidget {
  Q_OBJECT
 public:
  explicit RunPanel(QWidget* parent = nullptr);
  ~RunPanel() override;

  /// Shows the inputs of `loaded` and forgets the last results; `exported` when `loaded` is an export's module.
  void setModel(const Module& loaded, std::shared_ptr<const LoadedExport> exported = nullptr);
  /// Partitions the model for `targets` with `pipeline` (an export: as it is) and runs it against
  /// the reference on a worker; `finished` follows. Does nothing without a model or while a run is going on.
  /// `partitioned`, when given, is the model already partitioned for them (RunRequest::partitioned).
  void run(std::vector<std::shared_ptr<const Target>> targets, const QString& pipeline,
           std::optional<Module> partitioned = std::nullopt);
  /// Asks the running run to stop; it ends with `finished(false)` and "the run was cancelled".
  void cancel();
  /// Whether a run is going on.
  bool isRunning() const;
  /// Draws the latency chart in `theme`.
  void setTheme(Theme theme);
  /// Marks the results shown as out of date for `reason` ("the target was edited"), until the
  /// next run; nothing is marked when no run has completed. An empty reason clears the mark.
  void setStale(const QString& reason);
  /// The out-of-date line over the results, empty when they are current.
  QString staleNote() const;

  RunInputsModel* inputsModel() const { return inputs_; }
  RunResultsModel* resultsModel() const { return results_; }
  LatencyChart* chart() const { return chart_; }
  QPushButton* runButton() const { return runButton_; }
  QPushButton* cancelButton() const { return cancelButton_; }
  /// Stages done of the running run (value) out of all (maximum).
  QProgressBar* progressBar() const { return progress_; }
  /// Timed runs made after the first (for the chart).
  QSpinBox* timedRunsBox() const { return timedRuns_; }
  /// "Trust compiled code": shown for an export with plugin regions, unchecked for every model set.
  QCheckBox* trustCompiledBox() const { return trustCompiled_; }
  /// The verdict line ("Agrees with the reference…", "Differs…", "Not compared…", or the error).
  QString verdict() const;
  /// Which codegens ran the regions of the last run (codegenSummary), empty before a run.
  QString codegens() const;
  /// The last completed run's report, or null.
  const RunReport* lastReport() const { return lastReport_.get(); }
  /// The message under the inputs (a refused file), empty when none.
  QString inputMessage() const;
  /// Fills row `row` of the inputs from `path`; a refused file is shown under the inputs and returned.
  Status loadInputFile(int row, const QString& path);

 signals:
  /// The user pressed Run.
  void runRequested();
  /// A run ended: `ok` when it completed (agreeing or not), else it failed or was cancelled.
  void finished(bool ok);
  /// A run or an input failed: the diagnostic to list.
  void failed(const byoc::Diagnostic& diagnostic);
  /// After a run: per-region time, keyed by the region's global symbol (the hull label on the graph).
  void regionNotesChanged(const std::map<QString, QString>& notes);

 private:
  void chooseInputFile();
  /// Shows `message` under the inputs (hidden when empty).
  void showInputMessage(const QString& message);
  void showReport(const RunReport& report);
  void setRunning(bool running);

  Module loaded_;
  std::shared_ptr<const LoadedExport> exported_;
  std::unique_ptr<RunReport> lastReport_;
  bool hasModel_ = false;
  RunInputsModel* inputs_;
  RunResultsModel* results_;
  QTableView* inputsView_;
  QTableView* resultsView_;
  LatencyChart* chart_;
  QLabel* inputMessage_;
  QLabel* verdict_;
  QLabel* stale_;
  QLabel* codegens_;
  QProgressBar* progress_;
  QPushButton* runButton_;
  QPushButton* cancelButton_;
  QSpinBox* timedRuns_;
  QCheckBox* trustCompiled_;
  JobTracker job_{this};
};

}  // namespace byoc::ui
