#pragma once
/// \file
/// Printer of the pattern language: the inverse of pattern_parser.h.
///
/// A node is printed as a definition `name = …;` (one per line, before its first use) when it
/// carries a name, is reached more than once (sharing must survive the round trip), or is a
/// redirected wildcard; every other node is printed inline. Unnamed shared nodes get `p0`,
/// `p1`, …; clashing names get a `_2`, `_3`, … suffix. `parsePattern(printPattern(p))` is a
/// pattern of the same shape and sharing, and printing it again gives the same text.
/// Expression patterns print as an op name, a scalar literal or `@global`; any other
/// expression prints as `<expression>`, which does not parse.

#include <string>

#include "pattern/pattern.h"

namespace byoc {

/// The text form of `pattern`.
std::string printPattern(const Pattern& pattern);

}  // namespace byoc
