#pragma once
/// \file
/// Reading whole files, and writing them atomically (temporary file beside the target, then rename),
/// so that nothing that was on disk is ever left half-written.
///
/// Readers take regular files only: a directory, a device (`/dev/zero`), a named pipe or a socket
/// is refused before anything is read, and a pipe never blocks the open. Whole files are bounded by
/// `limits::kMaxFileBytes`.

#include <sys/types.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "support/result.h"

namespace byoc {

/// The whole content of the regular file `path`; the error names the file and says what is wrong
/// (the system's reason, a file that is not regular, a size over the limit).
Result<std::string> readFile(const std::string& path);

/// The `length` bytes at `offset` of the regular file `path`, a range the caller has checked to lie
/// inside the file (safe_path.h); errors name the file.
Result<std::vector<std::byte>> readFileRange(const std::string& path, int64_t offset, int64_t length);

/// What a file of type `mode` (from `stat`) is when it is not a regular file ("a directory",
/// "a named pipe (FIFO)", "a device", ...), or "" for a regular file.
std::string nonRegularFileKind(mode_t mode);

/// Writes `content` to `path` atomically: a temporary file in the same directory is written,
/// flushed and renamed over `path`. On failure `path` is unchanged and no temporary is left.
Status writeFileAtomic(const std::string& path, std::string_view content);

}  // namespace byoc
