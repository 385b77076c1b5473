/// \file
/// LayoutRunner: a pool job driving a QProcess, its result delivered by a JobTracker.

#include "layout/layout_runner.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QProcess>
#include <QStringBuilder>

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
                        const std::atomic<bool>& cancelled) {
  LayoutOutcome outcome;
  const QByteArray dot = makeDot().toUtf8();
  if (cancelled) {
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
    if (cancelled || timedOut) {
      process.kill();
      process.waitForFinished();
      outcome.cancelled = !timedOut;
      if (timedOut) outcome.error = QStringLiteral("the layout took longer than %1 ms and was stopped").arg(timeoutMs);
      return outcome;
    }
  }
  if (cancelled) {
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

LayoutRunner::LayoutRunner(QString helperPath, QObject* parent)
    : QObject(parent), helperPath_(std::move(helperPath)), job_(this) {}

LayoutRunner::~LayoutRunner() = default;

QString LayoutRunner::defaultHelperPath() {
  const QString configured = qEnvironmentVariable("BYOC_LAYOUT_HELPER");
  if (!configured.isEmpty()) return configured;
  return QCoreApplication::applicationDirPath() % QStringLiteral("/byoc-layout");
}

void LayoutRunner::start(const QString& dot) {
  start([dot] { return dot; });
}

void LayoutRunner::start(std::function<QString()> makeDot) {
  job_.start(
      [helperPath = helperPath_, makeDot = std::move(makeDot), timeoutMs = timeoutMs_](const JobControl& control) {
        return runHelper(helperPath, makeDot, timeoutMs, *control.cancelFlag());
      },
      [this](const LayoutOutcome& outcome) {
        if (outcome.cancelled) return;
        if (outcome.error.isEmpty()) {
          emit finished(outcome.layout);
        } else {
          emit failed(outcome.error);
        }
      });
}

void LayoutRunner::cancel() { job_.discard(); }

bool LayoutRunner::isRunning() const { return job_.isRunning(); }

}  // namespace byoc::ui
