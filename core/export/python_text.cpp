#include "export/python_text.h"

#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>

namespace byoc {

namespace {

/// The reserved words of Python 3 (and the soft keywords that would read badly as names).
bool isPythonKeyword(std::string_view word) {
  static const std::set<std::string_view> keywords = {
      "False", "None",   "True",    "and",      "as",   "assert", "async",  "await",    "break",
      "case",  "class",  "continue", "def",     "del",  "elif",   "else",   "except",   "finally",
      "for",   "from",   "global",  "if",       "import", "in",   "is",     "lambda",   "match",
      "nonlocal", "not", "or",      "pass",     "raise", "return", "try",   "while",    "with",
      "yield"};
  return keywords.count(word) != 0;
}

}  // namespace

std::string pythonString(std::string_view text) {
  std::string out = "\"";
  for (char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (byte < 0x20 || byte == 0x7f) {
          std::array<char, 8> escaped{};
          std::snprintf(escaped.data(), escaped.size(), "\\x%02x", byte);
          out += escaped.data();
        } else {
          out += c;
        }
    }
  }
  return out + "\"";
}

namespace {

/// The shortest decimal text of `value` that reads back as it, made a Python float literal.
template <typename Float>
std::string floatLiteral(Float value) {
  if (std::isnan(value)) return "float(\"nan\")";
  if (std::isinf(value)) return value > 0 ? "float(\"inf\")" : "-float(\"inf\")";
  std::array<char, 64> buffer{};
  auto [end, error] = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value);
  std::string text(buffer.data(), end);
  if (text.find_first_of(".e") == std::string::npos) text += ".0";
  return text;
}

}  // namespace

std::string pythonFloat(double value) { return floatLiteral(value); }

std::string pythonFloat(float value) { return floatLiteral(value); }

std::string pythonValue(const AttrValue& value) {
  if (value.isNone()) return "None";
  if (value.isBool()) return value.asBool() ? "True" : "False";
  if (value.isInt()) return std::to_string(value.asInt());
  if (value.isFloat()) return pythonFloat(value.asFloat());
  if (value.isString()) return pythonString(value.asString());
  std::string out = "[";
  for (std::size_t i = 0; i < value.asList().size(); ++i) out += (i ? ", " : "") + pythonValue(value.asList()[i]);
  return out + "]";
}

std::string pythonDocstring(std::string_view text, std::string_view indent) {
  std::string out = "\"\"\"";
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\\') {
      out += "\\\\";
    } else if (c == '"' && (i + 1 == text.size() || text.substr(i, 3) == "\"\"\"")) {
      out += "\\\"";  // never three quotes in a row, nor one right before the closing quotes
    } else if (c == '\n') {
      out += '\n';
      if (i + 1 < text.size() && text[i + 1] != '\n') out += indent;
    } else if (static_cast<unsigned char>(c) < 0x20 && c != '\t') {
      out += ' ';
    } else {
      out += c;
    }
  }
  return out + "\"\"\"";
}

std::string uniquePythonName(std::string_view hint, std::set<std::string>& taken) {
  std::string base;
  for (char c : hint) base += std::isalnum(static_cast<unsigned char>(c)) || c == '_' ? c : '_';
  if (base.empty() || std::isdigit(static_cast<unsigned char>(base[0]))) base = "_" + base;
  std::string name = base;
  for (int suffix = 2; taken.count(name) || isPythonKeyword(name); ++suffix) name = base + "_" + std::to_string(suffix);
  taken.insert(name);
  return name;
}

}  // namespace byoc
