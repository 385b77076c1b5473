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

  Result<std::vector<Token>> run() {
    std::vector<Token> tokens;
    tokens.reserve(scan_.atEnd() ? 1 : 1024);
    while (true) {
      BYOC_TRY(skipSpaceAndComments());
      if (scan_.atEnd()) break;
      BYOC_ASSIGN_OR_RETURN(Token token, next());
      tokens.push_back(std::move(token));
    }
    tokens.push_back({Token::Kind::End, "", "", scan_.line(), scan_.column()});
    return tokens;
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
  std::string readName(bool global) {
    std::string name;
    while (!scan_.atEnd()) {
      const char c = scan_.peek();
      const bool joiner = ((c == '-' || c == '.') && !name.empty() && isNameStart(scan_.peek(1))) ||
                          (global && (c == '+' || c == '-') && !name.empty() && isNameChar(scan_.peek(1)));
      if (!isNameChar(c) && !joiner) break;
      name += scan_.advance();
    }
    return name;
  }

  Result<Token> next() {
    const int line = scan_.line();
    const int column = scan_.column();
    const char c = scan_.peek();
    auto make = [&](Token::Kind kind, std::string value, std::string suffix = {}) {
      return Token{kind, std::move(value), std::move(suffix), line, column};
    };
    if (c == '%' || c == '@') {
      scan_.advance();
      std::string name = readName(c == '@');
      if (name.empty()) return error(line, column, std::string("expected a name after '") + c + "'");
      return make(c == '%' ? Token::Kind::LocalVar : Token::Kind::GlobalVar, std::move(name));
    }
    if (c == '#' && scan_.peek(1) == '[') {
      scan_.advance(2);
      std::string inside(scan_.takeWhile([](char k) { return k != ']'; }));
      if (scan_.atEnd()) return error(line, column, "unterminated '#[' attribute");
      scan_.advance();
      return make(Token::Kind::Attribute, std::move(inside));
    }
    if (isNameStart(c)) {
      // Parts joined by dots: `nn.conv2d`.
      std::string name(scan_.takeWhile(isNameChar));
      while (scan_.peek() == '.' && isNameStart(scan_.peek(1))) {
        name += scan_.advance();
        name += scan_.takeWhile(isNameChar);
      }
      return make(Token::Kind::Identifier, std::move(name));
    }
    if (scan_.atNumber()) {
      const NumberText number = scan_.number();
      return make(number.isFloat ? Token::Kind::Float : Token::Kind::Integer, std::string(number.digits), std::string(number.suffix));
    }
    if (c == '"') {
      std::optional<std::string> value = scan_.quotedString();
      if (!value) return error(line, column, "unterminated string");
      return make(Token::Kind::String, std::move(*value));
    }
    if (scan_.startsWith("->")) {
      scan_.advance(2);
      return make(Token::Kind::Punct, "->");
    }
    static const std::string_view kPunct = "(){}[],;:=.?";
    if (kPunct.find(c) != std::string_view::npos) {
      scan_.advance();
      return make(Token::Kind::Punct, std::string(1, c));
    }
    return error(line, column, std::string("unexpected character '") + c + "'");
  }

  SourceScanner scan_;
  std::string_view fileName_;
};

}  // namespace

std::string Token::describe() const {
  switch (kind) {
    case Kind::End: return "the end of the input";
    case Kind::LocalVar: return "'%" + text + "'";
    case Kind::GlobalVar: return "'@" + text + "'";
    case Kind::String: return "the string \"" + text + "\"";
    case Kind::Attribute: return "'#[" + text + "]'";
    case Kind::Integer:
    case Kind::Float: return "'" + text + suffix + "'";
    default: return "'" + text + "'";
  }
}

Result<std::vector<Token>> tokenize(std::string_view text, std::string_view fileName) {
  return Lexer(text, fileName).run();
}

}  // namespace byoc::text
