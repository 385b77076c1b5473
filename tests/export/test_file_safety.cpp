#include <QTemporaryDir>
#include <QtTest>

#include <sys/stat.h>

#include <filesystem>

#include "runtime/npy.h"
#include "support/file_io.h"
#include "support/safe_path.h"

using namespace byoc;

namespace {

std::string errorOf(const Status& status) { return status ? std::string("(no error)") : status.error().str(); }

template <typename T>
std::string errorOf(const Result<T>& result) {
  return result ? std::string("(no error)") : result.error().str();
}

}  // namespace

/// Reading files that an input names: regular files only, never blocking, never outside the
/// directory of the input, byte ranges checked without overflow.
class TestFileSafety : public QObject {
  Q_OBJECT

  QTemporaryDir dir_;

  std::string path(const std::string& relative) const { return dir_.path().toStdString() + "/" + relative; }

 private slots:
  void initTestCase() {
    QVERIFY(dir_.isValid());
    QVERIFY(writeFileAtomic(path("data.bin"), "0123456789abcdef").isOk());
    QVERIFY(std::filesystem::create_directory(path("sub")));
    QVERIFY(writeFileAtomic(path("sub/inner.bin"), "inner").isOk());
    QCOMPARE(::mkfifo(path("pipe").c_str(), 0600), 0);
    std::filesystem::create_symlink("/etc/passwd", path("outside_link"));
    std::filesystem::create_symlink("sub/inner.bin", path("inside_link"));
    std::filesystem::create_symlink("../../../../../../../../../../etc/passwd", path("sub/passwd"));
  }

  void readFileTakesRegularFilesOnly_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("error");
    QTest::newRow("directory") << "sub" << "is a directory, expected a regular file";
    QTest::newRow("named pipe") << "pipe" << "is a named pipe (FIFO), expected a regular file";
    QTest::newRow("device") << "/dev/zero" << "is a character device, expected a regular file";
    QTest::newRow("missing") << "missing" << "cannot open: No such file or directory";
  }
  void readFileTakesRegularFilesOnly() {
    QFETCH(QString, file);
    QFETCH(QString, error);
    const std::string name = file.startsWith('/') ? file.toStdString() : path(file.toStdString());
    QCOMPARE(QString::fromStdString(errorOf(readFile(name))), QString::fromStdString(name) + ": " + error);
  }

  void readFileReadsAWholeFile() {
    Result<std::string> content = readFile(path("data.bin"));
    QVERIFY(content.isOk());
    QCOMPARE(*content, std::string("0123456789abcdef"));
  }

  void npyInputsAreRegularFiles() {
    QCOMPARE(errorOf(readNpy("/dev/zero")), std::string("/dev/zero: is a character device, expected a regular file"));
    QCOMPARE(errorOf(readNpy(path("pipe"))), path("pipe") + ": is a named pipe (FIFO), expected a regular file");
  }

  void npyShapesAreWithinTheLimits() {
    const std::string header = "{'descr': '<f4', 'fortran_order': False, 'shape': (4294967296, 4294967296, 4294967296), }\n";
    std::string file = std::string("\x93NUMPY\x01\x00", 8) + char(header.size()) + char(0) + header;
    QCOMPARE(errorOf(parseNpy(file, "huge.npy")),
             std::string("huge.npy: bad .npy header: 'shape': more than 4294967296 elements (the limit of one tensor)"));
  }

  void resolveInsideConfinesTheName_data() {
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("error");
    const QString base = dir_.path();
    QTest::newRow("absolute") << "/etc/passwd"
                              << "\"/etc/passwd\" is an absolute path; expected a path relative to the directory " + base;
    QTest::newRow("parent") << "../x" << "\"../x\" has a '..' part; expected a path inside the directory " + base;
    QTest::newRow("parent inside") << "sub/../data.bin"
                                   << "\"sub/../data.bin\" has a '..' part; expected a path inside the directory " + base;
    QTest::newRow("link outside") << "outside_link"
                                  << "\"outside_link\" leads outside the directory " + base + " through a symbolic link (to /etc/passwd)";
    QTest::newRow("relative link outside") << "sub/passwd"
                                           << "\"sub/passwd\" leads outside the directory " + base +
                                                  " through a symbolic link (to /etc/passwd)";
    QTest::newRow("directory") << "sub" << "\"sub\" is a directory, expected a regular file";
    QTest::newRow("the directory itself") << "." << "\".\" is a directory, expected a regular file";
    QTest::newRow("named pipe") << "pipe" << "\"pipe\" is a named pipe (FIFO), expected a regular file";
    QTest::newRow("missing") << "missing.bin" << "\"missing.bin\" does not exist in the directory " + base;
    QTest::newRow("empty") << "" << "an empty file name";
  }
  void resolveInsideConfinesTheName() {
    QFETCH(QString, name);
    QFETCH(QString, error);
    QCOMPARE(QString::fromStdString(errorOf(resolveInside(dir_.path().toStdString(), name.toStdString()))), error);
  }

  void resolveInsideFollowsLinksThatStayInside() {
    Result<ContainedFile> file = resolveInside(dir_.path().toStdString(), "inside_link");
    QVERIFY2(file.isOk(), errorOf(file).c_str());
    QCOMPARE(file->path, path("inside_link"));
    QCOMPARE(file->size, int64_t{5});
  }

  void byteRangesAreCheckedWithoutOverflow_data() {
    QTest::addColumn<qint64>("offset");
    QTest::addColumn<qint64>("length");
    QTest::addColumn<QString>("error");
    QTest::newRow("inside") << qint64(8) << qint64(8) << "(no error)";
    QTest::newRow("past the end") << qint64(8) << qint64(9) << "9 bytes at offset 8 run past the end of the 16-byte file";
    QTest::newRow("overflow") << std::numeric_limits<qint64>::max() << qint64(16)
                              << "16 bytes at offset 9223372036854775807 run past the end of the 16-byte file";
    QTest::newRow("negative offset") << qint64(-8) << qint64(4) << "offset -8 is negative";
    QTest::newRow("negative length") << qint64(0) << qint64(-1) << "length -1 is negative";
  }
  void byteRangesAreCheckedWithoutOverflow() {
    QFETCH(qint64, offset);
    QFETCH(qint64, length);
    QFETCH(QString, error);
    QCOMPARE(QString::fromStdString(errorOf(checkByteRange(offset, length, 16))), error);
  }

  void readFileRangeReadsTheRange() {
    Result<std::vector<std::byte>> bytes = readFileRange(path("data.bin"), 10, 6);
    QVERIFY(bytes.isOk());
    QCOMPARE(std::string(reinterpret_cast<const char*>(bytes->data()), bytes->size()), std::string("abcdef"));
    QCOMPARE(errorOf(readFileRange(path("data.bin"), 10, 7)), path("data.bin") + ": 7 bytes at offset 10 run past the end of the 16-byte file");
    QCOMPARE(errorOf(readFileRange(path("pipe"), 0, 1)), path("pipe") + ": is a named pipe (FIFO), expected a regular file");
  }
};

QTEST_GUILESS_MAIN(TestFileSafety)
#include "test_file_safety.moc"
