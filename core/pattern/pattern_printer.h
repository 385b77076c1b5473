#pragma once
/// \file
/// Printer of the pattern language: the inverse of pattern_parser.h.
///
/// A node is printed as a definition `name = …;` (one per line, before its first use) when it
/// carries a name, is reached more than once (sharing must survive the round trip), or is a
/// redirected wildcard; every other node is printed inline. Unnamed shared nodes get `p0`,
/// `p1`, …; clashing names get a `_2`, `_3`, … suffix. `parsePattern(printPattern(p))` is a
/// pattern of the same shape and sharing, and printing it again gives the same text.
/// Expression patterns print as an op name, a literal (`1f`, `const([1f, 2f])`) or `@global`; any
/// other expression prints as `<expression>`, which does not parse.

#include <optional>
#include <string>

#include "pattern/pattern.h"

namespace byoc {

/// A constant as the pattern language writes it: a scalar literal (`1f`), or `const([[1f, 2f],
/// [3f, 4f]])` for a tensor; nothing for a dtype literals cannot spell or a tensor with no element.
std::optional<std::string> constantPatternText(const TensorData& data);

/// The text form of `pattern`.
std::string printPattern(const Pattern& pattern);

}  // namespace byoc
