#pragma once
/// \file
/// Pass steps computed on a worker for the main window: a partition run of the loaded model, or
/// saved steps being read. While a partition runs, the status bar shows which pass is running
/// ("Partitioning for dnnl: MergeCompilerRegions (5 of 8)"), a progress bar and a Cancel button
/// (Esc also cancels).
///
/// Only the newest request reports: a new one cancels the one in flight and drops its result.
/// A cancelled run ends with `cancelled`, not `failed`: the caller keeps the steps it showed.

#include <QObject>
#include <QString>
#include <functional>
#include <memory>
#include <vector>

#include "ir/module.h"
#include "snapshot/snapshot.h"
#include "support/job.h"
#include "support/result.h"
#include "target/target.h"

class QLabel;
class QProgressBar;
class QPushButton;
class QShortcut;
class QStatusBar;
class QWidget;

namespace byoc::ui {

/// Steps on a worker, with progress and Cancel in a status bar.
class StepsJob : public QObject {
  Q_OBJECT
 public:
  /// What a request computes; it should poll the control's cancel flag.
  using Work = std::function<Result<std::vector<Snapshot>>(const JobControl& control)>;

  /// Puts its (hidden) progress widgets in `bar`; Esc in `window` cancels while a run goes on.
  StepsJob(QStatusBar* bar, QWidget* window);
  ~StepsJob() override;

  /// Partitions `loaded` for `targets` (in priority order) with the flow `pipeline`, showing
  /// the progress of each pass.
  void partition(const Module& loaded, std::vector<std::shared_ptr<const Target>> targets, const QString& pipeline);
  /// Computes steps with `work`, showing `what` meanwhile.
  void start(const QString& what, Work work);
  /// Asks the running request to stop; `cancelled` follows once it has.
  void cancel();
  /// Drops the running request: nothing follows.
  void discard();
  /// Whether a request is going on.
  bool isRunning() const { return job_.isRunning(); }

  /// The line saying what runs ("Partitioning for dnnl: MergeComposite (2 of 8)").
  QString progressText() const;
  /// Passes done (value) out of all (maximum); busy while their number is not known.
  QProgressBar* progressBar() const { return progress_; }
  QPushButton* cancelButton() const { return cancel_; }

 signals:
  /// The steps of the newest request (without the loaded module).
  void finished(const std::vector<byoc::ui::Snapshot>& steps);
  /// The newest request failed.
  void failed(const byoc::Diagnostic& error);
  /// The newest request stopped because it was cancelled.
  void cancelled();
  /// The progress line changed to `text` (`progressText()`).
  void progressed(const QString& text);

 private:
  /// Runs `work`, showing `what`, then `cancelledMessage` in the status bar if it is cancelled.
  void run(const QString& what, const QString& cancelledMessage, Work work);
  /// Shows `text` and `done` of `total` (0: not known).
  void showProgress(const QString& text, int done, int total);
  void setShown(bool shown);

  QStatusBar* bar_;
  QWidget* indicator_;
  QLabel* label_;
  QProgressBar* progress_;
  QPushButton* cancel_;
  QShortcut* escape_;
  /// Whether Cancel was pressed for the running request.
  bool cancelRequested_ = false;
  QString cancelledMessage_;
  JobTracker job_{this};
};

}  // namespace byoc::ui
