#pragma once
/// \file
/// Files that an input names (the external data of an ONNX model, the files of an export), resolved
/// inside the directory of that input: no input makes the program read or follow anything outside
/// it, nor open a directory, a device or a named pipe.

#include <cstdint>
#include <string>
#include <string_view>

#include "support/result.h"

namespace byoc {

/// A regular file found inside a base directory.
struct ContainedFile {
  std::string path;  ///< The path to open: the base directory joined with the name.
  int64_t size = 0;  ///< Its size in bytes.
};

/// Resolves `name`, a path that an input gives, inside the directory `base` ("" is the current
/// directory). Accepted is a relative path without `..` (or empty) parts that, with every symbolic
/// link followed, names a regular file inside `base`. The error message quotes `name` and says what
/// was found (an absolute path, a `..` part, a missing file, a link leading outside, a directory,
/// a device, a named pipe); it carries no location, which the caller knows.
Result<ContainedFile> resolveInside(const std::string& base, std::string_view name);

/// Checks that `length` bytes at `offset` lie inside a file of `fileSize` bytes, with checked
/// arithmetic. The error (without location) says what was asked for; it never prints a computed
/// number, so an overflow never shows as a negative one.
Status checkByteRange(int64_t offset, int64_t length, int64_t fileSize);

}  // namespace byoc
