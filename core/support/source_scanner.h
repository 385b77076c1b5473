#pragma once
/// \file
/// The skeleton the tokenizers share (Relay text, patterns, rules): a cursor over source text that
/// keeps its 1-based line and column, and the literals the three languages write alike: numbers
/// with an optional dtype suffix, and double-quoted strings.
///
/// Each tokenizer keeps what is its own: its names, punctuation, comment markers and errors.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace byoc {

/// A number literal as written: `-1`, `0.5`, `1e-05`, `2f`, `0i64`.
struct NumberText {
  std::string_view digits;  ///< sign, digits, fraction and exponent
  std::string_view suffix;  ///< the dtype suffix (`f`, `f16`, `i64`, `u8`), empty when none
  /// True when the literal has a fraction or an exponent, or a suffix starting with `f`.
  bool isFloat = false;
};

/// What a language accepts in a number literal.
struct NumberSyntax {
  /// A fraction and an exponent (`0.5`, `1e-05`); off where a number is an index (`p.0`).
  bool fraction = true;
  /// A dtype suffix (`f`, `i64`, `u8`).
  bool suffix = true;
};

/// A cursor over `text`. Past the end, `peek` returns '\0'.
class SourceScanner {
 public:
  explicit SourceScanner(std::string_view text, int line = 1, int column = 1)
      : text_(text), line_(line), column_(column) {}

  bool atEnd() const { return pos_ >= text_.size(); }
  char peek(std::size_t ahead = 0) const { return pos_ + ahead < text_.size() ? text_[pos_ + ahead] : '\0'; }
  /// True when the text at the cursor starts with `prefix`.
  bool startsWith(std::string_view prefix) const { return text_.substr(pos_).starts_with(prefix); }
  int line() const { return line_; }
  int column() const { return column_; }
  /// How many characters have been consumed.
  std::size_t offset() const { return pos_; }
  /// The text consumed since offset `start`.
  std::string_view since(std::size_t start) const { return text_.substr(start, pos_ - start); }

  /// Consumes one character (none at the end) and returns it.
  char advance();
  /// Consumes `count` characters (fewer at the end).
  void advance(std::size_t count);
  /// Consumes the characters `accept` is true for, and returns them.
  template <typename Accept>
  std::string_view takeWhile(Accept accept) {
    const std::size_t start = pos_;
    while (!atEnd() && accept(text_[pos_])) advance();
    return text_.substr(start, pos_ - start);
  }
  /// Consumes up to the end of the line (not the line end itself).
  void skipLine();
  /// Consumes white space and comments that start with `lineComment` and run to the end of
  /// the line.
  void skipSpace(std::string_view lineComment);

  /// True when a number starts at the cursor: a digit, or `-` and a digit.
  bool atNumber() const;
  /// Reads the number at the cursor (`atNumber()` must hold).
  NumberText number(NumberSyntax syntax = {});
  /// Reads the double-quoted string at the cursor (a `"` must be there): its value, where `\n`
  /// is a line end and a backslash takes the next character as it is. Nullopt when the line or
  /// the text ends before the closing quote.
  std::optional<std::string> quotedString();

 private:
  bool digitAt(std::size_t ahead) const;

  std::string_view text_;
  std::size_t pos_ = 0;
  int line_;
  int column_;
};

}  // namespace byoc
