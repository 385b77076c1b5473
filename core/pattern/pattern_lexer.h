#pragma once
/// \file
/// Tokens of the pattern language (docs/patterns.md).
///
/// Identifiers may contain dots between their parts (`nn.conv2d`), but a dot followed by a
/// digit or `*` is a separate token (`p.0`, `p.*`). Numbers take an optional sign, fraction,
/// exponent and dtype suffix (`1`, `-1`, `0.5f`, `1e-5f`, `0i64`). `#` starts a comment that
/// runs to the end of the line.

#include <string>
#include <string_view>
#include <vector>

#include "support/result.h"

namespace byoc::pattern_text {

/// One token with its 1-based position.
struct Token {
  enum class Kind {
    Identifier,  ///< `nn.conv2d`, `x`, `fn`, `True`
    LocalVar,    ///< `%x` (text without the `%`)
    GlobalVar,   ///< `@main` (text without the `@`)
    Integer,     ///< `1`, `-2`, `0i64` (suffix separate)
    Float,       ///< `0.5f`, `1e-05` (suffix separate)
    String,      ///< `"NCHW"` (text is the unescaped value)
    Punct,       ///< ( ) { } [ ] , ; = | * . .. : ? ->
    End,
  };
  Kind kind;
  std::string text;
  std::string suffix;
  int line;
  int column;

  /// How the token reads in an error message: `')'`, `'nn.conv2d'`, `the end of the input`.
  std::string describe() const;
  /// True for the punctuation `text`.
  bool is(std::string_view punct) const { return kind == Kind::Punct && text == punct; }
};

/// Splits `text` into tokens. Errors are `file:line:col: found X, expected Y`.
Result<std::vector<Token>> tokenize(std::string_view text, std::string_view fileName);

}  // namespace byoc::pattern_text
