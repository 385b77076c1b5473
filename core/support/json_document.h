#pragma once
/// \file
/// One way to read a JSON document for every reader of the project's JSON formats (modules,
/// targets, patterns, exports): a syntax error is located at its line:column, a number beyond a
/// double is named, and nesting deeper than `limits::kMaxNestingDepth` is refused before parsing
/// (readers walk the parsed tree recursively: copies, comparisons, printing).

#include <string_view>

#include <nlohmann/json.hpp>

#include "support/result.h"

namespace byoc {

/// The document `text`, as `nlohmann::json` or, where the order of an object's keys matters,
/// `nlohmann::ordered_json`; errors name `fileName` (and a line:column for syntax errors).
template <typename Json = nlohmann::json>
Result<Json> parseJsonDocument(std::string_view text, std::string_view fileName);

extern template Result<nlohmann::json> parseJsonDocument(std::string_view, std::string_view);
extern template Result<nlohmann::ordered_json> parseJsonDocument(std::string_view, std::string_view);

}  // namespace byoc
