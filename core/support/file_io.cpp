#include "support/file_io.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace byoc {

Result<std::string> readFile(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) return makeError("is a directory, expected a file", {path});
  std::ifstream in(path, std::ios::binary);
  if (!in) return makeError(std::string("cannot open: ") + std::strerror(errno), {path});
  std::ostringstream content;
  content << in.rdbuf();
  if (in.bad()) return makeError("read failed", {path});
  return content.str();
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
