/// \file
/// GraphImageJob.

#include "window/graph_image_job.h"

#include <QProgressDialog>
#include <utility>

#include "graph/graph_image.h"
#include "graph/graph_page.h"

namespace byoc::ui {

namespace {

/// How long an export runs before its progress is shown.
constexpr int kShowProgressAfterMs = 400;
/// Pixels per scene unit of a PNG.
constexpr double kPngScale = 2.0;

}  // namespace

GraphImageJob::GraphImageJob(QWidget* window) : QObject(window), window_(window) {}

void GraphImageJob::start(GraphPage& page, const QString& path) {
  GraphRecording recording = page.record();
  if (progress_) progress_->deleteLater();
  progress_ = new QProgressDialog(tr("Writing %1…").arg(path), tr("Cancel"), 0, 100, window_);
  progress_->setWindowTitle(tr("Export Graph Image"));
  progress_->setMinimumDuration(kShowProgressAfterMs);
  progress_->setAutoClose(false);
  progress_->setValue(0);
  connect(progress_, &QProgressDialog::canceled, this, [this] { job_.cancel(); });
  job_.start(
      [recording = std::move(recording), path, dialog = progress_](const JobControl& control) {
        QString error;
        auto report = [&control, dialog](int percent) {
          control.post([dialog, percent] {
            if (dialog) dialog->setValue(percent);
          });
          return !control.isCancelled();
        };
        writeGraphImage(recording, path, graphImageFormatOf(path), kPngScale, report, &error);
        return error;
      },
      [this, path](QString error) {
        if (progress_) progress_->deleteLater();
        emit finished(path, error);
      });
}

}  // namespace byoc::ui
