#include "export/npz_writer.h"

#include <array>
#include <limits>
#include <set>

#include "runtime/npy.h"

namespace byoc {

namespace {

constexpr uint64_t kZipLimit = std::numeric_limits<uint32_t>::max();
constexpr uint16_t kVersion = 20;       // 2.0: stored members
constexpr uint16_t kUtf8Names = 0x0800;  // general purpose flag bit 11
constexpr uint16_t kDosDate = (0 << 9) | (1 << 5) | 1;  // 1980-01-01

const std::array<uint32_t, 256>& crcTable() {
  static const std::array<uint32_t, 256> table = [] {
    std::array<uint32_t, 256> entries{};
    for (uint32_t i = 0; i < 256; ++i) {
      uint32_t value = i;
      for (int bit = 0; bit < 8; ++bit) value = (value & 1) ? 0xEDB88320u ^ (value >> 1) : value >> 1;
      entries[i] = value;
    }
    return entries;
  }();
  return table;
}

void put16(std::string& out, uint16_t value) {
  out += static_cast<char>(value & 0xff);
  out += static_cast<char>(value >> 8);
}

void put32(std::string& out, uint32_t value) {
  for (int shift = 0; shift < 32; shift += 8) out += static_cast<char>((value >> shift) & 0xff);
}

bool isAscii(std::string_view text) {
  for (char c : text)
    if (static_cast<unsigned char>(c) >= 0x80) return false;
  return true;
}

/// The fields a local header and a central directory entry share, from "version needed" to the
/// name length (26 bytes).
void putCommonFields(std::string& out, const ZipMember& member, uint32_t crc) {
  put16(out, kVersion);
  put16(out, isAscii(member.name) ? 0 : kUtf8Names);
  put16(out, 0);  // stored
  put16(out, 0);  // 00:00:00
  put16(out, kDosDate);
  put32(out, crc);
  put32(out, static_cast<uint32_t>(member.data.size()));
  put32(out, static_cast<uint32_t>(member.data.size()));
  put16(out, static_cast<uint16_t>(member.name.size()));
  put16(out, 0);  // extra field length
}

}  // namespace

uint32_t crc32(std::string_view bytes) {
  const auto& table = crcTable();
  uint32_t crc = 0xFFFFFFFFu;
  for (char c : bytes) crc = table[(crc ^ static_cast<unsigned char>(c)) & 0xff] ^ (crc >> 8);
  return crc ^ 0xFFFFFFFFu;
}

Result<std::string> writeZipStored(const std::vector<ZipMember>& members) {
  if (members.size() > std::numeric_limits<uint16_t>::max())
    return makeError("a zip archive holds at most 65535 members without ZIP64, found " + std::to_string(members.size()));
  std::set<std::string_view> names;
  uint64_t total = 0;
  for (const ZipMember& member : members) {
    if (member.name.empty() || member.name.size() > std::numeric_limits<uint16_t>::max())
      return makeError("a zip member needs a name of 1 to 65535 bytes");
    if (!names.insert(member.name).second) return makeError("the zip member '" + member.name + "' is given twice");
    total += 30 + 46 + 2 * member.name.size() + member.data.size();
  }
  if (total + 22 > kZipLimit)
    return makeError("the archive would take " + std::to_string(total + 22) +
                     " bytes; zip archives without ZIP64 are limited to 4 GiB");

  std::string out;
  out.reserve(static_cast<std::size_t>(total + 22));
  std::string directory;
  for (const ZipMember& member : members) {
    const uint32_t crc = crc32(member.data);
    const auto offset = static_cast<uint32_t>(out.size());
    put32(out, 0x04034b50);
    putCommonFields(out, member, crc);
    out += member.name;
    out += member.data;

    put32(directory, 0x02014b50);
    put16(directory, kVersion);  // version made by
    putCommonFields(directory, member, crc);
    put16(directory, 0);  // comment length
    put16(directory, 0);  // disk number
    put16(directory, 0);  // internal attributes
    put32(directory, 0);  // external attributes
    put32(directory, offset);
    directory += member.name;
  }
  const auto directoryOffset = static_cast<uint32_t>(out.size());
  out += directory;
  put32(out, 0x06054b50);
  put16(out, 0);  // this disk
  put16(out, 0);  // disk of the directory
  put16(out, static_cast<uint16_t>(members.size()));
  put16(out, static_cast<uint16_t>(members.size()));
  put32(out, static_cast<uint32_t>(directory.size()));
  put32(out, directoryOffset);
  put16(out, 0);  // comment length
  return out;
}

Result<std::string> encodeNpz(const std::vector<NpzArray>& arrays) {
  std::vector<ZipMember> members;
  members.reserve(arrays.size());
  for (const NpzArray& array : arrays) {
    Result<std::string> npy = encodeNpy(array.array);
    if (!npy) return makeError("array '" + array.name + "': " + npy.error().message);
    members.push_back({array.name + ".npy", std::move(npy).value()});
  }
  return writeZipStored(members);
}

}  // namespace byoc
