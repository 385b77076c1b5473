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

/// How long one run may take: a run that ends at a limit of work (a million loop iterations) takes
/// seconds, and ten times as long under AddressSanitizer.
#ifdef __SANITIZE_ADDRESS__
inline constexpr int kCliRunLimitMs = 300'000;
#else
inline constexpr int kCliRunLimitMs = 30'000;
#endif

/// Runs `byoc args…` in `environment` to completion (kCliRunLimitMs at most).
inline CliRun runCli(const QStringList& args, const QProcessEnvironment& environment = QProcessEnvironment::systemEnvironment()) {
  QProcess process;
  process.setProcessEnvironment(environment);
  process.start(QStringLiteral(BYOC_CLI_PATH), args);
  CliRun run;
  if (!process.waitForFinished(kCliRunLimitMs) || process.exitStatus() != QProcess::NormalExit) return run;
  run.exitCode = process.exitCode();
  run.out = QString::fromUtf8(process.readAllStandardOutput());
  run.err = QString::fromUtf8(process.readAllStandardError());
  return run;
}

}  // namespace byoc::testing
