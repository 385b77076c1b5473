#include "export/module_export.h"

#include <QFutureWatcher>
#include <QMessageBox>
#include <QProgressDialog>
#include <QWidget>
#include <QtConcurrent/QtConcurrentRun>

#include "app/partition_job.h"
#include "export/export_writer.h"
#include "runtime/reference_check.h"

namespace byoc::ui {

Status exportPartitionedModule(const ModuleExportRequest& request,
                               const std::function<Status(const std::string& file)>& onFileWritten) {
  BYOC_ASSIGN_OR_RETURN(std::vector<Snapshot> steps, runPartitionFlow(request.loaded, request.targets, request.pipeline));
  ExportOptions options;
  options.producer = request.producer.toStdString();
  for (const auto& target : request.targets)
    options.targets.push_back({target->name, targetCodegen(*target)});
  options.onFileWritten = onFileWritten;
  return exportModule(steps.empty() ? request.loaded : steps.back().module, options, request.directory.toStdString());
}

ModuleExportJob::ModuleExportJob(ModuleExportRequest request, QWidget* parent) : QObject(parent), parent_(parent) {
  dialog_ = new QProgressDialog(tr("Partitioning %1…").arg(request.directory), tr("Cancel"), 0, 0, parent);
  dialog_->setWindowTitle(tr("Export Partitioned Module"));
  dialog_->setWindowModality(Qt::WindowModal);
  dialog_->setMinimumDuration(0);
  dialog_->setAutoClose(false);
  dialog_->setAutoReset(false);
  connect(dialog_, &QProgressDialog::canceled, this, &ModuleExportJob::cancel);
  dialog_->show();

  QPointer<QProgressDialog> dialog = dialog_;
  std::shared_ptr<std::atomic<bool>> flag = cancel_;
  auto onFileWritten = [flag, dialog](const std::string& file) -> Status {
    QMetaObject::invokeMethod(
        dialog.data(),
        [dialog, shown = QString::fromStdString(file)] {
          if (dialog) dialog->setLabelText(QObject::tr("Wrote %1").arg(shown));
        },
        Qt::QueuedConnection);
    if (flag->load()) return makeError("the export was cancelled");
    return Status::ok();
  };
  auto* watcher = new QFutureWatcher<Status>(this);
  connect(watcher, &QFutureWatcher<Status>::finished, this, [this, watcher, directory = request.directory] {
    Status status = watcher->result();
    if (dialog_) dialog_->deleteLater();
    if (!status) {
      Diagnostic error = status.error();
      if (cancel_->load()) error = makeError("the export was cancelled");
      auto* box = new QMessageBox(QMessageBox::Warning, tr("Export failed"),
                                  tr("Could not export to %1:\n%2").arg(directory, QString::fromStdString(error.str())),
                                  QMessageBox::Ok, parent_);
      box->setAttribute(Qt::WA_DeleteOnClose);
      box->open();
      emit finished(false, error);
    } else {
      emit finished(true, {});
    }
    deleteLater();
  });
  watcher->setFuture(QtConcurrent::run([request = std::move(request), onFileWritten] {
    return exportPartitionedModule(request, onFileWritten);
  }));
}

ModuleExportJob::~ModuleExportJob() { cancel_->store(true); }

QProgressDialog* ModuleExportJob::dialog() const { return dialog_.data(); }

void ModuleExportJob::cancel() { cancel_->store(true); }

}  // namespace byoc::ui
