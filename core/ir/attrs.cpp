#include "ir/attrs.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>

namespace byoc {

namespace {

void hashCombine(std::size_t& seed, std::size_t value) {
  seed ^= value + 0x9e3779b97f4a7c15ULL + (seed << 6) + (seed >> 2);
}

std::string quote(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  out += '"';
  return out;
}

/// Shortest decimal text that reads back to the same double, with Relay's float suffix.
std::string floatText(double value) {
  if (std::isinf(value)) return value > 0 ? "inff" : "-inff";
  if (std::isnan(value)) return "nanf";
  char buffer[32];
  for (int precision = 6; precision <= 17; ++precision) {
    std::snprintf(buffer, sizeof buffer, "%.*g", precision, value);
    if (std::strtod(buffer, nullptr) == value) break;
  }
  std::string text = buffer;
  return text + 'f';
}

}  // namespace

const char* attrKindName(const AttrValue& model) {
  if (model.isNone()) return "nothing";
  if (model.isBool()) return "a boolean";
  if (model.isInt()) return "an integer";
  if (model.isFloat()) return "a number";
  if (model.isString()) return "a string";
  const AttrValue* item = model.asList().empty() ? nullptr : &model.asList().front();
  if (item && item->isInt()) return "an integer or a list of integers";
  if (item && item->isFloat()) return "a number or a list of numbers";
  if (item && item->isString()) return "a string or a list of strings";
  return "a list";
}

AttrValue AttrValue::ints(const std::vector<int64_t>& values) {
  List list;
  list.reserve(values.size());
  for (int64_t value : values) list.emplace_back(value);
  return AttrValue(std::move(list));
}

std::optional<std::vector<int64_t>> AttrValue::asInts() const {
  if (!isList()) return std::nullopt;
  std::vector<int64_t> values;
  for (const AttrValue& item : asList()) {
    if (!item.isInt()) return std::nullopt;
    values.push_back(item.asInt());
  }
  return values;
}

std::string AttrValue::str() const {
  if (isNone()) return "None";
  if (isBool()) return asBool() ? "True" : "False";
  if (isInt()) return std::to_string(asInt());
  if (isFloat()) return floatText(std::get<double>(value_));
  if (isString()) return quote(asString());
  std::string out = "[";
  const List& list = asList();
  for (std::size_t i = 0; i < list.size(); ++i) {
    if (i) out += ", ";
    out += list[i].str();
  }
  return out + ']';
}

std::size_t AttrValue::hash() const {
  std::size_t seed = value_.index();
  if (isBool()) hashCombine(seed, asBool());
  if (isInt()) hashCombine(seed, std::hash<int64_t>()(asInt()));
  if (isFloat()) hashCombine(seed, std::hash<double>()(std::get<double>(value_)));
  if (isString()) hashCombine(seed, std::hash<std::string>()(asString()));
  if (isList())
    for (const AttrValue& item : asList()) hashCombine(seed, item.hash());
  return seed;
}

const std::vector<Attrs::Entry> Attrs::kNoEntries;

const AttrValue* Attrs::find(std::string_view name) const {
  for (const Entry& entry : entries())
    if (entry.first == name) return &entry.second;
  return nullptr;
}

void Attrs::set(std::string name, AttrValue value) {
  if (const AttrValue* current = find(name); current && *current == value) return;
  // Other copies keep the entries they have.
  if (!entries_ || entries_.use_count() > 1) entries_ = std::make_shared<std::vector<Entry>>(entries());
  auto found = std::find_if(entries_->begin(), entries_->end(), [&](const Entry& entry) { return entry.first == name; });
  if (found != entries_->end()) found->second = std::move(value);
  else entries_->emplace_back(std::move(name), std::move(value));
}

Attrs Attrs::with(std::string name, AttrValue value) const {
  Attrs copy = *this;
  copy.set(std::move(name), std::move(value));
  return copy;
}

Attrs Attrs::without(std::string_view name) const {
  auto entries = std::make_shared<std::vector<Entry>>();
  for (const Entry& entry : this->entries())
    if (entry.first != name) entries->push_back(entry);
  Attrs copy;
  if (!entries->empty()) copy.entries_ = std::move(entries);
  return copy;
}

std::size_t Attrs::hash() const {
  std::size_t seed = size();
  for (const Entry& entry : entries()) {
    hashCombine(seed, std::hash<std::string>()(entry.first));
    hashCombine(seed, entry.second.hash());
  }
  return seed;
}

}  // namespace byoc
