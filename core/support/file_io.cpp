#include "support/file_io.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
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
  if (S_ISCHR(mode) || S_ISBLK(mode)) return "a device";
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

Status writeFileAtomic(const std::string& path, std::string_view content) {
  std::filesystem::path target(path);
  std::filesystem::path directory = target.has_parent_path() ? target.parent_path() : std::filesystem::path(".");
  std::string pattern = (directory / ("." + target.filename().string() + ".tmp-XXXXXX")).string();
  int fd = ::mkstemp(pattern.data());
  if (fd < 0) return makeError(std::string("cannot create a temporary file: ") + std::strerror(errno), {path});

  auto fail = [&](const char* what) {
    std::string reason = std::strerror(errno);
    ::close(fd);
    ::unlink(pattern.c_str());
    return makeError(std::string(what) + ": " + reason, {path});
  };
  std::size_t written = 0;
  while (written < content.size()) {
    ssize_t n = ::write(fd, content.data() + written, content.size() - written);
    if (n < 0) {
      if (errno == EINTR) continue;
      return fail("write failed");
    }
    written += static_cast<std::size_t>(n);
  }
  if (::fsync(fd) != 0) return fail("flush failed");
  if (::fchmod(fd, 0644) != 0) return fail("cannot set permissions");
  if (::close(fd) != 0) {
    ::unlink(pattern.c_str());
    return makeError(std::string("close failed: ") + std::strerror(errno), {path});
  }
  if (std::rename(pattern.c_str(), path.c_str()) != 0) {
    std::string reason = std::strerror(errno);
    ::unlink(pattern.c_str());
    return makeError("cannot replace the file: " + reason, {path});
  }
  return Status::ok();
}

}  // namespace byoc
