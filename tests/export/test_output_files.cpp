#include <QTemporaryDir>
#include <QtTest>

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <unistd.h>

#include <csignal>
#include <cstring>
#include <filesystem>
#include <string>
#include <thread>

#include "support/file_io.h"

using namespace byoc;

namespace {

namespace fs = std::filesystem;

std::string errorOf(const Status& status) { return status ? std::string("(no error)") : status.error().str(); }

/// The status of `path` without following a link; st_mode 0 when it does not exist.
struct stat statusOf(const std::string& path) {
  struct stat status {};
  if (::lstat(path.c_str(), &status) != 0) status.st_mode = 0;
  return status;
}

mode_t permissionsOf(const std::string& path) { return statusOf(path).st_mode & 07777; }

std::string contentOf(const std::string& path) {
  Result<std::string> content = readFile(path);
  return content ? *content : "(" + content.error().str() + ")";
}

/// The umask set for the life of this object.
class ScopedUmask {
 public:
  explicit ScopedUmask(mode_t mask) : previous_(::umask(mask)) {}
  ~ScopedUmask() { ::umask(previous_); }

 private:
  mode_t previous_;
};

/// A limit on the size of the files this process writes, for the life of this object: writing past
/// it fails with EFBIG (SIGXFSZ is ignored meanwhile), as it does for root too.
class ScopedFileSizeLimit {
 public:
  explicit ScopedFileSizeLimit(rlim_t bytes) {
    ::getrlimit(RLIMIT_FSIZE, &previous_);
    previousHandler_ = std::signal(SIGXFSZ, SIG_IGN);
    const rlimit limited{bytes, previous_.rlim_max};
    ::setrlimit(RLIMIT_FSIZE, &limited);
  }
  ~ScopedFileSizeLimit() {
    ::setrlimit(RLIMIT_FSIZE, &previous_);
    std::signal(SIGXFSZ, previousHandler_);
  }

 private:
  rlimit previous_{};
  void (*previousHandler_)(int) = nullptr;
};

}  // namespace

/// The one writer of the files a user names (`writeFileAtomic`): regular files are replaced in one
/// rename keeping their mode, links are written through, devices and named pipes are streams that
/// are never replaced, and everything else is refused. These run as root in CI: the device cases use
/// only /dev/null and /dev/full and check that they are still devices afterwards.
class TestOutputFiles : public QObject {
  Q_OBJECT

  QTemporaryDir dir_;

  std::string path(const std::string& relative) const { return dir_.path().toStdString() + "/" + relative; }

  /// The names in the test directory that are temporaries of the writer.
  QStringList temporaries() const {
    QStringList names = QDir(dir_.path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot);
    names.removeIf([](const QString& name) { return !name.contains(QStringLiteral(".tmp-")); });
    return names;
  }

  /// Whether `device` is (still) a character device.
  static bool isCharacterDevice(const char* device) { return S_ISCHR(statusOf(device).st_mode); }

 private slots:
  void init() { QVERIFY(dir_.isValid()); }
  void cleanup() { QCOMPARE(temporaries(), QStringList()); }

  void aNewFileHonoursTheUmask_data() {
    QTest::addColumn<int>("mask");
    QTest::addColumn<int>("mode");
    QTest::newRow("022") << 022 << 0644;
    QTest::newRow("077") << 077 << 0600;
    QTest::newRow("027") << 027 << 0640;
    QTest::newRow("002") << 002 << 0664;
  }
  void aNewFileHonoursTheUmask() {
    QFETCH(int, mask);
    QFETCH(int, mode);
    const std::string file = path("new-" + std::to_string(mask) + ".txt");
    {
      const ScopedUmask umask(static_cast<mode_t>(mask));
      QCOMPARE(errorOf(writeFileAtomic(file, "new\n")), std::string("(no error)"));
    }
    QCOMPARE(contentOf(file), std::string("new\n"));
    QCOMPARE(permissionsOf(file), static_cast<mode_t>(mode));
  }

  void aReplacedFileKeepsItsMode_data() {
    QTest::addColumn<int>("mode");
    QTest::newRow("0600") << 0600;
    QTest::newRow("0640") << 0640;
    QTest::newRow("0755") << 0755;
    QTest::newRow("0444") << 0444;
  }
  void aReplacedFileKeepsItsMode() {
    QFETCH(int, mode);
    const std::string file = path("kept-" + std::to_string(mode) + ".txt");
    QVERIFY(writeFileAtomic(file, "old\n").isOk());
    QCOMPARE(::chmod(file.c_str(), static_cast<mode_t>(mode)), 0);
    const ino_t before = statusOf(file).st_ino;
    {
      const ScopedUmask umask(0);  // the old mode is kept, not the umask's
      QCOMPARE(errorOf(writeFileAtomic(file, "new\n")), std::string("(no error)"));
    }
    QCOMPARE(contentOf(file), std::string("new\n"));
    QCOMPARE(permissionsOf(file), static_cast<mode_t>(mode));
    QVERIFY(statusOf(file).st_ino != before);  // replaced in one rename, not rewritten in place
  }

  /// Root (as CI runs) replacing another user's file leaves it that user's.
  void aReplacedFileKeepsItsOwner() {
    if (::geteuid() != 0) QSKIP("only root can give a file to another user");
    const std::string file = path("owned.txt");
    QVERIFY(writeFileAtomic(file, "old\n").isOk());
    QCOMPARE(::chown(file.c_str(), 65534, 65534), 0);
    QVERIFY(writeFileAtomic(file, "new\n").isOk());
    QCOMPARE(contentOf(file), std::string("new\n"));
    QCOMPARE(statusOf(file).st_uid, uid_t(65534));
    QCOMPARE(statusOf(file).st_gid, gid_t(65534));
  }

  void aFailedWriteLeavesTheFileAsItWas() {
    const std::string file = path("unchanged.txt");
    QVERIFY(writeFileAtomic(file, "old\n").isOk());
    Status written;
    {
      const ScopedFileSizeLimit limit(4096);
      written = writeFileAtomic(file, std::string(10000, 'x'));
    }
    QCOMPARE(errorOf(written), file + ": write failed: File too large");
    QCOMPARE(contentOf(file), std::string("old\n"));
  }

  void aLinkIsWrittenThrough() {
    QVERIFY(fs::create_directory(path("real")));
    const std::string target = path("real/target.txt");
    QVERIFY(writeFileAtomic(target, "old\n").isOk());
    QCOMPARE(::chmod(target.c_str(), 0600), 0);
    fs::create_symlink("real/target.txt", path("link"));
    fs::create_symlink("link", path("link-to-link"));
    QCOMPARE(errorOf(writeFileAtomic(path("link-to-link"), "new\n")), std::string("(no error)"));
    QVERIFY(S_ISLNK(statusOf(path("link")).st_mode));
    QVERIFY(S_ISLNK(statusOf(path("link-to-link")).st_mode));
    QCOMPARE(fs::read_symlink(path("link")).string(), std::string("real/target.txt"));
    QCOMPARE(contentOf(target), std::string("new\n"));
    QCOMPARE(permissionsOf(target), mode_t(0600));
    QCOMPARE(QDir(QString::fromStdString(path("real"))).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot),
             QStringList{"target.txt"});
  }

  void aDanglingLinkCreatesItsTarget() {
    fs::create_symlink("created.txt", path("dangling"));
    QCOMPARE(errorOf(writeFileAtomic(path("dangling"), "made\n")), std::string("(no error)"));
    QVERIFY(S_ISLNK(statusOf(path("dangling")).st_mode));
    QCOMPARE(contentOf(path("created.txt")), std::string("made\n"));
  }

  void aLinkLoopIsRefused() {
    fs::create_symlink("loop-b", path("loop-a"));
    fs::create_symlink("loop-a", path("loop-b"));
    QCOMPARE(errorOf(writeFileAtomic(path("loop-a"), "x")),
             path("loop-a") + ": is a chain of more than 40 symbolic links; not writing through it");
    QVERIFY(S_ISLNK(statusOf(path("loop-a")).st_mode));
    QVERIFY(S_ISLNK(statusOf(path("loop-b")).st_mode));
  }

  void devNullIsWrittenThroughAndStaysADevice() {
    if (!isCharacterDevice("/dev/null")) QSKIP("/dev/null is not a character device on this machine");
    const dev_t device = statusOf("/dev/null").st_rdev;
    QCOMPARE(errorOf(writeFileAtomic("/dev/null", "discarded\n")), std::string("(no error)"));
    QVERIFY(isCharacterDevice("/dev/null"));
    QCOMPARE(statusOf("/dev/null").st_rdev, device);
  }

  void devFullIsAWriteErrorAndStaysADevice() {
    if (!isCharacterDevice("/dev/full")) QSKIP("/dev/full is not a character device on this machine");
    const dev_t device = statusOf("/dev/full").st_rdev;
    QCOMPARE(errorOf(writeFileAtomic("/dev/full", "lost\n")), std::string("/dev/full: write failed: No space left on device"));
    QVERIFY(isCharacterDevice("/dev/full"));
    QCOMPARE(statusOf("/dev/full").st_rdev, device);
  }

  void aNamedPipeIsWrittenToItsReader() {
    const std::string pipe = path("pipe");
    QCOMPARE(::mkfifo(pipe.c_str(), 0600), 0);
    std::string content;  // more than a pipe holds, so that the writer waits for the reader
    for (int i = 0; content.size() < (std::size_t{1} << 20); ++i) content += std::to_string(i) + "\n";
    std::string received;
    std::thread reader([&] {
      const int fd = ::open(pipe.c_str(), O_RDONLY | O_CLOEXEC);
      if (fd < 0) return;
      char buffer[4096];
      for (ssize_t n; (n = ::read(fd, buffer, sizeof buffer)) > 0;) received.append(buffer, static_cast<std::size_t>(n));
      ::close(fd);
    });
    const Status written = writeFileAtomic(pipe, content);
    reader.join();
    QCOMPARE(errorOf(written), std::string("(no error)"));
    QVERIFY(received == content);
    QVERIFY(S_ISFIFO(statusOf(pipe).st_mode));
  }

  void aNamedPipeWhoseReaderLeavesIsAWriteError() {
    const std::string pipe = path("pipe-closed");
    QCOMPARE(::mkfifo(pipe.c_str(), 0600), 0);
    std::thread reader([&] {
      const int fd = ::open(pipe.c_str(), O_RDONLY | O_CLOEXEC);
      if (fd >= 0) ::close(fd);  // gone before reading: the writer fills the pipe and gets EPIPE
    });
    const Status written = writeFileAtomic(pipe, std::string(std::size_t{1} << 20, 'x'));
    reader.join();
    QCOMPARE(errorOf(written), pipe + ": write failed: Broken pipe");
    QVERIFY(S_ISFIFO(statusOf(pipe).st_mode));
  }

  void otherKindsAreRefused() {
    QVERIFY(fs::create_directory(path("folder")));
    QCOMPARE(errorOf(writeFileAtomic(path("folder"), "x")), path("folder") + ": is a directory; not writing over it");
    QCOMPARE(errorOf(writeFileAtomic(path("folder") + "/", "x")), path("folder") + "/: is a directory; not writing over it");
    fs::create_symlink("folder", path("folder-link"));
    QCOMPARE(errorOf(writeFileAtomic(path("folder-link"), "x")),
             path("folder-link") + ": is a symbolic link to " + path("folder") + ", which is a directory; not writing over it");
    QVERIFY(S_ISDIR(statusOf(path("folder")).st_mode));

    const std::string socketPath = path("socket");
    const int listener = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    QVERIFY(listener >= 0);
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    QVERIFY(socketPath.size() < sizeof address.sun_path);
    std::strcpy(address.sun_path, socketPath.c_str());
    QCOMPARE(::bind(listener, reinterpret_cast<const sockaddr*>(&address), sizeof address), 0);
    QCOMPARE(errorOf(writeFileAtomic(socketPath, "x")), socketPath + ": is a socket; not writing over it");
    QVERIFY(S_ISSOCK(statusOf(socketPath).st_mode));
    ::close(listener);
  }

  /// A block device node of our own (loop0's numbers), never opened: only root can make one.
  void aBlockDeviceIsRefused() {
    const std::string node = path("block");
    if (::mknod(node.c_str(), S_IFBLK | 0600, makedev(7, 0)) != 0) QSKIP("cannot make a block device node here (needs root)");
    QCOMPARE(errorOf(writeFileAtomic(node, "x")), node + ": is a block device; not writing over it");
    QVERIFY(S_ISBLK(statusOf(node).st_mode));
    QCOMPARE(::unlink(node.c_str()), 0);
  }

  void aMissingFolderIsAnError() {
    QCOMPARE(errorOf(writeFileAtomic(path("absent/out.txt"), "x")),
             path("absent/out.txt") + ": cannot create a temporary file beside it: No such file or directory");
    QVERIFY(writeFileAtomic(path("plain"), "a file").isOk());
    QCOMPARE(errorOf(writeFileAtomic(path("plain/out.txt"), "x")),
             path("plain/out.txt") + ": cannot create a temporary file beside it: Not a directory");
  }
};

QTEST_GUILESS_MAIN(TestOutputFiles)
#include "test_output_files.moc"
