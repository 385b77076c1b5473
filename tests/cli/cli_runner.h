#pragma once
/// \file
/// Runs the `byoc` executable as a user would and captures what it printed.

#include <QProcess>
#include <QStringList>
#include <QtTest>

namespace byoc::testing {

/// What one run of `byoc` printed and returned.
struct CliRun {
  int exitCode = -1;
  QString out;
  QString err;
};

/// Runs `byoc args…` in `environment` to completion (30 s at most).
inline CliRun runCli(const QStringList& args, const QProcessEnvironment& environment = QProcessEnvironment::systemEnvironment()) {
  QProcess process;
  process.setProcessEnvironment(environment);
  process.start(QStringLiteral(BYOC_CLI_PATH), args);
  CliRun run;
  if (!process.waitForFinished(30000) || process.exitStatus() != QProcess::NormalExit) return run;
  run.exitCode = process.exitCode();
  run.out = QString::fromUtf8(process.readAllStandardOutput());
  run.err = QString::fromUtf8(process.readAllStandardError());
  return run;
}

}  // namespace byoc::testing
