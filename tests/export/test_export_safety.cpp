#include <QDir>
#include <QDirIterator>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <filesystem>

#include "export_test_util.h"
#include "test_files.h"

using namespace byoc;
using namespace byoc::testing;

namespace {

struct Outcome {
  int exitCode = -1;
  QString out;
  QString err;
};

/// Runs `byoc args…`; exit code -1 when it crashed or ran past 60 s.
Outcome runCli(const QStringList& args) {
  QProcess process;
  process.start(QStringLiteral(BYOC_CLI_PATH), args);
  Outcome outcome;
  if (!process.waitForFinished(60000) || process.exitStatus() != QProcess::NormalExit) return outcome;
  return {process.exitCode(), QString::fromUtf8(process.readAllStandardOutput()), QString::fromUtf8(process.readAllStandardError())};
}

/// Every entry under `dir` (hidden ones too) with the content of its files: `path=content` lines.
QStringList snapshot(const QString& dir) {
  QStringList entries;
  QDirIterator it(dir, QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot | QDir::System, QDirIterator::Subdirectories);
  while (it.hasNext()) {
    const QString path = it.next();
    QFile file(path);
    const QString content = it.fileInfo().isFile() && file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : "<dir>";
    entries << QDir(dir).relativeFilePath(path) + "=" + content;
  }
  entries.sort();
  return entries;
}

void writeText(const QString& path, const QByteArray& content) {
  QVERIFY(QDir().mkpath(QFileInfo(path).absolutePath()));
  QFile file(path);
  QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
  file.write(content);
}

}  // namespace

/// What an export may never do: replace or delete what it did not write, read or follow a file
/// outside the directory that names it, or leave its staging folder behind.
class TestExportSafety : public QObject {
  Q_OBJECT

 private slots:
  void refusesAProjectFolderWithItsOwnManifest() {
    QTemporaryDir dir;
    const QString project = dir.path() + "/project";
    writeText(project + "/manifest.json", R"({"name": "my project", "version": "1.0"})");
    writeText(project + "/src/main.c", "int main(void) { return 0; }\n");
    const QStringList before = snapshot(project);
    const Outcome run = runCli({"export", "--demo", "--target", "byoc-target", "-o", project});
    QCOMPARE(run.err, "error: " + project +
                          ": not replacing this directory: its manifest.json is not the manifest of an export (/format: "
                          "missing); choose another output directory, or move this one away first\n");
    QCOMPARE(run.exitCode, 1);
    QCOMPARE(snapshot(project), before);
    QCOMPARE(QDir(dir.path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot), QStringList{"project"});
  }

  void refusesAnExportHoldingAnotherFile_data() {
    QTest::addColumn<QString>("extra");
    QTest::addColumn<QString>("reported");
    QTest::newRow("file") << "notes.txt" << "notes.txt";
    QTest::newRow("folder") << "src/main.c" << "src";
    QTest::newRow("file in its own folder") << "artifacts/mine.json" << "artifacts/mine.json";
  }
  void refusesAnExportHoldingAnotherFile() {
    QFETCH(QString, extra);
    QFETCH(QString, reported);
    QTemporaryDir dir;
    const QString out = dir.path() + "/out";
    QCOMPARE(runCli({"export", "--demo", "--target", "byoc-target", "-o", out}).exitCode, 0);
    writeText(out + "/" + extra, "keep me");
    const QStringList before = snapshot(out);
    const Outcome run = runCli({"export", "--demo", "--target", "dnnl", "-o", out});
    QCOMPARE(run.err, "error: " + out + ": not replacing this directory: it holds \"" + reported +
                          "\", which is not a file its manifest.json lists; choose another output directory, or move "
                          "this one away first\n");
    QCOMPARE(run.exitCode, 1);
    QCOMPARE(snapshot(out), before);
  }

  void refusesALinkAsOutput() {
    QTemporaryDir dir;
    const QString target = dir.path() + "/target";
    writeText(target + "/keep.txt", "keep me");
    QVERIFY(QFile::link(target, dir.path() + "/link"));
    const Outcome run = runCli({"export", "--demo", "--target", "byoc-target", "-o", dir.path() + "/link"});
    QCOMPARE(run.err, "error: " + dir.path() +
                          "/link: not replacing this directory: it is a symbolic link; choose another output directory, or "
                          "move this one away first\n");
    QCOMPARE(run.exitCode, 1);
    QCOMPARE(snapshot(target), QStringList{"keep.txt=keep me"});
  }

  void replacesAnEarlierExport() {
    QTemporaryDir dir;
    const QString out = dir.path() + "/out";
    QCOMPARE(runCli({"export", "--demo", "--target", "byoc-target", "-o", out}).exitCode, 0);
    const Outcome second = runCli({"export", "--demo", "--target", "dnnl", "-o", out});
    QCOMPARE(second.err, QString());
    QCOMPARE(second.exitCode, 0);
    Result<Manifest> manifest = readExportManifest(out.toStdString());
    QVERIFY(manifest.isOk());
    QCOMPARE(manifest->targets.front().name, std::string("dnnl"));
    QStringList expected = {"manifest.json"};
    for (const auto& [file, digest] : manifest->files) expected << QString::fromStdString(file);
    QStringList files;
    QDirIterator it(out, QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
    while (it.hasNext()) files << QDir(out).relativeFilePath(it.next());
    expected.sort();
    files.sort();
    QCOMPARE(files, expected);
    QCOMPARE(QDir(dir.path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot), QStringList{"out"});
  }

  void replacesAnEmptyDirectory() {
    QTemporaryDir dir;
    const std::string out = dir.path().toStdString() + "/out";
    QVERIFY(QDir().mkpath(QString::fromStdString(out)));
    QVERIFY(exportModule(partitioned(readTestData("export/constants.relay"), "dnnl"), optionsFor("dnnl", "dnnl"), out).isOk());
    QVERIFY(loadExport(out).isOk());
    QCOMPARE(QDir(dir.path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot), QStringList{"out"});
  }
};

QTEST_GUILESS_MAIN(TestExportSafety)
#include "test_export_safety.moc"
