#pragma once
/// \file
/// Attribute values as JSON (null, bool, number, string, or a list of those), shared by the file
/// formats that store attributes. Header-only: include it where nlohmann_json is linked.

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

}  // namespace byoc
