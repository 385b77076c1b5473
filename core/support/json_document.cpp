#include "support/json_document.h"

#include <algorithm>
#include <string>

#include "support/limits.h"

namespace byoc {

namespace {

/// The line:column of byte `offset` of `text`.
SourceLocation locationOf(std::string_view text, std::size_t offset, std::string_view fileName) {
  SourceLocation at{std::string(fileName), 1, 1};
  for (std::size_t i = 0; i < std::min(offset, text.size()); ++i) {
    at.column = text[i] == '\n' ? 1 : at.column + 1;
    at.line += text[i] == '\n' ? 1 : 0;
  }
  return at;
}

}  // namespace

template <typename Json>
Result<Json> parseJsonDocument(std::string_view text, std::string_view fileName) {
  if (const int depth = limits::jsonNestingDepth(text); depth > limits::kMaxNestingDepth)
    return makeError("the JSON nests " + std::to_string(depth) + " arrays or objects deep, more than the limit of " +
                         std::to_string(limits::kMaxNestingDepth),
                     {std::string(fileName)});
  try {
    return Json::parse(text);
  } catch (const nlohmann::json::parse_error& error) {
    // nlohmann names the byte after the offending one.
    return makeError("not valid JSON", locationOf(text, error.byte == 0 ? 0 : error.byte - 1, fileName));
  } catch (const nlohmann::json::exception& error) {
    // A number too large for a double (out_of_range.406) carries no position; drop the
    // "[json.exception.…] " prefix of its message.
    const std::string_view message = error.what();
    return makeError("not valid JSON: " + std::string(message.substr(message.find("] ") + 2)), {std::string(fileName)});
  }
}

template Result<nlohmann::json> parseJsonDocument(std::string_view, std::string_view);
template Result<nlohmann::ordered_json> parseJsonDocument(std::string_view, std::string_view);

}  // namespace byoc
