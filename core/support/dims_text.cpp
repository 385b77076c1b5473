#include "support/dims_text.h"

#include <optional>
#include <string>

#include "support/limits.h"

namespace byoc {

namespace {

constexpr std::string_view kTimes = "\xC3\x97";  // '×' in UTF-8

bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

/// The length in bytes of the joiner ('x', 'X', '×' or ',') starting at `at`, or 0.
std::size_t joinerAt(std::string_view text, std::size_t at) {
  if (text.substr(at, kTimes.size()) == kTimes) return kTimes.size();
  const char c = text[at];
  return c == 'x' || c == 'X' || c == ',' ? 1 : 0;
}

/// `digits` as a size up to `limits::kMaxElements`, or nothing.
std::optional<int64_t> sizeOf(std::string_view digits) {
  if (digits.empty()) return std::nullopt;
  int64_t size = 0;
  for (char digit : digits) {
    if (digit < '0' || digit > '9') return std::nullopt;
    const int64_t value = digit - '0';
    if (size > (limits::kMaxElements - value) / 10) return std::nullopt;
    size = size * 10 + value;
  }
  return size;
}

}  // namespace

DimsText readDims(std::string_view text) {
  const std::size_t first = text.find_first_not_of(" \t\n\r");
  text = first == std::string_view::npos ? std::string_view() : text.substr(first, text.find_last_not_of(" \t\n\r") - first + 1);
  if (text.size() >= 2 && text.front() == '(' && text.back() == ')') text = text.substr(1, text.size() - 2);
  // The sizes in order; a joiner with no size before or after it stands for an empty one.
  std::vector<std::string_view> parts;
  bool joined = false;  // a joiner was read since the last size
  for (std::size_t at = 0; at < text.size();) {
    if (isSpace(text[at])) {
      ++at;
    } else if (const std::size_t joiner = joinerAt(text, at)) {
      if (parts.empty() || joined) parts.emplace_back();
      joined = true;
      at += joiner;
    } else {
      const std::size_t begin = at;
      while (at < text.size() && !isSpace(text[at]) && !joinerAt(text, at)) ++at;
      parts.push_back(text.substr(begin, at - begin));
      joined = false;
    }
  }
  if (joined) parts.emplace_back();
  DimsText dims;
  if (parts.size() > static_cast<std::size_t>(limits::kMaxRank)) {
    dims.problem = DimsText::Problem::TooMany;
    return dims;
  }
  if (parts.empty()) dims.problem = DimsText::Problem::NotASize;
  for (std::size_t i = 0; i < parts.size() && dims.problem == DimsText::Problem::None; ++i) {
    const std::optional<int64_t> size = parts[i] == "?" ? std::nullopt : sizeOf(parts[i]);
    if (!size) {
      dims.problem = parts[i] == "?" ? DimsText::Problem::Unknown : DimsText::Problem::NotASize;
      dims.index = i;
    } else {
      dims.sizes.push_back(*size);
    }
  }
  return dims;
}

}  // namespace byoc
