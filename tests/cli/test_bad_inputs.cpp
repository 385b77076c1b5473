/// \file
/// The bad-input corpus through the command line (see tests/support/bad_input_cases.h): each
/// command must end within the time limit, by itself (no signal), with the expected non-zero
/// status and the case's one-line error.

#include <QTemporaryDir>
#include <QtTest>

#include "bad_input_cases.h"
#include "cli_runner.h"

using namespace byoc::testing;

class TestBadInputs : public QObject {
  Q_OBJECT

 private slots:
  void givesItsExactError_data() { addBadInputRows(); }

  void givesItsExactError() {
    QFETCH(QString, casePath);
    QTemporaryDir tmp;
    QVERIFY(tmp.isValid());
    const BadInputCase badCase = readBadInputCase(casePath, tmp.path());
    const CliRun run = runCli(badCase.run);
    QVERIFY2(run.exitCode != -1, "byoc crashed (a signal) or ran past the time limit");
    QCOMPARE(run.err.section(QLatin1Char('\n'), 0, 0), QStringLiteral("error: ") + badCase.error);
    QCOMPARE(run.exitCode, badCase.exit);
  }
};

QTEST_GUILESS_MAIN(TestBadInputs)
#include "test_bad_inputs.moc"
