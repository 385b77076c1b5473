#pragma once
/// \file
/// A shape written as text, as the command lines and the Run panel take it: "1x16x256",
/// "16×1×256", "(16, 1, 256)".

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace byoc {

/// What a shape's text holds: its sizes, or the first thing that keeps it from being a shape.
struct DimsText {
  enum class Problem {
    None,      ///< `sizes` holds the shape
    TooMany,   ///< more sizes than `limits::kMaxRank`
    Unknown,   ///< size `index` is `?`
    NotASize,  ///< size `index` is not a number from 0 to `limits::kMaxElements` (or there is none)
  };
  std::vector<int64_t> sizes;
  Problem problem = Problem::None;
  std::size_t index = 0;
};

/// Reads sizes joined by one 'x', 'X', '×' or comma each (or by spaces alone), optionally in
/// parentheses; a joiner with no size on one side ("1xx2", "x4") leaves a size missing. Each size
/// is decimal digits up to `limits::kMaxElements`, checked before anything could overflow.
DimsText readDims(std::string_view text);

}  // namespace byoc
