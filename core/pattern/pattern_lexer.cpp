#include "pattern/pattern_lexer.h"

#include <cctype>

namespace byoc::pattern_text {

namespace {

bool isIdentStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool isIdentChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }
bool isDigit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }

class Lexer {
 public:
  Lexer(std::string_view text, std::string_view fileName) : text_(text), fileName_(fileName) {}

  Result<std::vector<Token>> run() {
    std::vector<Token> tokens;
    while (true) {
      skipSpaceAndComments();
      const int line = line_;
      const int column = column_;
      if (pos_ >= text_.size()) {
        tokens.push_back({Token::Kind::End, "", "", line, column});
        return tokens;
      }
      const char c = text_[pos_];
      const bool afterDot = !tokens.empty() && tokens.back().is(".");
      if (isIdentStart(c)) {
        tokens.push_back({Token::Kind::Identifier, identifier(), "", line, column});
      } else if (c == '%' || c == '@') {
        advance();
        if (pos_ >= text_.size() || !isIdentChar(text_[pos_]))
          return error(line, column, std::string("found '") + c + "', expected a name after it");
        std::string name;
        while (pos_ < text_.size() && isIdentChar(text_[pos_])) name += advance();
        tokens.push_back({c == '%' ? Token::Kind::LocalVar : Token::Kind::GlobalVar, name, "", line, column});
      } else if (isDigit(c) || (c == '-' && pos_ + 1 < text_.size() && isDigit(text_[pos_ + 1]))) {
        tokens.push_back(number(afterDot, line, column));
      } else if (c == '"') {
        auto token = string(line, column);
        if (!token) return token.error();
        tokens.push_back(std::move(token).value());
      } else if (c == '-' && pos_ + 1 < text_.size() && text_[pos_ + 1] == '>') {
        advance();
        advance();
        tokens.push_back({Token::Kind::Punct, "->", "", line, column});
      } else if (c == '.' && pos_ + 1 < text_.size() && text_[pos_ + 1] == '.') {
        advance();
        advance();
        tokens.push_back({Token::Kind::Punct, "..", "", line, column});
      } else if (std::string_view("(){}[],;=|*.:?").find(c) != std::string_view::npos) {
        tokens.push_back({Token::Kind::Punct, std::string(1, advance()), "", line, column});
      } else {
        return error(line, column, std::string("found '") + c + "', expected a pattern");
      }
    }
  }

 private:
  char advance() {
    char c = text_[pos_++];
    if (c == '\n') {
      ++line_;
      column_ = 1;
    } else {
      ++column_;
    }
    return c;
  }

  void skipSpaceAndComments() {
    while (pos_ < text_.size()) {
      char c = text_[pos_];
      if (std::isspace(static_cast<unsigned char>(c))) {
        advance();
      } else if (c == '#') {
        while (pos_ < text_.size() && text_[pos_] != '\n') advance();
      } else {
        return;
      }
    }
  }

  std::string identifier() {
    std::string name;
    while (pos_ < text_.size()) {
      if (isIdentChar(text_[pos_])) {
        name += advance();
      } else if (text_[pos_] == '.' && pos_ + 1 < text_.size() && isIdentStart(text_[pos_ + 1])) {
        name += advance();
      } else {
        break;
      }
    }
    return name;
  }

  Token number(bool integerOnly, int line, int column) {
    std::string digits;
    if (text_[pos_] == '-') digits += advance();
    while (pos_ < text_.size() && isDigit(text_[pos_])) digits += advance();
    bool isFloat = false;
    if (!integerOnly && pos_ + 1 < text_.size() && text_[pos_] == '.' && isDigit(text_[pos_ + 1])) {
      isFloat = true;
      digits += advance();
      while (pos_ < text_.size() && isDigit(text_[pos_])) digits += advance();
    }
    if (!integerOnly && pos_ < text_.size() && (text_[pos_] == 'e' || text_[pos_] == 'E')) {
      std::size_t look = pos_ + 1;
      if (look < text_.size() && (text_[look] == '-' || text_[look] == '+')) ++look;
      if (look < text_.size() && isDigit(text_[look])) {
        isFloat = true;
        while (pos_ < look) digits += advance();
        while (pos_ < text_.size() && isDigit(text_[pos_])) digits += advance();
      }
    }
    std::string suffix;
    if (pos_ < text_.size() && (text_[pos_] == 'f' || text_[pos_] == 'i' || text_[pos_] == 'u')) {
      suffix += advance();
      while (pos_ < text_.size() && isDigit(text_[pos_])) suffix += advance();
      if (suffix[0] == 'f') isFloat = true;
    }
    return {isFloat ? Token::Kind::Float : Token::Kind::Integer, digits, suffix, line, column};
  }

  Result<Token> string(int line, int column) {
    advance();
    std::string value;
    while (pos_ < text_.size() && text_[pos_] != '"') {
      if (text_[pos_] == '\\' && pos_ + 1 < text_.size()) advance();
      if (text_[pos_] == '\n') break;
      value += advance();
    }
    if (pos_ >= text_.size() || text_[pos_] != '"')
      return error(line, column, "found an unterminated string, expected '\"'");
    advance();
    return Token{Token::Kind::String, value, "", line, column};
  }

  Diagnostic error(int line, int column, std::string message) const {
    return makeError(std::move(message), SourceLocation{std::string(fileName_), line, column});
  }

  std::string_view text_;
  std::string_view fileName_;
  std::size_t pos_ = 0;
  int line_ = 1;
  int column_ = 1;
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
