#include <QDir>
#include <QDirIterator>
#include <QProcess>
#include <QThread>
#include <QTemporaryDir>
#include <QtTest>

#include <grp.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <csignal>
#include <filesystem>
#include <functional>

#include "export/staging.h"
#include "export_test_util.h"
#include "test_files.h"

using namespace byoc;
using namespace byoc::testing;

namespace {

std::string errorOf(const Result<ExportLock>& result) { return result ? std::string("(no error)") : result.error().str(); }

struct Outcome {
  int exitCode = -1;
  QString out;
  QString err;
};

/// Runs `byoc args…`, `inChild` run in the child process before it starts; exit code -1 when it
/// crashed or ran past 60 s.
Outcome runCli(const QStringList& args, const std::function<void()>& inChild = {}) {
  QProcess process;
  if (inChild) process.setChildProcessModifier(inChild);
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

/// The hidden entries of `dir`, sorted.
QStringList hiddenEntries(const QString& dir) {
  QStringList entries = QDir(dir).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot | QDir::System);
  entries.removeIf([](const QString& name) { return !name.startsWith('.'); });
  return entries;
}

/// Every entry of `dir` (hidden ones too), sorted.
QStringList entriesOf(const QString& dir) {
  return QDir(dir).entryList(QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot, QDir::Name);
}

const QString kUnderWay = QStringLiteral(": another export into this directory is under way; try again once it has finished\n");

/// The staging folders of `DIR/out`.
QStringList stagingFolders(const QString& dir) {
  return QDir(dir).entryList({QStringLiteral(".out.tmp-*")}, QDir::Dirs | QDir::Hidden | QDir::NoDotAndDotDot, QDir::Name);
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

  void stagingMarkersNameTheirWriter() {
    const StagingWriter self = currentStagingWriter();
    QVERIFY(!self.host.empty());
    QCOMPARE(self.pid, int64_t(::getpid()));
    QVERIFY(!self.started.empty());
    std::optional<StagingWriter> parsed = parseStagingMarker(stagingMarkerText(self));
    QVERIFY(parsed.has_value());
    QCOMPARE(parsed->host, self.host);
    QCOMPARE(parsed->pid, self.pid);
    QCOMPARE(parsed->started, self.started);
    QVERIFY(!stagingWriterIsGone(self));
    QVERIFY(stagingWriterIsGone({self.host, self.pid, "1"}));   // the pid now belongs to another process
    QVERIFY(!stagingWriterIsGone({"another-host", self.pid, "1"}));
    QVERIFY(!parseStagingMarker("host=x\npid=1\n"));
    QVERIFY(!parseStagingMarker(stagingMarkerText({self.host, 0, ""})));
  }

  void theStagingFolderIsMarkedFromItsFirstFile() {
    QTemporaryDir dir;
    const std::string out = dir.path().toStdString() + "/out";
    ExportOptions options = optionsFor("dnnl", "dnnl");
    QStringList seen;
    options.onFileWritten = [&](const std::string&) -> Status {
      for (const QString& name : stagingFolders(dir.path())) {
        Result<std::string> marker = readFile(dir.path().toStdString() + "/" + name.toStdString() + "/" + std::string(kStagingMarkerName));
        std::optional<StagingWriter> writer = marker ? parseStagingMarker(*marker) : std::nullopt;
        seen << (writer && writer->pid == ::getpid() ? "marked" : "unmarked");
      }
      return Status::ok();
    };
    QVERIFY(exportModule(partitioned(readTestData("export/constants.relay"), "dnnl"), options, out).isOk());
    QVERIFY(!seen.isEmpty());
    QCOMPARE(seen, QStringList(seen.size(), "marked"));
    QVERIFY(!QFileInfo::exists(QString::fromStdString(out + "/" + std::string(kStagingMarkerName))));
    QCOMPARE(hiddenEntries(dir.path()), QStringList());
  }

  void removesOnlyStaleStagingFoldersOfTheSameOutput() {
    QTemporaryDir dir;
    const QString root = dir.path();
    const StagingWriter self = currentStagingWriter();
    auto stage = [&](const QString& name, const std::optional<StagingWriter>& writer) {
      writeText(root + "/" + name + "/host.json", "partial");
      if (writer) writeText(root + "/" + name + "/" + QString::fromUtf8(kStagingMarkerName.data()), stagingMarkerText(*writer).c_str());
    };
    stage(".out.tmp-stale1", StagingWriter{self.host, self.pid, "1"});          // writer gone: removed
    stage(".out.tmp-alive1", self);                                             // writer running
    stage(".out.tmp-nomark", std::nullopt);                                     // not ours
    stage(".out.tmp-remote", StagingWriter{"another-host", self.pid, "1"});     // cannot tell
    stage(".other.tmp-stale", StagingWriter{self.host, self.pid, "1"});         // another output
    stage("elsewhere", StagingWriter{self.host, self.pid, "1"});
    QVERIFY(QFile::link(root + "/elsewhere", root + "/.out.tmp-linked"));       // a link is never followed
    writeText(root + "/.out.tmp-file01", "a file, not a folder");
    const std::string out = root.toStdString() + "/out";
    QVERIFY(exportModule(partitioned(readTestData("export/constants.relay"), "dnnl"), optionsFor("dnnl", "dnnl"), out).isOk());
    QCOMPARE(hiddenEntries(root), (QStringList{".other.tmp-stale", ".out.tmp-alive1", ".out.tmp-file01", ".out.tmp-linked",
                                              ".out.tmp-nomark", ".out.tmp-remote"}));
    QVERIFY(QFileInfo::exists(root + "/elsewhere/host.json"));
    QVERIFY(loadExport(out).isOk());
  }

  /// While an export holds the lock of OUT, another export of OUT fails at once and writes nothing.
  void anExportOfALockedOutputFailsAtOnce() {
    QTemporaryDir dir;
    const QString out = dir.path() + "/out";
    {
      Result<ExportLock> held = ExportLock::acquire(out.toStdString());
      QVERIFY(held.isOk());
      QCOMPARE(entriesOf(dir.path()), QStringList{".out.lock"});
      QCOMPARE(QString::fromStdString(errorOf(ExportLock::acquire(out.toStdString()))), out + kUnderWay.chopped(1));
      const Outcome run = runCli({"export", "--demo", "--target", "dnnl", "-o", out});
      QCOMPARE(run.err, "error: " + out + kUnderWay);
      QCOMPARE(run.exitCode, 1);
      QCOMPARE(entriesOf(dir.path()), QStringList{".out.lock"});
    }
    QCOMPARE(entriesOf(dir.path()), QStringList());
    QCOMPARE(runCli({"export", "--demo", "--target", "dnnl", "-o", out}).exitCode, 0);
    QCOMPARE(entriesOf(dir.path()), QStringList{"out"});
  }

  /// Two `byoc export` of one OUT started together: each completes or fails with the message, one
  /// export is left complete, and nothing else (no staging copy, no lock file).
  void concurrentExportsLeaveOneCompleteExport() {
    QTemporaryDir dir;
    const QString out = dir.path() + "/out";
    int failedAsUnderWay = 0;
    for (int round = 0; round < 4; ++round) {
      QProcess first, second;
      first.start(QStringLiteral(BYOC_CLI_PATH), {"export", "--demo", "--target", "dnnl", "-o", out});
      second.start(QStringLiteral(BYOC_CLI_PATH), {"export", "--demo", "--target", "byoc-target", "-o", out});
      QVERIFY(first.waitForFinished(60000) && second.waitForFinished(60000));
      int succeeded = 0;
      for (QProcess* process : {&first, &second}) {
        QCOMPARE(process->exitStatus(), QProcess::NormalExit);
        if (process->exitCode() == 0) {
          ++succeeded;
          continue;
        }
        QCOMPARE(QString::fromUtf8(process->readAllStandardError()), "error: " + out + kUnderWay);
        QCOMPARE(process->exitCode(), 1);
        ++failedAsUnderWay;
      }
      QVERIFY(succeeded >= 1);
      QCOMPARE(entriesOf(dir.path()), QStringList{"out"});
      QVERIFY(loadExport(out.toStdString()).isOk());
    }
    qInfo("%d of 8 exports found the output locked", failedAsUnderWay);
  }

  /// The system drops the flock of a process that is killed; the empty lock file it leaves is taken
  /// over by the next export and removed.
  void aLockFileLeftByAKilledExportIsTakenOver() {
    QTemporaryDir dir;
    writeText(dir.path() + "/.out.lock", "");
    QCOMPARE(runCli({"export", "--demo", "--target", "dnnl", "-o", dir.path() + "/out"}).exitCode, 0);
    QCOMPARE(entriesOf(dir.path()), QStringList{"out"});
  }

  void aFileThatIsNotALockIsLeftAlone() {
    QTemporaryDir dir;
    writeText(dir.path() + "/.out.lock", "mine");
    const Outcome run = runCli({"export", "--demo", "--target", "dnnl", "-o", dir.path() + "/out"});
    QCOMPARE(run.err, "error: " + dir.path() +
                          "/.out.lock: is not an export lock (an empty file); not exporting beside it; move it away first\n");
    QCOMPARE(run.exitCode, 1);
    QCOMPARE(snapshot(dir.path()), QStringList{".out.lock=mine"});
  }

  /// A write that fails half-way (here past a file size limit, which holds for root too) leaves the
  /// earlier export as it was and no staging folder.
  void aWriteErrorRemovesTheStagingFolder() {
    QTemporaryDir dir;
    const QString out = dir.path() + "/out";
    QCOMPARE(runCli({"export", "--demo", "--target", "byoc-target", "-o", out}).exitCode, 0);
    const QStringList before = snapshot(out);
    const Outcome run = runCli({"export", "--demo", "--target", "dnnl", "-o", out}, [] {
      std::signal(SIGXFSZ, SIG_IGN);
      const rlimit limit{1024, RLIM_INFINITY};  // the demo's host.json is larger
      ::setrlimit(RLIMIT_FSIZE, &limit);
    });
    const QRegularExpression expected("^error: " + QRegularExpression::escape(dir.path()) +
                                      "/\\.out\\.tmp-\\w{6}/[\\w./]+: write failed: File too large\n$");
    QVERIFY2(expected.match(run.err).hasMatch(), qPrintable(run.err));
    QCOMPARE(run.exitCode, 1);
    QCOMPARE(snapshot(out), before);
    QCOMPARE(entriesOf(dir.path()), QStringList{"out"});
  }

  /// Read-only permission bits do not stop root, as CI runs: an output below a file is a parent
  /// that fails for every user (ENOTDIR). Nothing is created.
  void anOutputBelowAFileIsRefused() {
    QTemporaryDir dir;
    writeText(dir.path() + "/file", "keep me");
    const Outcome run = runCli({"export", "--demo", "--target", "dnnl", "-o", dir.path() + "/file/out"});
    QCOMPARE(run.err, "error: " + dir.path() + "/file/out: cannot create the lock file beside it: Not a directory\n");
    QCOMPARE(run.exitCode, 1);
    QCOMPARE(snapshot(dir.path()), QStringList{"file=keep me"});
  }

  /// An export whose folders this user may not change (read-only, and not root: CI's root drops
  /// to nobody for it) is refused before anything is written: swapped aside, its files could not be
  /// removed and would stay as a hidden copy.
  void aReadOnlyExportIsRefusedBeforeAnythingIsWritten_data() {
    QTest::addColumn<QString>("readOnly");
    QTest::addColumn<QString>("named");
    QTest::newRow("the export") << "out" << ".";
    QTest::newRow("a folder of it") << "out/artifacts" << "artifacts";
  }
  void aReadOnlyExportIsRefusedBeforeAnythingIsWritten() {
    QFETCH(QString, readOnly);
    QFETCH(QString, named);
    QTemporaryDir dir;
    QVERIFY(QFile::setPermissions(dir.path(), QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner | QFile::ReadOther |
                                                  QFile::WriteOther | QFile::ExeOther));
    auto asNobody = [] {
      if (::geteuid() == 0 && (::setgroups(0, nullptr) != 0 || ::setgid(65534) != 0 || ::setuid(65534) != 0)) ::_exit(125);
    };
    if (runCli({"--version"}, asNobody).exitCode != 0) QSKIP("byoc cannot run as nobody on this machine");
    const QString out = dir.path() + "/out";
    QCOMPARE(runCli({"export", "--demo", "--target", "byoc-target", "-o", out}, asNobody).exitCode, 0);
    QCOMPARE(::chmod((dir.path() + "/" + readOnly).toLocal8Bit().constData(), 0555), 0);
    const QStringList before = snapshot(out);
    const Outcome run = runCli({"export", "--demo", "--target", "dnnl", "-o", out}, asNobody);
    QCOMPARE(run.err, "error: " + out + ": not replacing this directory: its files cannot be removed from \"" + named +
                          "\" (Permission denied); choose another output directory, or move this one away first\n");
    QCOMPARE(run.exitCode, 1);
    QCOMPARE(snapshot(out), before);
    QCOMPARE(entriesOf(dir.path()), QStringList{"out"});
    QCOMPARE(::chmod((dir.path() + "/" + readOnly).toLocal8Bit().constData(), 0755), 0);  // for the temporary dir's removal
  }

  /// The export's folders and files get the modes the umask gives new ones.
  void anExportHonoursTheUmask() {
    QTemporaryDir dir;
    const QString out = dir.path() + "/out";
    QCOMPARE(runCli({"export", "--demo", "--target", "dnnl", "-o", out}, [] { ::umask(077); }).exitCode, 0);
    QDirIterator it(out, QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot, QDirIterator::Subdirectories);
    struct stat status {};
    QCOMPARE(::stat(out.toLocal8Bit().constData(), &status), 0);
    QCOMPARE(status.st_mode & 0777, mode_t(0700));
    int entries = 0;
    while (it.hasNext()) {
      const QString path = it.next();
      QCOMPARE(::lstat(path.toLocal8Bit().constData(), &status), 0);
      QCOMPARE(status.st_mode & 0777, S_ISDIR(status.st_mode) ? mode_t(0700) : mode_t(0600));
      ++entries;
    }
    QVERIFY(entries > 3);
  }

  /// SIGTERM while the export writes: exit 143, no staging folder left, OUT absent or complete.
  void aSignalRemovesTheStagingFolder() {
    QTemporaryDir dir;
    const QString model = dir.path() + "/chain.relay";
    QByteArray text = "#[version = \"0.0.5\"]\ndef @main(%x: Tensor[(1, 8), float32]) {\n  %0 = nn.relu(%x);\n";
    const int length = 50000;
    for (int i = 1; i < length; ++i) text += "  %" + QByteArray::number(i) + " = nn.relu(%" + QByteArray::number(i - 1) + ");\n";
    text += "  %" + QByteArray::number(length - 1) + "\n}\n";
    writeText(model, text);
    QProcess process;
    process.start(QStringLiteral(BYOC_CLI_PATH), {"export", model, "--target", "dnnl", "-o", dir.path() + "/out"});
    QVERIFY(process.waitForStarted());
    bool signalled = false;
    while (process.state() == QProcess::Running && !signalled) {
      if (!stagingFolders(dir.path()).isEmpty()) signalled = ::kill(static_cast<pid_t>(process.processId()), SIGTERM) == 0;
      else QThread::msleep(5);
    }
    QVERIFY(process.waitForFinished(120000));
    if (!signalled) QSKIP("the export ended before its staging folder was seen");
    QCOMPARE(process.exitStatus(), QProcess::NormalExit);
    QCOMPARE(process.exitCode(), 128 + SIGTERM);
    QCOMPARE(hiddenEntries(dir.path()), QStringList());
    if (QFileInfo::exists(dir.path() + "/out")) QVERIFY(loadExport((dir.path() + "/out").toStdString()).isOk());
    else QCOMPARE(QString::fromUtf8(process.readAllStandardError()),
                  "error: " + dir.path() + "/out: interrupted by SIGTERM; nothing was written\n");
  }
};

QTEST_GUILESS_MAIN(TestExportSafety)
#include "test_export_safety.moc"
