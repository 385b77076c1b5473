#pragma once
/// \file
/// Runs Graphviz in the `byoc-layout` child process from a worker thread.
///
/// `start(makeDot)` hands work to a pool thread that writes the DOT text (so measuring thousands of
/// nodes never blocks the UI thread), starts the helper, feeds it, waits for it
/// while polling a cancel flag, and parses its output. Exactly one of `finished` or `failed` is
/// emitted on the object's thread for the latest `start` that is neither cancelled nor superseded;
/// a newer `start` or `cancel()` kills the running helper within one polling interval (50 ms).
/// A crash, a non-zero exit, a timeout or unreadable output becomes `failed` with a message.

#include <QObject>
#include <QString>
#include <functional>

#include "layout/plain_layout.h"
#include "support/job.h"

namespace byoc::ui {

/// QObject facade over the layout helper process.
class LayoutRunner : public QObject {
  Q_OBJECT
 public:
  /// `helperPath` is the `byoc-layout` executable to run.
  explicit LayoutRunner(QString helperPath = defaultHelperPath(), QObject* parent = nullptr);
  ~LayoutRunner() override;

  /// `$BYOC_LAYOUT_HELPER` if set, else `byoc-layout` next to the running executable.
  static QString defaultHelperPath();

  /// Milliseconds after which a layout is abandoned (0: never).
  void setTimeout(int milliseconds) { timeoutMs_ = milliseconds; }
  /// Lays out the DOT text `makeDot` returns when run on the worker; cancels any layout still running.
  void start(std::function<QString()> makeDot);
  /// Lays out `dot`, cancelling any layout still running.
  void start(const QString& dot);
  /// Kills the running layout; nothing is emitted for it.
  void cancel();
  /// True between `start` and the signal that ends it.
  bool isRunning() const;

 signals:
  /// The layout of the latest `start`.
  void finished(const byoc::ui::Layout& layout);
  /// Why the latest `start` produced no layout.
  void failed(const QString& message);

 private:
  QString helperPath_;
  int timeoutMs_ = 0;
  JobTracker job_;
};

}  // namespace byoc::ui
