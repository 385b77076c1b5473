#include "support/file_io.h"

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <pthread.h>
#include <sys/stat.h>
#include <unistd.h>

#include <ctime>
#include <filesystem>
#include <random>
#include <utility>

#include "support/limits.h"
#include "support/safe_path.h"

namespace byoc {

namespace {

Diagnostic systemError(const std::string& what, const std::string& path) {
  return makeError(what + ": " + std::strerror(errno), {path});
}

/// A regular file open for reading, closed on destruction.
class RegularFile {
 public:
  /// Opens `path`, refusing anything but a regular file. The open does not block on a named pipe
  /// (O_NONBLOCK, cleared once the file is known to be regular).
  static Result<RegularFile> open(const std::string& path) {
    RegularFile file(::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC));
    if (file.fd_ < 0) return systemError("cannot open", path);
    struct stat status {};
    if (::fstat(file.fd_, &status) != 0) return systemError("cannot read its type", path);
    if (const std::string kind = nonRegularFileKind(status.st_mode); !kind.empty())
      return makeError("is " + kind + ", expected a regular file", {path});
    const int flags = ::fcntl(file.fd_, F_GETFL);
    if (flags < 0 || ::fcntl(file.fd_, F_SETFL, flags & ~O_NONBLOCK) != 0) return systemError("cannot read it", path);
    file.size_ = static_cast<int64_t>(status.st_size);
    return file;
  }
  RegularFile(RegularFile&& other) noexcept : fd_(std::exchange(other.fd_, -1)), size_(other.size_) {}
  RegularFile& operator=(RegularFile&&) = delete;
  ~RegularFile() {
    if (fd_ >= 0) ::close(fd_);
  }
  int fd() const { return fd_; }
  /// Its size when opened.
  int64_t size() const { return size_; }

 private:
  explicit RegularFile(int fd) : fd_(fd) {}
  int fd_;
  int64_t size_ = 0;
};

/// Reads up to `length` bytes at `offset` of `fd` into `out`, stopping early at the end of the file.
Result<std::size_t> readAt(int fd, int64_t offset, std::size_t length, char* out, const std::string& path) {
  std::size_t done = 0;
  while (done < length) {
    const ssize_t n = ::pread(fd, out + done, length - done, static_cast<off_t>(offset) + static_cast<off_t>(done));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return systemError("read failed", path);
    if (n == 0) break;
    done += static_cast<std::size_t>(n);
  }
  return done;
}

std::string bytesText(int64_t bytes) { return std::to_string(bytes) + " bytes"; }

}  // namespace

std::string nonRegularFileKind(mode_t mode) {
  if (S_ISREG(mode)) return "";
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a named pipe (FIFO)";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISLNK(mode)) return "a symbolic link";
  return "not a regular file";
}

Result<std::string> readFile(const std::string& path) {
  BYOC_ASSIGN_OR_RETURN(const RegularFile file, RegularFile::open(path));
  auto tooLarge = [&](int64_t size) {
    return makeError("is " + bytesText(size) + ", more than the limit of " + bytesText(limits::kMaxFileBytes) +
                         " for a file read whole",
                     {path});
  };
  if (file.size() > limits::kMaxFileBytes) return tooLarge(file.size());
  // Read to the end rather than trusting the size: files under /proc report 0, others may grow.
  constexpr std::size_t kChunk = std::size_t{1} << 16;
  std::string content(static_cast<std::size_t>(file.size()) + kChunk, '\0');
  std::size_t done = 0;
  for (;;) {
    if (content.size() - done < kChunk) content.resize(content.size() * 2);
    BYOC_ASSIGN_OR_RETURN(const std::size_t read, readAt(file.fd(), static_cast<int64_t>(done), kChunk, content.data() + done, path));
    done += read;
    if (static_cast<int64_t>(done) > limits::kMaxFileBytes) return tooLarge(static_cast<int64_t>(done));
    if (read == 0) break;
  }
  content.resize(done);
  return content;
}

Result<std::vector<std::byte>> readFileRange(const std::string& path, int64_t offset, int64_t length) {
  BYOC_ASSIGN_OR_RETURN(const RegularFile file, RegularFile::open(path));
  if (Status inside = checkByteRange(offset, length, file.size()); !inside) return makeError(inside.error().message, {path});
  if (length > limits::kMaxFileBytes)
    return makeError(bytesText(length) + " at offset " + std::to_string(offset) + " are more than the limit of " +
                         bytesText(limits::kMaxFileBytes) + " read at once",
                     {path});
  std::vector<std::byte> bytes(static_cast<std::size_t>(length));
  BYOC_ASSIGN_OR_RETURN(const std::size_t read,
                        readAt(file.fd(), offset, bytes.size(), reinterpret_cast<char*>(bytes.data()), path));
  if (read != bytes.size()) return makeError("changed while it was read", {path});
  return bytes;
}

namespace {

namespace fs = std::filesystem;

/// The most symbolic links followed from an output path to the file written, as the system does.
constexpr int kMaxLinkHops = 40;
/// Tries at a free temporary name before giving up.
constexpr int kTemporaryNameAttempts = 100;

/// An open file descriptor, closed on destruction unless closed before.
class Descriptor {
 public:
  explicit Descriptor(int fd) : fd_(fd) {}
  Descriptor(const Descriptor&) = delete;
  Descriptor& operator=(const Descriptor&) = delete;
  ~Descriptor() {
    if (fd_ >= 0) ::close(fd_);
  }
  int get() const { return fd_; }
  /// Closes it; false (errno set) when the close reports an error, such as a late write error.
  bool close() { return ::close(std::exchange(fd_, -1)) == 0; }

 private:
  int fd_;
};

/// For this thread while it lives, a write to a pipe without a reader fails with EPIPE instead of
/// raising SIGPIPE, which would end the program without a message.
class BrokenPipeIsAnError {
 public:
  BrokenPipeIsAnError() {
    ::pthread_sigmask(SIG_BLOCK, &pipeSignal_, &previousMask_);
    wasPending_ = pipeSignalPending();
  }
  BrokenPipeIsAnError(const BrokenPipeIsAnError&) = delete;
  BrokenPipeIsAnError& operator=(const BrokenPipeIsAnError&) = delete;
  ~BrokenPipeIsAnError() {
    const int savedErrno = errno;
    if (!wasPending_ && pipeSignalPending()) {
      const timespec now{};
      while (::sigtimedwait(&pipeSignal_, nullptr, &now) < 0 && errno == EINTR) {
      }
    }
    ::pthread_sigmask(SIG_SETMASK, &previousMask_, nullptr);
    errno = savedErrno;
  }

 private:
  static sigset_t onlyPipeSignal() {
    sigset_t set;
    ::sigemptyset(&set);
    ::sigaddset(&set, SIGPIPE);
    return set;
  }
  static bool pipeSignalPending() {
    sigset_t pending;
    return ::sigpending(&pending) == 0 && ::sigismember(&pending, SIGPIPE) == 1;
  }
  const sigset_t pipeSignal_ = onlyPipeSignal();
  sigset_t previousMask_{};
  bool wasPending_ = false;
};

bool isStream(mode_t mode) { return S_ISCHR(mode) || S_ISFIFO(mode); }

/// Six random letters and digits for a temporary name.
std::string randomNamePart() {
  static constexpr std::string_view kAlphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  thread_local std::mt19937_64 generator{std::random_device{}()};
  std::string part(6, ' ');
  for (char& letter : part) letter = kAlphabet[generator() % kAlphabet.size()];
  return part;
}

/// Writes `content` through the character device or named pipe `path` as a stream: it is opened for
/// writing as it is, never created, truncated or replaced. Opening a named pipe waits for a reader,
/// as for any writer of one.
Status writeStream(const std::string& path, std::string_view content) {
  Descriptor file(::open(path.c_str(), O_WRONLY | O_NOCTTY | O_CLOEXEC));
  if (file.get() < 0) return systemError("cannot open it for writing", path);
  struct stat status {};
  if (::fstat(file.get(), &status) != 0) return systemError("cannot read its type", path);
  if (!isStream(status.st_mode)) return makeError("was replaced while it was opened; nothing was written", {path});
  const BrokenPipeIsAnError brokenPipeIsAnError;
  BYOC_TRY(writeToDescriptor(file.get(), content, path));
  if (!file.close()) return systemError("close failed", path);
  return Status::ok();
}

/// Replaces the regular file `target` with `content`, or creates it when `existing` (its status) is
/// null, in one rename: a temporary file beside it is written, flushed, given the mode and owner of
/// the file it replaces, and renamed over it. A new file is created with 0666 less the umask, as the
/// system creates any file. Errors name `named`, the path the caller gave.
Status replaceRegularFile(const std::string& named, const std::string& target, const struct stat* existing,
                          std::string_view content) {
  const fs::path targetPath(target);
  const fs::path directory = targetPath.has_parent_path() ? targetPath.parent_path() : fs::path(".");
  const std::string prefix = (directory / ("." + targetPath.filename().string() + ".tmp-")).string();
  std::string temporary;
  int fd = -1;
  for (int attempt = 0; fd < 0 && attempt < kTemporaryNameAttempts; ++attempt) {
    temporary = prefix + randomNamePart();
    fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, existing ? 0600 : 0666);
    if (fd < 0 && errno != EEXIST) break;
  }
  if (fd < 0) return systemError("cannot create a temporary file beside it", named);
  Descriptor file(fd);
  auto removeTemporary = [&](Diagnostic error) {
    ::unlink(temporary.c_str());
    return error;
  };
  if (Status written = writeToDescriptor(fd, content, named); !written) return removeTemporary(written.error());
  if (existing) {
    // The owner is kept where the system allows it (always for root); set-id bits are not kept.
    const bool sameOwner = existing->st_uid == ::geteuid() && existing->st_gid == ::getegid();
    if (!sameOwner && ::fchown(fd, existing->st_uid, existing->st_gid) != 0 && errno != EPERM)
      return removeTemporary(systemError("cannot keep its owner", named));
    if (::fchmod(fd, existing->st_mode & 0777) != 0) return removeTemporary(systemError("cannot keep its permissions", named));
  }
  if (::fsync(fd) != 0) return removeTemporary(systemError("flush failed", named));
  if (!file.close()) return removeTemporary(systemError("close failed", named));
  // The path may have changed since it was looked at: only a regular file (or nothing) is replaced.
  struct stat now {};
  if (::lstat(target.c_str(), &now) == 0 && !S_ISREG(now.st_mode))
    return removeTemporary(
        makeError("became " + nonRegularFileKind(now.st_mode) + " while it was written; not replacing it", {named}));
  if (::rename(temporary.c_str(), target.c_str()) != 0) return removeTemporary(systemError("cannot replace the file", named));
  // The rename itself lasts once the directory is flushed; a directory that cannot be is left as it is.
  if (Descriptor folder(::open(directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC)); folder.get() >= 0) ::fsync(folder.get());
  return Status::ok();
}

/// The file that writing `path` lands on: `path`, or the end of its chain of symbolic links (which
/// may not exist yet). Errors name `path`.
Result<std::string> followLinks(const std::string& path) {
  std::string current = path;
  for (int hop = 0; hop <= kMaxLinkHops; ++hop) {
    struct stat status {};
    if (::lstat(current.c_str(), &status) != 0 || !S_ISLNK(status.st_mode)) return current;
    std::error_code error;
    const fs::path next = fs::read_symlink(current, error);
    if (error) return makeError("cannot read the symbolic link: " + error.message(), {path});
    current = next.is_absolute() ? next.string() : (fs::path(current).parent_path() / next).string();
  }
  return makeError("is a chain of more than " + std::to_string(kMaxLinkHops) + " symbolic links; not writing through it", {path});
}

}  // namespace

Status writeToDescriptor(int fd, std::string_view content, const std::string& path) {
  while (!content.empty()) {
    const ssize_t n = ::write(fd, content.data(), content.size());
    if (n < 0 && errno == EINTR) continue;
    if (n == 0) errno = EIO;
    if (n <= 0) return systemError("write failed", path);
    content.remove_prefix(static_cast<std::size_t>(n));
  }
  return Status::ok();
}

Status writeFileAtomic(const std::string& path, std::string_view content) {
  struct stat status {};
  if (::stat(path.c_str(), &status) == 0 && isStream(status.st_mode)) return writeStream(path, content);
  BYOC_ASSIGN_OR_RETURN(const std::string target, followLinks(path));
  if (::lstat(target.c_str(), &status) != 0) return replaceRegularFile(path, target, nullptr, content);
  if (S_ISREG(status.st_mode)) return replaceRegularFile(path, target, &status, content);
  const std::string kind = nonRegularFileKind(status.st_mode);
  return makeError((target == path ? "is " + kind : "is a symbolic link to " + target + ", which is " + kind) +
                       "; not writing over it",
                   {path});
}

}  // namespace byoc
