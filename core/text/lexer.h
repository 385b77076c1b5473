#pragma once
/// \file
/// Tokens of the Relay text format.

#include <deque>
#include <string>
#include <string_view>
#include <vector>

#include "support/result.h"

namespace byoc::text {

/// Whether a name may start with `c`: a letter, `_`, or any byte of a UTF-8 sequence (names may be
/// written in any script).
bool isNameStart(char c);
/// Whether `c` may continue a name: what may start one, or a digit.
bool isNameChar(char c);

/// One token with its 1-based position. Its text views the source being read (or the unescaped
/// strings of its `TokenList`), so a token costs no allocation: a million-statement model is
/// several million tokens.
struct Token {
  enum class Kind {
    Identifier,  ///< `nn.conv2d`, `fn`, `Tensor`, `float32`, `True`
    LocalVar,    ///< `%x`, `%0` (text without the `%`)
    GlobalVar,   ///< `@main` (text without the `@`)
    Integer,     ///< `2`, `-1`, `0i64` (text is the digits; suffix separate)
    Float,       ///< `1.5f`, `1e-05f`, `2f` (a literal with a float suffix or a fraction)
    String,      ///< `"NCHW"` (text is the unescaped value)
    Punct,       ///< ( ) { } [ ] , ; : = . -> ?
    Attribute,   ///< `#[version = "0.0.5"]` (text is what is inside the brackets)
    End,
  };
  Kind kind;
  std::string_view text;
  std::string_view suffix;  ///< dtype suffix of a numeric literal: "", "f", "i64", "f16", …
  int line;
  int column;

  /// How the token reads in an error message: `'%x'`, `'nn.conv2d'`, `the end of the input`.
  std::string describe() const;
};

/// The tokens of a text, ending with an `End` token. Valid while the text they were read from is.
struct TokenList {
  std::vector<Token> tokens;
  std::deque<std::string> unescaped;  ///< the values of string tokens (a deque: tokens point into it)
};

/// Splits `text` into tokens, skipping whitespace and comments. Errors carry `file:line:col`.
Result<TokenList> tokenize(std::string_view text, std::string_view fileName);

}  // namespace byoc::text
