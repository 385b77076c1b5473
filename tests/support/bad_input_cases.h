#pragma once
/// \file
/// The bad-input corpus under `tests/data/bad`: every `*.case` file names a `byoc` command run on a
/// hostile input beside it and the exact error it must give.
///
/// A case file holds `key: value` lines; `#` starts a comment line:
///   run: info {dir}/huge_literal.relay        arguments of `byoc`, split at spaces
///   error: {dir}/huge_literal.relay:2:9: …    the first line of stderr, without its `error: `
///   exit: 1                                   optional; 1 when absent, never 0
/// `{dir}` is the case file's directory and `{tmp}` a fresh empty directory for outputs.

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QStringList>
#include <QtTest>

namespace byoc::testing {

/// One `.case` file, with `{dir}` already replaced.
struct BadInputCase {
  QString path;
  QStringList run;
  QString error;
  int exit = 1;

  /// The file the command reads when it is `print FILE` or `info FILE`, else "".
  QString modelFile() const {
    const bool readsModel = run.size() == 2 && (run[0] == QStringLiteral("print") || run[0] == QStringLiteral("info"));
    return readsModel ? run[1] : QString();
  }
};

/// Reads the case at `path`; `{tmp}` becomes `tmp`. A malformed case file stops the test program.
inline BadInputCase readBadInputCase(const QString& path, const QString& tmp = QString()) {
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly | QIODevice::Text)) qFatal("cannot read %s", qPrintable(path));
  auto expand = [&](QString text) {
    return text.replace(QStringLiteral("{dir}"), QFileInfo(path).absolutePath()).replace(QStringLiteral("{tmp}"), tmp);
  };
  BadInputCase parsed;
  parsed.path = path;
  const QStringList lines = QString::fromUtf8(file.readAll()).split(QLatin1Char('\n'));
  for (const QString& line : lines) {
    if (line.isEmpty() || line.startsWith(QLatin1Char('#'))) continue;
    const qsizetype colon = line.indexOf(QStringLiteral(": "));
    if (colon < 0) qFatal("%s: expected `key: value`, found \"%s\"", qPrintable(path), qPrintable(line));
    const QString key = line.left(colon);
    const QString value = expand(line.mid(colon + 2));
    if (key == QStringLiteral("run")) parsed.run = value.split(QLatin1Char(' '), Qt::SkipEmptyParts);
    else if (key == QStringLiteral("error")) parsed.error = value;
    else if (key == QStringLiteral("exit")) parsed.exit = value.toInt();
    else qFatal("%s: unknown key \"%s\"", qPrintable(path), qPrintable(key));
  }
  if (parsed.run.isEmpty() || parsed.error.isEmpty() || parsed.exit == 0)
    qFatal("%s: a case needs `run:`, `error:` and a non-zero `exit:`", qPrintable(path));
  return parsed;
}

/// Adds one data row (column `casePath`) per case file of the corpus, sorted; fails when there is none.
inline void addBadInputRows() {
  QTest::addColumn<QString>("casePath");
  const QString root = QStringLiteral(BYOC_TEST_DATA_DIR "/bad");
  QDirIterator it(root, {QStringLiteral("*.case")}, QDir::Files, QDirIterator::Subdirectories);
  QStringList cases;
  while (it.hasNext()) cases << it.next();
  cases.sort();
  QVERIFY2(!cases.isEmpty(), "no .case files under tests/data/bad");
  for (const QString& path : cases) QTest::newRow(qPrintable(QDir(root).relativeFilePath(path))) << path;
}

}  // namespace byoc::testing
