#include "pattern/pattern_lexer.h"

#include <cctype>

#include "support/source_scanner.h"

namespace byoc::pattern_text {

namespace {

bool isIdentStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool isIdentChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

class Lexer {
 public:
  Lexer(std::string_view text, std::string_view fileName) : scan_(text), fileName_(fileName) {}

  Result<std::vector<Token>> run() {
    std::vector<Token> tokens;
    while (true) {
      scan_.skipSpace("#");
      const int line = scan_.line();
      const int column = scan_.column();
      auto add = [&](Token::Kind kind, std::string_view text, std::string_view suffix = {}) {
        tokens.push_back({kind, std::string(text), std::string(suffix), line, column});
      };
      if (scan_.atEnd()) {
        add(Token::Kind::End, "");
        return tokens;
      }
      const char c = scan_.peek();
      if (isIdentStart(c)) {
        add(Token::Kind::Identifier, identifier());
      } else if (c == '%' || c == '@') {
        scan_.advance();
        const std::string_view name = scan_.takeWhile(isIdentChar);
        if (name.empty()) return error(line, column, std::string("found '") + c + "', expected a name after it");
        add(c == '%' ? Token::Kind::LocalVar : Token::Kind::GlobalVar, name);
      } else if (scan_.atNumber()) {
        // After a dot, a number is an index (`p.0`): no fraction or exponent.
        const bool afterDot = !tokens.empty() && tokens.back().is(".");
        const NumberText number = scan_.number({.fraction = !afterDot});
        add(number.isFloat ? Token::Kind::Float : Token::Kind::Integer, number.digits, number.suffix);
      } else if (c == '"') {
        std::optional<std::string> value = scan_.quotedString();
        if (!value) return error(line, column, "found an unterminated string, expected '\"'");
        add(Token::Kind::String, *value);
      } else if (scan_.startsWith("->") || scan_.startsWith("..")) {
        add(Token::Kind::Punct, scan_.startsWith("->") ? "->" : "..");
        scan_.advance(2);
      } else if (std::string_view("(){}[],;=|*.:?").find(c) != std::string_view::npos) {
        scan_.advance();
        add(Token::Kind::Punct, std::string_view(&c, 1));
      } else {
        return error(line, column, std::string("found '") + c + "', expected a pattern");
      }
    }
  }

 private:
  /// Parts joined by dots: `nn.conv2d` (a dot before a digit or `*` is a token of its own).
  std::string identifier() {
    std::string name(scan_.takeWhile(isIdentChar));
    while (scan_.peek() == '.' && isIdentStart(scan_.peek(1))) {
      name += scan_.advance();
      name += scan_.takeWhile(isIdentChar);
    }
    return name;
  }

  Diagnostic error(int line, int column, std::string message) const {
    return makeError(std::move(message), SourceLocation{std::string(fileName_), line, column});
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
    case Kind::String: return "'\"" + text + "\"'";
    case Kind::Integer:
    case Kind::Float: return "'" + text + suffix + "'";
    default: return "'" + text + "'";
  }
}

Result<std::vector<Token>> tokenize(std::string_view text, std::string_view fileName) {
  return Lexer(text, fileName).run();
}

}  // namespace byoc::pattern_text
