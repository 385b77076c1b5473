#pragma once
/// \file
/// SHA-256 (FIPS 180-4) of a byte string, as the lowercase hex digest the export manifest records.

#include <string>
#include <string_view>

namespace byoc {

/// The 64-character lowercase hex SHA-256 digest of `bytes`.
std::string sha256Hex(std::string_view bytes);

}  // namespace byoc
