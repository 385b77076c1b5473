#pragma once
/// \file
/// File → Export Graph Image: the graph recorded on the GUI thread, then drawn, encoded and written
/// on the job pool, with a progress dialog that can cancel it; the window stays responsive.

#include <QObject>
#include <QPointer>
#include <QString>

#include "support/job.h"

class QProgressDialog;
class QWidget;

namespace byoc::ui {

class GraphPage;

/// Writes images of graph pages, one at a time (a new one supersedes the one in flight).
class GraphImageJob : public QObject {
  Q_OBJECT
 public:
  /// Shows its progress over `window`.
  explicit GraphImageJob(QWidget* window);

  /// Writes `page`'s graph to `path` (SVG, or PNG for `.png`).
  void start(GraphPage& page, const QString& path);
  /// True while an image is being written.
  bool isRunning() const { return job_.isRunning(); }

 signals:
  /// The image was written (`error` empty) or not.
  void finished(const QString& path, const QString& error);

 private:
  QWidget* window_;
  QPointer<QProgressDialog> progress_;
  JobTracker job_{this};
};

}  // namespace byoc::ui
