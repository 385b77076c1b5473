/// \file
/// The bad-input corpus: every `tests/data/bad/**/*.case` file names a `byoc` command run on a
/// hostile input beside it and the exact error it must give. The command must end within the
/// time limit, by itself (no signal), with the expected non-zero status and that one-line error.
///
/// A case file holds `key: value` lines; `#` starts a comment line:
///   run: info {dir}/huge_literal.relay        arguments of `byoc`, split at spaces
///   error: {dir}/huge_literal.relay:2:9: …    the first line of stderr, without its `error: `
///   exit: 1                                   optional; 1 when absent, never 0
/// `{dir}` is the case file's directory and `{tmp}` a fresh empty directory for outputs.

#include <QDirIterator>
#include <QTemporaryDir>
#include <QtTest>

#include "cli_runner.h"

using byoc::testing::runCli;

namespace {

/// One parsed `.case` file.
struct BadInputCase {
  QString run;
  QString error;
  int exit = 1;
};

BadInputCase readCase(const QString& path) {
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly | QIODevice::Text)) qFatal("cannot read %s", qPrintable(path));
  BadInputCase parsed;
  const QStringList lines = QString::fromUtf8(file.readAll()).split(QLatin1Char('\n'));
  for (const QString& line : lines) {
    if (line.isEmpty() || line.startsWith(QLatin1Char('#'))) continue;
    const qsizetype colon = line.indexOf(QStringLiteral(": "));
    if (colon < 0) qFatal("%s: expected `key: value`, found \"%s\"", qPrintable(path), qPrintable(line));
    const QString key = line.left(colon);
    const QString value = line.mid(colon + 2);
    if (key == QStringLiteral("run")) parsed.run = value;
    else if (key == QStringLiteral("error")) parsed.error = value;
    else if (key == QStringLiteral("exit")) parsed.exit = value.toInt();
    else qFatal("%s: unknown key \"%s\"", qPrintable(path), qPrintable(key));
  }
  if (parsed.run.isEmpty() || parsed.error.isEmpty() || parsed.exit == 0)
    qFatal("%s: a case needs `run:`, `error:` and a non-zero `exit:`", qPrintable(path));
  return parsed;
}

}  // namespace

class TestBadInputs : public QObject {
  Q_OBJECT

 private slots:
  void givesItsExactError_data() {
    QTest::addColumn<QString>("casePath");
    const QString root = QStringLiteral(BYOC_TEST_DATA_DIR "/bad");
    QDirIterator it(root, {QStringLiteral("*.case")}, QDir::Files, QDirIterator::Subdirectories);
    QStringList cases;
    while (it.hasNext()) cases << it.next();
    cases.sort();
    QVERIFY2(!cases.isEmpty(), "no .case files under tests/data/bad");
    for (const QString& path : cases) QTest::newRow(qPrintable(QDir(root).relativeFilePath(path))) << path;
  }

  void givesItsExactError() {
    QFETCH(QString, casePath);
    const BadInputCase badCase = readCase(casePath);
    QTemporaryDir tmp;
    QVERIFY(tmp.isValid());
    auto expand = [&](QString text) {
      return text.replace(QStringLiteral("{dir}"), QFileInfo(casePath).absolutePath()).replace(QStringLiteral("{tmp}"), tmp.path());
    };
    const auto run = runCli(expand(badCase.run).split(QLatin1Char(' '), Qt::SkipEmptyParts));
    QVERIFY2(run.exitCode != -1, "byoc crashed (a signal) or ran past the time limit");
    const QString firstLine = run.err.section(QLatin1Char('\n'), 0, 0);
    QCOMPARE(firstLine, QStringLiteral("error: ") + expand(badCase.error));
    QCOMPARE(run.exitCode, badCase.exit);
  }
};

QTEST_GUILESS_MAIN(TestBadInputs)
#include "test_bad_inputs.moc"
