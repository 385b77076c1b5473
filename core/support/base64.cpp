#include "support/base64.h"

#include <array>
#include <cstdint>

namespace byoc {

namespace {

constexpr std::string_view kAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

constexpr std::array<int8_t, 256> makeDecodeTable() {
  std::array<int8_t, 256> table{};
  for (auto& entry : table) entry = -1;
  for (std::size_t i = 0; i < kAlphabet.size(); ++i) table[static_cast<unsigned char>(kAlphabet[i])] = static_cast<int8_t>(i);
  return table;
}

constexpr std::array<int8_t, 256> kDecode = makeDecodeTable();

}  // namespace

std::string base64Encode(std::span<const std::byte> bytes) {
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  std::size_t i = 0;
  for (; i + 3 <= bytes.size(); i += 3) {
    uint32_t chunk = (std::to_integer<uint32_t>(bytes[i]) << 16) | (std::to_integer<uint32_t>(bytes[i + 1]) << 8) |
                     std::to_integer<uint32_t>(bytes[i + 2]);
    out += kAlphabet[(chunk >> 18) & 63];
    out += kAlphabet[(chunk >> 12) & 63];
    out += kAlphabet[(chunk >> 6) & 63];
    out += kAlphabet[chunk & 63];
  }
  std::size_t rest = bytes.size() - i;
  if (rest > 0) {
    uint32_t chunk = std::to_integer<uint32_t>(bytes[i]) << 16;
    if (rest == 2) chunk |= std::to_integer<uint32_t>(bytes[i + 1]) << 8;
    out += kAlphabet[(chunk >> 18) & 63];
    out += kAlphabet[(chunk >> 12) & 63];
    out += rest == 2 ? kAlphabet[(chunk >> 6) & 63] : '=';
    out += '=';
  }
  return out;
}

std::optional<std::vector<std::byte>> base64Decode(std::string_view text) {
  if (text.size() % 4 != 0) return std::nullopt;
  std::vector<std::byte> out;
  out.reserve(text.size() / 4 * 3);
  for (std::size_t i = 0; i < text.size(); i += 4) {
    bool last = i + 4 == text.size();
    int padding = 0;
    uint32_t chunk = 0;
    for (std::size_t j = 0; j < 4; ++j) {
      char c = text[i + j];
      if (c == '=' && last && j >= 2) {
        ++padding;
        chunk <<= 6;
        continue;
      }
      int8_t value = kDecode[static_cast<unsigned char>(c)];
      if (value < 0 || padding > 0) return std::nullopt;
      chunk = (chunk << 6) | static_cast<uint32_t>(value);
    }
    out.push_back(static_cast<std::byte>((chunk >> 16) & 0xff));
    if (padding < 2) out.push_back(static_cast<std::byte>((chunk >> 8) & 0xff));
    if (padding < 1) out.push_back(static_cast<std::byte>(chunk & 0xff));
  }
  return out;
}

}  // namespace byoc
