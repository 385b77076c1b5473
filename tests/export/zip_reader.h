#pragma once
/// \file
/// A small, strict reader of stored (uncompressed) zip archives for the tests: it walks the
/// end-of-central-directory record, every central directory entry and the local header each one
/// points to, checks that they agree and that each member's CRC-32 (computed here bit by bit,
/// independently of the writer's table) is right.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace byoc::testing {

/// One member read back.
struct ZipEntry {
  std::string name;
  uint32_t crc = 0;
  std::string data;
};

/// The members of `archive`, or a description of the first inconsistency in `problem`.
inline std::optional<std::vector<ZipEntry>> readStoredZip(std::string_view archive, std::string& problem) {
  auto u16 = [&](std::size_t at) -> uint32_t {
    return static_cast<unsigned char>(archive[at]) | static_cast<unsigned char>(archive[at + 1]) << 8;
  };
  auto u32 = [&](std::size_t at) -> uint32_t { return u16(at) | u16(at + 2) << 16; };
  auto crcOf = [](std::string_view bytes) {
    uint32_t crc = 0xFFFFFFFFu;
    for (char c : bytes) {
      crc ^= static_cast<unsigned char>(c);
      for (int bit = 0; bit < 8; ++bit) crc = (crc >> 1) ^ ((crc & 1) ? 0xEDB88320u : 0u);
    }
    return ~crc;
  };
  auto fail = [&](std::string message) {
    problem = std::move(message);
    return std::nullopt;
  };
  if (archive.size() < 22) return fail("shorter than an end-of-central-directory record");
  const std::size_t end = archive.size() - 22;
  if (u32(end) != 0x06054b50) return fail("no end-of-central-directory record at the end");
  const uint32_t count = u16(end + 10);
  if (u16(end + 8) != count) return fail("the record's two member counts differ");
  const std::size_t directorySize = u32(end + 12);
  std::size_t at = u32(end + 16);
  if (at + directorySize != end) return fail("the central directory does not end where the record starts");
  std::vector<ZipEntry> entries;
  for (uint32_t i = 0; i < count; ++i) {
    if (at + 46 > end || u32(at) != 0x02014b50) return fail("central directory entry " + std::to_string(i) + " is missing");
    if (u16(at + 10) != 0) return fail("member " + std::to_string(i) + " is compressed");
    ZipEntry entry;
    entry.crc = u32(at + 16);
    const uint32_t size = u32(at + 24);
    if (u32(at + 20) != size) return fail("member " + std::to_string(i) + ": stored sizes differ");
    const std::size_t nameLength = u16(at + 28);
    const std::size_t local = u32(at + 42);
    entry.name = std::string(archive.substr(at + 46, nameLength));
    at += 46 + nameLength + u16(at + 30) + u16(at + 32);
    if (local + 30 > archive.size() || u32(local) != 0x04034b50) return fail(entry.name + ": no local header");
    if (u32(local + 14) != entry.crc || u32(local + 18) != size || u32(local + 22) != size || u16(local + 26) != nameLength ||
        archive.substr(local + 30, nameLength) != entry.name)
      return fail(entry.name + ": the local header differs from the central directory");
    const std::size_t data = local + 30 + nameLength + u16(local + 28);
    if (data + size > archive.size()) return fail(entry.name + ": data runs past the end");
    entry.data = std::string(archive.substr(data, size));
    if (crcOf(entry.data) != entry.crc) return fail(entry.name + ": wrong CRC-32");
    entries.push_back(std::move(entry));
  }
  return entries;
}

}  // namespace byoc::testing
