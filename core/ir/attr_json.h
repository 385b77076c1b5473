#pragma once
/// \file
/// Attribute values as JSON (null, bool, number, string, or a list of those), shared by the file
/// formats that store attributes. Header-only: include it where nlohmann_json is linked.

#include <cstdint>
#include <string>
#include <variant>

#include <nlohmann/json.hpp>

#include "ir/attrs.h"

namespace byoc {

/// `value` as JSON; lists become arrays.
inline nlohmann::json attrValueToJson(const AttrValue& value) {
  if (value.isNone()) return nullptr;
  if (value.isBool()) return value.asBool();
  if (value.isInt()) return value.asInt();
  if (value.isFloat()) return value.asFloat();
  if (value.isString()) return value.asString();
  nlohmann::json list = nlohmann::json::array();
  for (const AttrValue& item : value.asList()) list.push_back(attrValueToJson(item));
  return list;
}

/// Where a JSON value holds something that is not an attribute value (an object).
struct AttrJsonMismatch {
  std::string pointer;  ///< The JSON pointer of the offending element below the value read ("" for itself).
  std::string found;    ///< That element as JSON text.
};

/// The attribute value `value` holds (arrays become lists), or where it holds something else.
inline std::variant<AttrValue, AttrJsonMismatch> attrValueFromJson(const nlohmann::json& value) {
  switch (value.type()) {
    case nlohmann::json::value_t::null: return AttrValue();
    case nlohmann::json::value_t::boolean: return AttrValue(value.get<bool>());
    case nlohmann::json::value_t::number_integer: return AttrValue(value.get<int64_t>());
    case nlohmann::json::value_t::number_unsigned:
      if (value.get<uint64_t>() > static_cast<uint64_t>(INT64_MAX)) return AttrJsonMismatch{"", value.dump()};
      return AttrValue(value.get<int64_t>());
    case nlohmann::json::value_t::number_float: return AttrValue(value.get<double>());
    case nlohmann::json::value_t::string: return AttrValue(value.get<std::string>());
    case nlohmann::json::value_t::array: {
      AttrValue::List items;
      for (std::size_t i = 0; i < value.size(); ++i) {
        std::variant<AttrValue, AttrJsonMismatch> item = attrValueFromJson(value[i]);
        if (auto* mismatch = std::get_if<AttrJsonMismatch>(&item)) {
          mismatch->pointer = "/" + std::to_string(i) + mismatch->pointer;
          return std::move(*mismatch);
        }
        items.push_back(std::get<AttrValue>(std::move(item)));
      }
      return AttrValue(std::move(items));
    }
    default: return AttrJsonMismatch{"", value.dump()};
  }
}

}  // namespace byoc
