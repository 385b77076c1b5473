#pragma once
/// \file
/// Scalar constants as Relay literals: `2` (int32), `2i64`, `1f` (float32), `0.5f16`, `1f64`, `True`.

#include <optional>
#include <string>
#include <string_view>

#include "ir/tensor_data.h"

namespace byoc {

/// The literal text of a rank-0 constant, or nothing if it is not a scalar of a literal dtype.
std::optional<std::string> scalarLiteralText(const TensorData& data);

/// The dtype a literal suffix names ("" → int32 or float32 by the literal's form, "i64", "f", "f16", …).
std::optional<DType> literalSuffixDType(std::string_view suffix, bool isFloatLiteral);

}  // namespace byoc
