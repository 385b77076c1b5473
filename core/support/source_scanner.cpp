/// \file
/// SourceScanner.

#include "support/source_scanner.h"

#include <cctype>

namespace byoc {

namespace {

bool isDigit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }

}  // namespace

char SourceScanner::advance() {
  if (atEnd()) return '\0';
  const char c = text_[pos_++];
  if (c == '\n') {
    ++line_;
    column_ = 1;
  } else {
    ++column_;
  }
  return c;
}

void SourceScanner::advance(std::size_t count) {
  for (std::size_t i = 0; i < count && !atEnd(); ++i) advance();
}

void SourceScanner::skipLine() {
  while (!atEnd() && peek() != '\n') advance();
}

void SourceScanner::skipSpace(std::string_view lineComment) {
  while (!atEnd()) {
    if (std::isspace(static_cast<unsigned char>(peek()))) {
      advance();
    } else if (!lineComment.empty() && startsWith(lineComment)) {
      skipLine();
    } else {
      return;
    }
  }
}

bool SourceScanner::digitAt(std::size_t ahead) const { return isDigit(peek(ahead)); }

bool SourceScanner::atNumber() const { return digitAt(0) || (peek() == '-' && digitAt(1)); }

NumberText SourceScanner::number(NumberSyntax syntax) {
  NumberText number;
  const std::size_t start = pos_;
  if (peek() == '-') advance();
  takeWhile(isDigit);
  if (syntax.fraction && peek() == '.' && digitAt(1)) {
    number.isFloat = true;
    advance();
    takeWhile(isDigit);
  }
  if (syntax.fraction && (peek() == 'e' || peek() == 'E')) {
    const std::size_t sign = (peek(1) == '-' || peek(1) == '+') ? 1 : 0;
    if (digitAt(1 + sign)) {
      number.isFloat = true;
      advance(1 + sign);
      takeWhile(isDigit);
    }
  }
  number.digits = text_.substr(start, pos_ - start);
  if (syntax.suffix && (peek() == 'f' || peek() == 'i' || peek() == 'u')) {
    const std::size_t suffixStart = pos_;
    advance();
    takeWhile(isDigit);
    number.suffix = text_.substr(suffixStart, pos_ - suffixStart);
    if (number.suffix.front() == 'f') number.isFloat = true;
  }
  return number;
}

std::optional<std::string> SourceScanner::quotedString() {
  advance();  // the opening quote
  std::string value;
  while (!atEnd() && peek() != '"' && peek() != '\n') {
    if (peek() == '\\') {
      advance();
      if (atEnd() || peek() == '\n') break;
      value += peek() == 'n' ? '\n' : peek();
      advance();
      continue;
    }
    // The run up to the next quote, backslash or line end, at once.
    value += takeWhile([](char c) { return c != '"' && c != '\\' && c != '\n'; });
  }
  if (peek() != '"') return std::nullopt;
  advance();
  return value;
}

}  // namespace byoc
