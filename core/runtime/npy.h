#pragma once
/// \file
/// The NumPy `.npy` file format (versions 1.0, 2.0 and 3.0): reading into and writing from `NDArray`.
///
/// Supported element types are those of `DType` except bfloat16 (NumPy has none), stored
/// little-endian and in C order. Errors name the file and say what was found and expected;
/// writing is atomic (the file is complete or untouched).

#include <string>
#include <string_view>

#include "runtime/ndarray.h"
#include "support/result.h"

namespace byoc {

/// Parses the bytes of a `.npy` file; `name` is used in error messages.
Result<NDArray> parseNpy(std::string_view content, const std::string& name);
/// Reads a `.npy` file.
Result<NDArray> readNpy(const std::string& path);
/// The bytes of a version 1.0 `.npy` file holding `array`; error for a dtype NumPy cannot store.
Result<std::string> encodeNpy(const NDArray& array);
/// Writes `array` to `path` atomically.
Status writeNpy(const std::string& path, const NDArray& array);

}  // namespace byoc
