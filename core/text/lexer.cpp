#include "text/lexer.h"

#include <cctype>

#include "support/source_scanner.h"

namespace byoc::text {

bool isNameStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_' || static_cast<unsigned char>(c) >= 0x80; }
bool isNameChar(char c) { return isNameStart(c) || std::isdigit(static_cast<unsigned char>(c)); }

namespace {

class Lexer {
 public:
  Lexer(std::string_view text, std::string_view fileName) : scan_(text), fileName_(fileName) {}

  Result<TokenList> run() {
    list_.tokens.reserve(scan_.atEnd() ? 1 : 1024);
    while (true) {
      BYOC_TRY(skipSpaceAndComments());
      if (scan_.atEnd()) break;
      BYOC_ASSIGN_OR_RETURN(Token token, next());
      list_.tokens.push_back(token);
    }
    list_.tokens.push_back({Token::Kind::End, "", "", scan_.line(), scan_.column()});
    return std::move(list_);
  }

 private:
  Diagnostic error(int line, int column, const std::string& message) const {
    return makeError(message, {std::string(fileName_), line, column});
  }

  Status skipSpaceAndComments() {
    while (true) {
      scan_.skipSpace("//");
      if (!scan_.startsWith("/*")) return Status::ok();
      const int line = scan_.line();
      const int column = scan_.column();
      scan_.advance(2);
      while (!scan_.atEnd() && !scan_.startsWith("*/")) scan_.advance();
      if (scan_.atEnd()) return error(line, column, "unterminated comment");
      scan_.advance(2);
    }
  }

  /// A name after `%` or `@`: letters, digits, `_`, and `-` or `.` when a letter follows (so
  /// `%x.0` is a projection but `%byoc-target_0_i0` is one name). A global name also joins with
  /// `-` or `+` before any name character: the functions outlined for a target `my+acc-2` are
  /// `@my+acc-2_main_0`.
  std::string_view readName(bool global) {
    const std::size_t start = scan_.offset();
    while (!scan_.atEnd()) {
      const char c = scan_.peek();
      const bool started = scan_.offset() > start;
      const bool joiner = ((c == '-' || c == '.') && started && isNameStart(scan_.peek(1))) ||
                          (global && (c == '+' || c == '-') && started && isNameChar(scan_.peek(1)));
      if (!isNameChar(c) && !joiner) break;
      scan_.advance();
    }
    return scan_.since(start);
  }

  Result<Token> next() {
    const int line = scan_.line();
    const int column = scan_.column();
    const char c = scan_.peek();
    const std::size_t start = scan_.offset();
    auto make = [&](Token::Kind kind, std::string_view value, std::string_view suffix = {}) {
      return Token{kind, value, suffix, line, column};
    };
    auto taken = [&] { return scan_.since(start); };
    if (c == '%' || c == '@') {
      scan_.advance();
      std::string_view name = readName(c == '@');
      if (name.empty()) return error(line, column, std::string("expected a name after '") + c + "'");
      return make(c == '%' ? Token::Kind::LocalVar : Token::Kind::GlobalVar, name);
    }
    if (c == '#' && scan_.peek(1) == '[') {
      scan_.advance(2);
      std::string_view inside = scan_.takeWhile([](char k) { return k != ']'; });
      if (scan_.atEnd()) return error(line, column, "unterminated '#[' attribute");
      scan_.advance();
      return make(Token::Kind::Attribute, inside);
    }
    if (isNameStart(c)) {
      // Parts joined by dots: `nn.conv2d`.
      scan_.takeWhile(isNameChar);
      while (scan_.peek() == '.' && isNameStart(scan_.peek(1))) {
        scan_.advance();
        scan_.takeWhile(isNameChar);
      }
      return make(Token::Kind::Identifier, taken());
    }
    if (scan_.atNumber()) {
      const NumberText number = scan_.number();
      return make(number.isFloat ? Token::Kind::Float : Token::Kind::Integer, number.digits, number.suffix);
    }
    if (c == '"') {
      std::optional<std::string> value = scan_.quotedString();
      if (!value) return error(line, column, "unterminated string");
      return make(Token::Kind::String, list_.unescaped.emplace_back(std::move(*value)));
    }
    if (scan_.startsWith("->")) {
      scan_.advance(2);
      return make(Token::Kind::Punct, taken());
    }
    static const std::string_view kPunct = "(){}[],;:=.?";
    if (kPunct.find(c) != std::string_view::npos) {
      scan_.advance();
      return make(Token::Kind::Punct, taken());
    }
    return error(line, column, std::string("unexpected character '") + c + "'");
  }

  SourceScanner scan_;
  std::string_view fileName_;
  TokenList list_;
};

}  // namespace

std::string Token::describe() const {
  switch (kind) {
    case Kind::End: return "the end of the input";
    case Kind::LocalVar: return "'%" + std::string(text) + "'";
    case Kind::GlobalVar: return "'@" + std::string(text) + "'";
    case Kind::String: return "the string \"" + std::string(text) + "\"";
    case Kind::Attribute: return "'#[" + std::string(text) + "]'";
    case Kind::Integer:
    case Kind::Float: return "'" + std::string(text) + std::string(suffix) + "'";
    default: return "'" + std::string(text) + "'";
  }
}

Result<TokenList> tokenize(std::string_view text, std::string_view fileName) {
  return Lexer(text, fileName).run();
}

}  // namespace byoc::text
