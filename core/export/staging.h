#pragma once
/// \file
/// The staging folder of an export: the hidden directory `.OUT.tmp-XXXXXX` beside OUT that an
/// export is written into before it replaces OUT in one rename. Its first file is a marker naming
/// the process that writes it, so that a folder left by an export that was killed is told apart
/// from anything else: the next export of the same OUT removes it once that process is gone. A
/// folder without the marker is never removed.
///
/// An export holds the lock of OUT (`ExportLock`) from looking at the existing OUT until the old
/// content is removed, so that two exports of one OUT never interleave.

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "support/result.h"

namespace byoc {

/// The name of the marker file inside a staging folder.
inline constexpr std::string_view kStagingMarkerName = ".byoc-export-staging";

/// The process a staging marker names.
struct StagingWriter {
  std::string host;     ///< The host name it ran on.
  int64_t pid = 0;      ///< Its process id.
  std::string started;  ///< Its start time (clock ticks after boot), which tells a reused pid apart.
};

/// This process.
StagingWriter currentStagingWriter();
/// The content of a marker naming `writer`.
std::string stagingMarkerText(const StagingWriter& writer);
/// The writer a marker names, or nullopt when `text` is not a staging marker.
std::optional<StagingWriter> parseStagingMarker(std::string_view text);
/// Whether `writer` has ended: it ran on this host and no process with its pid and start time runs.
/// A writer on another host is never taken to be gone.
bool stagingWriterIsGone(const StagingWriter& writer);

/// The name pattern of the staging folders of `out`, for mkdtemp.
std::string stagingPattern(const std::filesystem::path& out);

/// A staging folder with its marker, removed with its content on destruction unless released.
class StagingDirectory {
 public:
  /// Creates a staging folder beside `out` and writes its marker first.
  static Result<StagingDirectory> createBeside(const std::filesystem::path& out);
  StagingDirectory(StagingDirectory&& other) noexcept;
  StagingDirectory& operator=(StagingDirectory&&) = delete;
  ~StagingDirectory();

  const std::filesystem::path& path() const { return path_; }
  /// Removes the marker, once the folder holds exactly the export to publish.
  Status unmark();
  /// Its path, which is no longer removed on destruction.
  std::filesystem::path release();

 private:
  explicit StagingDirectory(std::filesystem::path path) : path_(std::move(path)) {}
  std::filesystem::path path_;
};

/// The lock of the exports of `out`: the empty file `.OUT.lock` beside OUT, held with flock while
/// it lives and removed when it ends. The system drops the lock of a process that is killed; the
/// file it leaves is taken over by the next export.
class ExportLock {
 public:
  /// Takes the lock of `out`, or fails at once when another export of `out` holds it.
  static Result<ExportLock> acquire(const std::filesystem::path& out);
  ExportLock(ExportLock&& other) noexcept;
  ExportLock& operator=(ExportLock&&) = delete;
  ~ExportLock();

 private:
  ExportLock(std::filesystem::path path, int fd) : path_(std::move(path)), fd_(fd) {}
  std::filesystem::path path_;
  int fd_ = -1;
};

/// The lock file of the exports of `out`.
std::filesystem::path exportLockPath(const std::filesystem::path& out);

/// Removes the stale staging folders of `out`: directories named by `stagingPattern(out)` whose
/// marker names a writer that is gone. Returns the folders removed.
std::vector<std::filesystem::path> removeStaleStaging(const std::filesystem::path& out);

}  // namespace byoc
