/// \file
/// LayoutRunner: QtConcurrent job driving a QProcess, results delivered through a QFutureWatcher.

#include "layout/layout_runner.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFutureWatcher>
#include <QProcess>
#include <QStringBuilder>
#include <QtConcurrent/QtConcurrentRun>

namespace byoc::ui {

namespace {

constexpr int kPollMs = 50;

/// What the worker hands back: a layout, a failure message, or nothing when cancelled.
struct LayoutOutcome {
  bool cancelled = false;
  QString error;
  Layout layout;
};

LayoutOutcome runHelper(const QString& helperPath, const std::function<QString()>& makeDot, int timeoutMs,
                        const std::shared_ptr<std::atomic_bool>& cancelled) {
  LayoutOutcome outcome;
  const QByteArray dot = makeDot().toUtf8();
  if (*cancelled) {
    outcome.cancelled = true;
    return outcome;
  }
  QProcess process;
  process.start(helperPath, {});
  if (!process.waitForStarted()) {
    outcome.error = QStringLiteral("cannot start the layout helper ") % helperPath % QStringLiteral(": ") %
                    process.errorString();
    return outcome;
  }
  process.write(dot);
  process.closeWriteChannel();
  QElapsedTimer clock;
  clock.start();
  while (!process.waitForFinished(kPollMs)) {
    bool timedOut = timeoutMs > 0 && clock.elapsed() > timeoutMs;
    if (*cancelled || timedOut) {
      process.kill();
      process.waitForFinished();
      outcome.cancelled = !timedOut;
      if (timedOut) outcome.error = QStringLiteral("the layout took longer than %1 ms and was stopped").arg(timeoutMs);
      return outcome;
    }
  }
  if (*cancelled) {
    outcome.cancelled = true;
    return outcome;
  }
  if (process.exitStatus() == QProcess::CrashExit) {
    outcome.error = QStringLiteral("the layout helper crashed");
    return outcome;
  }
  if (process.exitCode() != 0) {
    QString message = QString::fromUtf8(process.readAllStandardError()).trimmed();
    outcome.error = QStringLiteral("the layout helper failed (exit status %1)").arg(process.exitCode()) %
                    (message.isEmpty() ? QString() : QStringLiteral(": ") % message);
    return outcome;
  }
  Result<Layout> parsed = parsePlainLayout(QString::fromUtf8(process.readAllStandardOutput()));
  if (!parsed) {
    outcome.error = QString::fromStdString(parsed.error().str());
    return outcome;
  }
  outcome.layout = std::move(parsed).value();
  return outcome;
}

}  // namespace

LayoutRunner::LayoutRunner(QString helperPath, QObject* parent) : QObject(parent), helperPath_(std::move(helperPath)) {}

LayoutRunner::~LayoutRunner() { cancel(); }

QString LayoutRunner::defaultHelperPath() {
  const QString configured = qEnvironmentVariable("BYOC_LAYOUT_HELPER");
  if (!configured.isEmpty()) return configured;
  return QCoreApplication::applicationDirPath() % QStringLiteral("/byoc-layout");
}

void LayoutRunner::start(const QString& dot) {
  start([dot] { return dot; });
}

void LayoutRunner::start(std::function<QString()> makeDot) {
  cancel();
  cancelFlag_ = std::make_shared<std::atomic_bool>(false);
  running_ = true;
  const int generation = ++generation_;
  auto* watcher = new QFutureWatcher<LayoutOutcome>(this);
  connect(watcher, &QFutureWatcher<LayoutOutcome>::finished, this, [this, watcher, generation] {
    watcher->deleteLater();
    LayoutOutcome outcome = watcher->result();
    if (generation != generation_ || outcome.cancelled) return;
    running_ = false;
    if (outcome.error.isEmpty()) {
      emit finished(outcome.layout);
    } else {
      emit failed(outcome.error);
    }
  });
  watcher->setFuture(QtConcurrent::run(runHelper, helperPath_, std::move(makeDot), timeoutMs_, cancelFlag_));
}

void LayoutRunner::cancel() {
  if (cancelFlag_) *cancelFlag_ = true;
  if (running_) ++generation_;
  running_ = false;
}

}  // namespace byoc::ui
