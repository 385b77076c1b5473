#include "text/lexer.h"

#include <cctype>

namespace byoc::text {

bool isNameStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_' || static_cast<unsigned char>(c) >= 0x80; }
bool isNameChar(char c) { return isNameStart(c) || std::isdigit(static_cast<unsigned char>(c)); }

namespace {

bool isDigit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }

class Lexer {
 public:
  Lexer(std::string_view text, std::string_view fileName) : text_(text), fileName_(fileName) {}

  Result<std::vector<Token>> run() {
    std::vector<Token> tokens;
    while (true) {
      BYOC_TRY(skipSpaceAndComments());
      if (atEnd()) break;
      BYOC_ASSIGN_OR_RETURN(Token token, next());
      tokens.push_back(std::move(token));
    }
    tokens.push_back({Token::Kind::End, "", "", line_, column_});
    return tokens;
  }

 private:
  bool atEnd() const { return pos_ >= text_.size(); }
  char peek(std::size_t ahead = 0) const { return pos_ + ahead < text_.size() ? text_[pos_ + ahead] : '\0'; }

  void advance() {
    if (text_[pos_] == '\n') {
      ++line_;
      column_ = 1;
    } else {
      ++column_;
    }
    ++pos_;
  }

  Diagnostic error(int line, int column, const std::string& message) const {
    return makeError(message, {std::string(fileName_), line, column});
  }

  Status skipSpaceAndComments() {
    while (!atEnd()) {
      char c = peek();
      if (std::isspace(static_cast<unsigned char>(c))) {
        advance();
      } else if (c == '/' && peek(1) == '/') {
        while (!atEnd() && peek() != '\n') advance();
      } else if (c == '/' && peek(1) == '*') {
        int line = line_;
        int column = column_;
        advance();
        advance();
        while (!atEnd() && !(peek() == '*' && peek(1) == '/')) advance();
        if (atEnd()) return error(line, column, "unterminated comment");
        advance();
        advance();
      } else {
        break;
      }
    }
    return Status::ok();
  }

  /// A name after `%`: letters, digits, `_`, and `-` or `.` when a letter follows
  /// (so `%x.0` is a projection but `%byoc-target_0_i0` is one name).
  std::string readLocalName() {
    std::string name;
    while (!atEnd()) {
      char c = peek();
      bool joiner = (c == '-' || c == '.') && !name.empty() && isNameStart(peek(1));
      if (!isNameChar(c) && !joiner) break;
      name += c;
      advance();
    }
    return name;
  }

  Result<Token> next() {
    int line = line_;
    int column = column_;
    char c = peek();
    auto make = [&](Token::Kind kind, std::string value, std::string suffix = {}) {
      return Token{kind, std::move(value), std::move(suffix), line, column};
    };
    if (c == '%' || c == '@') {
      advance();
      std::string name = readLocalName();
      if (name.empty()) return error(line, column, std::string("expected a name after '") + c + "'");
      return make(c == '%' ? Token::Kind::LocalVar : Token::Kind::GlobalVar, name);
    }
    if (c == '#' && peek(1) == '[') {
      advance();
      advance();
      std::string inside;
      while (!atEnd() && peek() != ']') {
        inside += peek();
        advance();
      }
      if (atEnd()) return error(line, column, "unterminated '#[' attribute");
      advance();
      return make(Token::Kind::Attribute, inside);
    }
    if (isNameStart(c)) {
      std::string name;
      while (!atEnd() && (isNameChar(peek()) || (peek() == '.' && isNameStart(peek(1))))) {
        name += peek();
        advance();
      }
      return make(Token::Kind::Identifier, name);
    }
    if (isDigit(c) || (c == '-' && isDigit(peek(1)))) return number(line, column);
    if (c == '"') return string(line, column);
    if (c == '-' && peek(1) == '>') {
      advance();
      advance();
      return make(Token::Kind::Punct, "->");
    }
    static const std::string_view kPunct = "(){}[],;:=.?";
    if (kPunct.find(c) != std::string_view::npos) {
      advance();
      return make(Token::Kind::Punct, std::string(1, c));
    }
    return error(line, column, std::string("unexpected character '") + c + "'");
  }

  Result<Token> number(int line, int column) {
    std::string digits;
    bool isFloat = false;
    if (peek() == '-') {
      digits += '-';
      advance();
    }
    while (isDigit(peek())) {
      digits += peek();
      advance();
    }
    if (peek() == '.' && isDigit(peek(1))) {
      isFloat = true;
      digits += '.';
      advance();
      while (isDigit(peek())) {
        digits += peek();
        advance();
      }
    }
    if ((peek() == 'e' || peek() == 'E') &&
        (isDigit(peek(1)) || ((peek(1) == '-' || peek(1) == '+') && isDigit(peek(2))))) {
      isFloat = true;
      digits += peek();
      advance();
      if (peek() == '-' || peek() == '+') {
        digits += peek();
        advance();
      }
      while (isDigit(peek())) {
        digits += peek();
        advance();
      }
    }
    std::string suffix;
    if (peek() == 'f' || peek() == 'i' || peek() == 'u') {
      suffix += peek();
      advance();
      while (isDigit(peek())) {
        suffix += peek();
        advance();
      }
    }
    if (!suffix.empty() && suffix[0] == 'f') isFloat = true;
    return Token{isFloat ? Token::Kind::Float : Token::Kind::Integer, digits, suffix, line, column};
  }

  Result<Token> string(int line, int column) {
    advance();
    std::string value;
    while (!atEnd() && peek() != '"') {
      if (peek() == '\n') break;
      if (peek() == '\\') {
        advance();
        if (atEnd()) break;
        value += peek() == 'n' ? '\n' : peek();
        advance();
        continue;
      }
      value += peek();
      advance();
    }
    if (atEnd() || peek() != '"') return error(line, column, "unterminated string");
    advance();
    return Token{Token::Kind::String, value, "", line, column};
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
