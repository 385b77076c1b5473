#pragma once
/// \file
/// File > Export Partitioned Module…: the loaded model partitioned for the edited target (the flow
/// "Run Passes" runs) and written as an export directory (docs/export-format.md) by the core writer,
/// on a worker thread, with a progress dialog that can cancel it. The directory is written atomically:
/// on an error or a cancel it is left as it was, and the error is shown in a message box.

#include <QObject>
#include <QPointer>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ir/module.h"
#include "support/job.h"
#include "support/result.h"
#include "target/target.h"

class QProgressDialog;
class QWidget;

namespace byoc::ui {

/// What to export.
struct ModuleExportRequest {
  /// The loaded (typed, unpartitioned) model.
  Module loaded;
  /// Targets in priority order; the first is the edited one.
  std::vector<std::shared_ptr<const Target>> targets;
  /// Partitioning flow: "relay" or "relax".
  QString pipeline = QStringLiteral("relay");
  /// The export directory to write (replaced only if it is an export directory or empty).
  QString directory;
  /// Recorded in the manifest, e.g. "byoc-studio 0.1.0".
  QString producer;
  /// `loaded` already partitioned for `targets` by `pipeline` (the timeline's steps): exported
  /// as it is, without partitioning again.
  std::optional<Module> partitioned = std::nullopt;
};

/// Partitions and writes `request` (a pure function for a worker). `onFileWritten` is told each
/// file written; its error (e.g. a cancel) stops the export with nothing written. Errors name the
/// pass that failed or the file that could not be written.
Status exportPartitionedModule(const ModuleExportRequest& request,
                               const std::function<Status(const std::string& file)>& onFileWritten);

/// One export on a worker, with a progress dialog over `parent`.
class ModuleExportJob : public QObject {
  Q_OBJECT
 public:
  /// Starts exporting `request` at once; the job deletes itself after `finished`.
  ModuleExportJob(ModuleExportRequest request, QWidget* parent);
  ~ModuleExportJob() override;

  /// The progress dialog (its Cancel button cancels the export).
  QProgressDialog* dialog() const;
  /// Stops the export before its next file; it then fails with "the export was cancelled".
  void cancel();

 signals:
  /// The export ended; on failure `error` says why (and a message box shows it).
  void finished(bool ok, const byoc::Diagnostic& error);

 private:
  /// Shows the outcome and ends the job.
  void report(const Status& status, const QString& directory);

  QPointer<QProgressDialog> dialog_;
  QPointer<QWidget> parent_;
  bool cancelled_ = false;
  JobTracker job_{this};
};

}  // namespace byoc::ui
