#pragma once
/// \file
/// Scalar constants as Relay literals: `2` (int32), `2i64`, `1f` (float32), `0.5f16`, `1f64`, `True`.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "ir/tensor_data.h"
#include "support/result.h"

namespace byoc {

/// The literal text of a rank-0 constant, or nothing if it is not a scalar of a literal dtype.
std::optional<std::string> scalarLiteralText(const TensorData& data);

/// The dtype a literal suffix names ("" → int32 or float32 by the literal's form, "i64", "f", "f16", …).
std::optional<DType> literalSuffixDType(std::string_view suffix, bool isFloatLiteral);

/// The value of integer literal `digits` (an optional `-` and decimal digits), or nothing when it
/// does not fit int64_t.
std::optional<int64_t> parseIntegerLiteral(std::string_view digits);

/// The value of decimal literal `digits` (`-1.5e-3`, `2`) as a double, or nothing when it is too
/// large for one; a value too small for a double reads as zero, as in C++.
std::optional<double> parseFloatLiteral(std::string_view digits);

/// The rank-0 constant a numeric literal denotes: `digits` as the lexer read them and `suffix`
/// naming the dtype (see `literalSuffixDType`). The error, without a location, names the literal,
/// its dtype and the range expected when the value does not fit.
Result<TensorData> scalarFromLiteral(std::string_view digits, std::string_view suffix, bool isFloatLiteral);

}  // namespace byoc
