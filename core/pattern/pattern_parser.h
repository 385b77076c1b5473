#pragma once
/// \file
/// Parser of the pattern language (grammar and examples in docs/patterns.md).
///
///   program    := (IDENT "=" pattern ";")* pattern
///   pattern    := postfix ("|" postfix)*
///   postfix    := primary ("(" args ")" | "{" attrs "}" | "." (INT | "*"))*
///   primary    := "*" | "var" | "%"IDENT | "const" | literal | "@"IDENT | IDENT
///               | "(" ")" | "(" ".." ")" | "(" pattern ")" | "(" pattern "," [patterns] ")"
///               | "fn" "(" args ")" "{" pattern "}" | "if" "(" p "," p "," p ")"
///               | "let" "(" p "," p "," p ")" | "dominates" "(" p "," p "," p ")"
///               | "has_type" "(" type ["," p] ")" | "has_dtype" "(" dtype ["," p] ")"
///               | "has_shape" "(" "[" ints "]" ["," p] ")" | "optional" "(" p "," p ")"
///   args       := ".." | [pattern ("," pattern)*]
///
/// An identifier is a name defined earlier (`x = …;`), else a registered op. A name refers to
/// the very same pattern node wherever it is used (that is how sharing is written); a name
/// used inside its own definition makes a recursive pattern (a redirected wildcard).
/// In `optional(p, q)`, `_` inside `q` stands for `p`: the result is `p | q`.
/// Errors: `file:line:col: found X, expected Y`. Brackets, and sub-patterns through names, nest at
/// most `limits::kMaxNestingDepth` deep.

#include <string_view>
#include <unordered_map>

#include "pattern/pattern.h"
#include "support/diagnostic.h"
#include "support/result.h"

namespace byoc {

/// A parsed pattern and where each of its nodes was written.
struct ParsedPattern {
  Pattern pattern;
  /// Node → location of the text that built it.
  std::unordered_map<const PatternNode*, SourceLocation> locations;
};

/// Parses pattern text. `firstLine`/`firstColumn` place the text inside a larger file.
Result<ParsedPattern> parsePatternWithLocations(std::string_view text, std::string_view fileName = "<pattern>",
                                                int firstLine = 1, int firstColumn = 1);

/// Parses pattern text.
Result<Pattern> parsePattern(std::string_view text, std::string_view fileName = "<pattern>");

/// The nesting depth of `pattern`: the pattern nodes on its longest chain of sub-patterns (a
/// redirect that closes a cycle does not count). What matchers and printers recurse over.
int patternDepth(const Pattern& pattern);

/// Refuses a pattern nesting deeper than `limits::kMaxNestingDepth`, whatever built it; the
/// error names the limit and is placed at `where`.
Status checkPatternDepth(const Pattern& pattern, const SourceLocation& where);

/// Parses a type as written in `has_type(…)`: `Tensor[(1, ?), float32]`, `int32`, `(T, …)`.
Result<Type> parsePatternType(std::string_view text, std::string_view fileName = "<type>");

}  // namespace byoc
