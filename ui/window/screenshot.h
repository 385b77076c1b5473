#pragma once
/// \file
/// `--screenshot`: waits until the window has drawn the opened model's graph, then saves the
/// window as a PNG and reports an exit status (0 written, 1 failed).

#include <QObject>
#include <QString>

namespace byoc::ui {

class MainWindow;

/// One screenshot of a MainWindow, taken when its main graph is laid out.
class ScreenshotJob : public QObject {
  Q_OBJECT
 public:
  /// Watches `window` (which must outlive the job); gives up after `timeoutMs`.
  ScreenshotJob(MainWindow* window, QString outputPath, int timeoutMs, QObject* parent = nullptr);
  /// Searches the graph for `text` before capturing, so the first match is selected and its
  /// properties and source line are shown.
  void setFind(const QString& text) { find_ = text; }
  /// Opens the function `name` in its own tab (an export's dnnl region: its kernel graph) once the
  /// main graph is laid out, and captures when that tab is laid out.
  void setFunction(const QString& name) { function_ = name; }
  /// Waits for the window's `stepsOpened` as well before capturing.
  void setWaitForSteps(bool wait) { waitForSteps_ = wait; }
  /// Waits for the Run panel's run to finish as well before capturing (a failed run fails the job).
  void setWaitForRun(bool wait) { waitForRun_ = wait; }

 signals:
  /// The job ended; `status` is the process exit status to use, `message` what happened.
  void done(int status, const QString& message);

 private:
  /// Captures once the graph is laid out and, if asked, the steps are open.
  void captureWhenReady();
  void capture();
  /// Opens `function_`'s tab and captures once it is laid out.
  void showFunction();
  void fail(const QString& message);

  MainWindow* window_;
  QString outputPath_;
  QString find_;
  QString function_;
  bool waitForSteps_ = false;
  bool laidOut_ = false;
  bool stepsOpened_ = false;
  bool waitForRun_ = false;
  bool runFinished_ = false;
  bool finished_ = false;
};

}  // namespace byoc::ui
