#include "export/staging.h"

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <utility>

#include "support/file_io.h"

namespace byoc {

namespace {

namespace fs = std::filesystem;

constexpr std::string_view kMarkerTitle = "byoc-export staging folder";
/// The characters mkdtemp puts in place of its XXXXXX.
constexpr std::size_t kRandomPartLength = 6;

std::string hostName() {
  char name[256] = {};
  if (::gethostname(name, sizeof name - 1) != 0) return "";
  return name;
}

/// The start time of process `pid` (field 22 of /proc/PID/stat), or "" when unknown.
std::string startTimeOf(int64_t pid) {
  Result<std::string> stat = readFile("/proc/" + std::to_string(pid) + "/stat");
  if (!stat) return "";
  // The command name (field 2) is in parentheses and may hold spaces: count fields after it.
  const std::size_t close = stat->rfind(')');
  if (close == std::string::npos) return "";
  std::size_t at = close + 1;
  for (int field = 3; field <= 22; ++field) {
    const std::size_t begin = stat->find_first_not_of(' ', at);
    if (begin == std::string::npos) return "";
    at = stat->find(' ', begin);
    if (field == 22) return stat->substr(begin, at == std::string::npos ? std::string::npos : at - begin);
  }
  return "";
}

/// The umask of this process, read without changing it (which would race with other threads), or
/// nullopt when the system does not say.
std::optional<mode_t> currentUmask() {
  Result<std::string> status = readFile("/proc/self/status");
  if (!status) return std::nullopt;
  const std::size_t line = status->find("\nUmask:");
  if (line == std::string::npos) return std::nullopt;
  char* end = nullptr;
  const unsigned long mask = std::strtoul(status->c_str() + line + 7, &end, 8);
  if (end == status->c_str() + line + 7 || mask > 0777) return std::nullopt;
  return static_cast<mode_t>(mask);
}

fs::path parentOf(const fs::path& out) { return out.has_parent_path() ? out.parent_path() : fs::path("."); }

std::string stagingPrefix(const fs::path& out) { return "." + out.filename().string() + ".tmp-"; }

/// Whether `folder` is a staging folder (not a link) whose marker names a writer that is gone.
bool isStale(const fs::path& folder) {
  std::error_code ignored;
  if (!fs::is_directory(fs::symlink_status(folder, ignored))) return false;
  const fs::path marker = folder / kStagingMarkerName;
  if (!fs::is_regular_file(fs::symlink_status(marker, ignored))) return false;
  Result<std::string> text = readFile(marker.string());
  if (!text) return false;
  std::optional<StagingWriter> writer = parseStagingMarker(*text);
  return writer && stagingWriterIsGone(*writer);
}

}  // namespace

StagingWriter currentStagingWriter() {
  const int64_t pid = ::getpid();
  return {hostName(), pid, startTimeOf(pid)};
}

std::string stagingMarkerText(const StagingWriter& writer) {
  return std::string(kMarkerTitle) + "\nhost=" + writer.host + "\npid=" + std::to_string(writer.pid) +
         "\nstarted=" + writer.started + "\n";
}

std::optional<StagingWriter> parseStagingMarker(std::string_view text) {
  StagingWriter writer;
  bool hasPid = false;
  std::size_t at = 0;
  for (int line = 0; at < text.size(); ++line) {
    std::size_t end = text.find('\n', at);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view row = text.substr(at, end - at);
    at = end + 1;
    if (line == 0) {
      if (row != kMarkerTitle) return std::nullopt;
      continue;
    }
    const std::size_t equals = row.find('=');
    if (equals == std::string_view::npos) return std::nullopt;
    const std::string_view key = row.substr(0, equals);
    const std::string value(row.substr(equals + 1));
    if (key == "host") writer.host = value;
    else if (key == "started") writer.started = value;
    else if (key == "pid") {
      char* endOfNumber = nullptr;
      writer.pid = std::strtoll(value.c_str(), &endOfNumber, 10);
      hasPid = !value.empty() && *endOfNumber == '\0' && writer.pid > 0;
    }
  }
  if (!hasPid || writer.host.empty()) return std::nullopt;
  return writer;
}

bool stagingWriterIsGone(const StagingWriter& writer) {
  if (writer.host != hostName()) return false;
  if (::kill(static_cast<pid_t>(writer.pid), 0) != 0 && errno == ESRCH) return true;
  // A process with that pid runs: it is another one when its start time differs.
  const std::string started = startTimeOf(writer.pid);
  return !writer.started.empty() && !started.empty() && started != writer.started;
}

std::string stagingPattern(const fs::path& out) { return (parentOf(out) / (stagingPrefix(out) + "XXXXXX")).string(); }

Result<StagingDirectory> StagingDirectory::createBeside(const fs::path& out) {
  std::string pattern = stagingPattern(out);
  if (!::mkdtemp(pattern.data()))
    return makeError(std::string("cannot create a temporary directory beside it: ") + std::strerror(errno), {out.string()});
  StagingDirectory staging{fs::path(pattern)};
  // mkdtemp creates it private; the export is an ordinary directory, whose mode the umask decides.
  if (const std::optional<mode_t> umask = currentUmask()) ::chmod(pattern.c_str(), 0777 & ~*umask);
  BYOC_TRY(writeFileAtomic((staging.path_ / kStagingMarkerName).string(), stagingMarkerText(currentStagingWriter())));
  return staging;
}

StagingDirectory::StagingDirectory(StagingDirectory&& other) noexcept : path_(std::exchange(other.path_, {})) {}

StagingDirectory::~StagingDirectory() {
  std::error_code ignored;
  if (!path_.empty()) fs::remove_all(path_, ignored);  // our own folder: mkdtemp made it, we wrote its content
}

Status StagingDirectory::unmark() {
  std::error_code error;
  fs::remove(path_ / kStagingMarkerName, error);
  if (error) return makeError("cannot remove the marker: " + error.message(), {(path_ / kStagingMarkerName).string()});
  return Status::ok();
}

fs::path StagingDirectory::release() { return std::exchange(path_, {}); }

fs::path exportLockPath(const fs::path& out) { return parentOf(out) / ("." + out.filename().string() + ".lock"); }

Result<ExportLock> ExportLock::acquire(const fs::path& out) {
  const fs::path path = exportLockPath(out);
  // The holder removes the file when it is done: a lock taken on a file that is no longer the one
  // at the path is taken again on the new one.
  for (;;) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd < 0) return makeError(std::string("cannot create the lock file beside it: ") + std::strerror(errno), {out.string()});
    ExportLock lock(path, fd);
    struct stat locked {};
    if (::fstat(fd, &locked) != 0 || !S_ISREG(locked.st_mode) || locked.st_size != 0) {
      lock.path_.clear();  // not a lock file this program made: left as it is
      return makeError("is not an export lock (an empty file); not exporting beside it; move it away first", {path.string()});
    }
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
      const int reason = errno;
      lock.path_.clear();  // held by another export, which removes it
      if (reason == EWOULDBLOCK)
        return makeError("another export into this directory is under way; try again once it has finished", {out.string()});
      return makeError(std::string("cannot lock it: ") + std::strerror(reason), {path.string()});
    }
    struct stat current {};
    if (::lstat(path.c_str(), &current) == 0 && current.st_dev == locked.st_dev && current.st_ino == locked.st_ino) return lock;
    lock.path_.clear();  // removed or replaced by the export that held it: that file is not ours to remove
  }
}

ExportLock::ExportLock(ExportLock&& other) noexcept
    : path_(std::exchange(other.path_, {})), fd_(std::exchange(other.fd_, -1)) {}

ExportLock::~ExportLock() {
  // Removed while still held, so that no other export holds a lock on the file removed.
  if (!path_.empty()) ::unlink(path_.c_str());
  if (fd_ >= 0) ::close(fd_);
}

std::vector<fs::path> removeStaleStaging(const fs::path& out) {
  const std::string prefix = stagingPrefix(out);
  std::vector<fs::path> stale;
  std::error_code error;
  for (fs::directory_iterator it(parentOf(out), error); !error && it != fs::directory_iterator(); it.increment(error)) {
    const std::string name = it->path().filename().string();
    if (name.size() != prefix.size() + kRandomPartLength || !name.starts_with(prefix)) continue;
    if (isStale(it->path())) stale.push_back(it->path());
  }
  for (const fs::path& folder : stale) fs::remove_all(folder, error);
  return stale;
}

}  // namespace byoc
