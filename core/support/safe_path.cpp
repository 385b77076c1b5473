#include "support/safe_path.h"

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>

#include "support/file_io.h"
#include "support/limits.h"

namespace byoc {

namespace {

namespace fs = std::filesystem;

std::string quoted(std::string_view name) { return "\"" + std::string(name) + "\""; }

/// Whether `inner` is `outer` or lies inside it (both canonical), part by part.
bool isWithin(const fs::path& inner, const fs::path& outer) {
  return std::mismatch(outer.begin(), outer.end(), inner.begin(), inner.end()).first == outer.end();
}

}  // namespace

Result<ContainedFile> resolveInside(const std::string& base, std::string_view name) {
  const std::string baseName = base.empty() ? "." : base;
  if (name.empty()) return makeError("an empty file name");
  const fs::path relative(name);
  if (relative.is_absolute())
    return makeError(quoted(name) + " is an absolute path; expected a path relative to the directory " + baseName);
  for (const fs::path& part : relative)
    if (part == "..") return makeError(quoted(name) + " has a '..' part; expected a path inside the directory " + baseName);
  std::error_code error;
  const fs::path root = fs::canonical(baseName, error);
  if (error) return makeError("cannot resolve the directory " + baseName + " of " + quoted(name) + ": " + error.message());
  const fs::path joined = fs::path(baseName) / relative;
  struct stat linkStatus {};
  if (::lstat(joined.c_str(), &linkStatus) != 0) return makeError(quoted(name) + " does not exist in the directory " + baseName);
  const fs::path target = fs::canonical(joined, error);
  if (error) return makeError(quoted(name) + " cannot be resolved: " + error.message());
  if (!isWithin(target, root))
    return makeError(quoted(name) + " leads outside the directory " + baseName + " through a symbolic link (to " +
                     target.string() + ")");
  struct stat status {};
  if (::stat(target.c_str(), &status) != 0) return makeError(quoted(name) + " cannot be read: " + std::strerror(errno));
  if (const std::string kind = nonRegularFileKind(status.st_mode); !kind.empty())
    return makeError(quoted(name) + " is " + kind + ", expected a regular file");
  return ContainedFile{joined.string(), static_cast<int64_t>(status.st_size)};
}

Status checkByteRange(int64_t offset, int64_t length, int64_t fileSize) {
  if (offset < 0) return makeError("offset " + std::to_string(offset) + " is negative");
  if (length < 0) return makeError("length " + std::to_string(length) + " is negative");
  const std::optional<int64_t> end = limits::checkedAdd(offset, length);
  if (!end || *end > fileSize)
    return makeError(std::to_string(length) + " bytes at offset " + std::to_string(offset) + " run past the end of the " +
                     std::to_string(fileSize) + "-byte file");
  return Status::ok();
}

}  // namespace byoc
