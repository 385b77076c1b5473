#pragma once
/// \file
/// Reading whole files, and writing the files a user names, so that nothing that was on disk is ever
/// left half-written and nothing but a regular file is ever replaced.
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
/// "a named pipe (FIFO)", "a character device", ...), or "" for a regular file.
std::string nonRegularFileKind(mode_t mode);

/// Writes all of `content` to the open file `fd`, retrying short writes; errors name `path`.
Status writeToDescriptor(int fd, std::string_view content, const std::string& path);

/// Writes `content` to `path`, the one writer of every output a user names (`-o`, `--params`,
/// `--output`, screenshots, images, targets). What happens depends on what `path` is:
/// - nothing, or a regular file: a temporary file beside it is written, flushed and renamed over it,
///   so that the path holds the old or the new content, never a part. A replaced file keeps its
///   permissions (and owner, where the system allows); a new file gets 0666 less the umask.
/// - a symbolic link: written through, the file its chain of links ends at is written as above
///   (beside that file); the link stays.
/// - a character device or a named pipe (`/dev/null`, `/dev/stdout`, a FIFO): written through as a
///   stream, never replaced; opening a FIFO waits for its reader. A write error (ENOSPC on
///   `/dev/full`, a reader that has gone) is an error.
/// - anything else (a directory, a socket, a block device): refused, the error says what it is.
/// On an error the file is unchanged (a stream may have received a part) and no temporary is left.
Status writeFileAtomic(const std::string& path, std::string_view content);

}  // namespace byoc
