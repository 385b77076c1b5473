#pragma once
/// \file
/// Reading whole files, and writing them atomically (temporary file beside the target, then rename),
/// so that nothing that was on disk is ever left half-written.

#include <string>
#include <string_view>

#include "support/result.h"

namespace byoc {

/// The whole content of `path`; the error names the file and the system's reason.
Result<std::string> readFile(const std::string& path);

/// Writes `content` to `path` atomically: a temporary file in the same directory is written,
/// flushed and renamed over `path`. On failure `path` is unchanged and no temporary is left.
Status writeFileAtomic(const std::string& path, std::string_view content);

}  // namespace byoc
