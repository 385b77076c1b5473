#include "exports/module_export.h"

#include <QMessageBox>
#include <QProgressDialog>
#include <QWidget>

#include "session/export_partitioned.h"
#include "session/partitioning.h"

namespace byoc::ui {

Status exportPartitionedModule(const ModuleExportRequest& request,
                               const std::function<Status(const std::string& file)>& onFileWritten) {
  PassRun run;
  if (!request.partitioned) {
    BYOC_ASSIGN_OR_RETURN(PartitionPipeline flow, parsePartitionPipeline(request.pipeline.toStdString()));
    BYOC_ASSIGN_OR_RETURN(run, partitionModel(request.loaded, {request.targets, flow}));
  }
  const OpenedModel opened{{}, request.loaded, std::nullopt, nullptr};
  return exportPartitioned(opened, request.partitioned ? *request.partitioned : partitionedModule(run, request.loaded), request.targets,
                           {request.directory.toStdString(), request.producer.toStdString(), onFileWritten});
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

  const QString directory = request.directory;
  job_.start(
      [this, request = std::move(request)](const JobControl& control) {
        // The dialog is touched only in posted calls, which run on this job's thread while it lives.
        auto onFileWritten = [this, control](const std::string& file) -> Status {
          control.post([this, shown = QString::fromStdString(file)] {
            if (dialog_) dialog_->setLabelText(tr("Wrote %1").arg(shown));
          });
          if (control.isCancelled()) return makeError("the export was cancelled");
          return Status::ok();
        };
        return exportPartitionedModule(request, onFileWritten);
      },
      [this, directory](const Status& status) { report(status, directory); });
}

void ModuleExportJob::report(const Status& status, const QString& directory) {
  if (dialog_) dialog_->deleteLater();
  if (!status) {
    Diagnostic error = status.error();
    if (cancelled_) error = makeError("the export was cancelled");
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
}

ModuleExportJob::~ModuleExportJob() = default;

QProgressDialog* ModuleExportJob::dialog() const { return dialog_.data(); }

void ModuleExportJob::cancel() {
  cancelled_ = true;
  job_.cancel();
}

}  // namespace byoc::ui
