#pragma once
/// \file
/// The safetensors layout: an 8-byte little-endian header length N, N bytes of JSON header
/// (`{"name": {"dtype": "F32", "shape": [..], "data_offsets": [begin, end]}, "__metadata__": {..}}`),
/// then the raw little-endian data, offsets counted from the start of the data.
///
/// The reader never reads past its input: every length and offset is checked against what is
/// there, and errors name the file and the tensor.

#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "support/result.h"

namespace byoc {

/// One tensor to write: its bytes are borrowed until `writeSafetensors` returns.
struct SafetensorsTensor {
  std::string name;                  ///< Its key in the header.
  std::string dtype;                 ///< safetensors spelling: F32, F16, BF16, F64, I8, I16, I32, I64, U8, BOOL
  std::vector<int64_t> shape;        ///< Dimensions, outermost first.
  std::span<const std::byte> bytes;  ///< Exactly the elements' little-endian bytes.
};

/// One tensor of a parsed file: where its bytes lie in the data section.
struct SafetensorsEntry {
  std::string name;            ///< Its key in the header.
  std::string dtype;           ///< safetensors spelling (checked to be known).
  std::vector<int64_t> shape;  ///< Dimensions, outermost first.
  uint64_t begin = 0;  ///< Offset of the first byte, from the start of the data section.
  uint64_t end = 0;    ///< One past the last byte.
};

/// A parsed file: its tensors sorted by name, its metadata, and a view of the data section
/// (valid while the buffer given to `parseSafetensors` lives).
struct SafetensorsIndex {
  std::vector<SafetensorsEntry> entries;        ///< Sorted by name.
  std::map<std::string, std::string> metadata;  ///< The `__metadata__` strings.
  std::string_view data;                        ///< The data section.

  /// The tensor called `name`, or null.
  const SafetensorsEntry* find(std::string_view name) const;
  /// The bytes of `entry` (already checked to lie inside the data).
  std::string_view bytesOf(const SafetensorsEntry& entry) const { return data.substr(entry.begin, entry.end - entry.begin); }
};

/// Every tensor starts at a multiple of this many bytes from the start of the data; the reader
/// refuses a file that breaks it or lets two tensors share a byte.
inline constexpr uint64_t kSafetensorsAlignment = 8;

/// The size in bytes of one element of a safetensors dtype; 0 for an unknown one.
std::size_t safetensorsDTypeSize(std::string_view dtype);

/// The file: tensors laid out in the order given, each aligned to `kSafetensorsAlignment`, with `metadata`.
std::string writeSafetensors(const std::vector<SafetensorsTensor>& tensors, const std::map<std::string, std::string>& metadata = {});

/// Parses and checks the file held in `bytes`; errors name `fileName`.
Result<SafetensorsIndex> parseSafetensors(std::string_view bytes, std::string_view fileName);

}  // namespace byoc
