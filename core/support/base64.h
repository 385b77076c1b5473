#pragma once
/// \file
/// Base64 (RFC 4648, with padding) for binary payloads inside text formats.

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace byoc {

/// Encodes `bytes`.
std::string base64Encode(std::span<const std::byte> bytes);
/// Decodes `text`; empty optional if it is not valid padded base64.
std::optional<std::vector<std::byte>> base64Decode(std::string_view text);

}  // namespace byoc
