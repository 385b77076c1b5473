#pragma once
/// \file
/// NumPy `.npz` archives: a zip file whose members are `<name>.npy` files, here stored without
/// compression (as `numpy.savez` does), each with its CRC-32. Member order is the order given, and
/// every time stamp is 1980-01-01 00:00, so the same arrays always give the same bytes.
///
/// Archives are limited to what zip holds without its ZIP64 extension: 65,535 members and 4 GiB;
/// beyond that, and for names that are empty or repeated, the writer returns an error.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/ndarray.h"
#include "support/result.h"

namespace byoc {

/// CRC-32 as zip computes it (the reflected polynomial 0xEDB88320).
uint32_t crc32(std::string_view bytes);

/// One file of a zip archive.
struct ZipMember {
  std::string name;
  std::string data;
};

/// The bytes of a zip archive storing `members` uncompressed.
Result<std::string> writeZipStored(const std::vector<ZipMember>& members);

/// One named array of an `.npz` file; `numpy.load(file)[name]` gives it back.
struct NpzArray {
  std::string name;
  NDArray array;
};

/// The bytes of an `.npz` file holding `arrays`, in order; an error names an array NumPy cannot
/// hold (bfloat16).
Result<std::string> encodeNpz(const std::vector<NpzArray>& arrays);

}  // namespace byoc
