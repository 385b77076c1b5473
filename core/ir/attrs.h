#pragma once
/// \file
/// Attribute values of calls and functions, and ordered attribute dictionaries.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace byoc {

/// One attribute value: none, bool, integer, float, string, or a list of values.
class AttrValue {
 public:
  using List = std::vector<AttrValue>;

  AttrValue() = default;  ///< `None`.
  AttrValue(bool value) : value_(value) {}  // NOLINT(google-explicit-constructor)
  AttrValue(int value) : value_(int64_t{value}) {}  // NOLINT(google-explicit-constructor)
  AttrValue(int64_t value) : value_(value) {}  // NOLINT(google-explicit-constructor)
  AttrValue(double value) : value_(value) {}  // NOLINT(google-explicit-constructor)
  AttrValue(std::string value) : value_(std::move(value)) {}  // NOLINT(google-explicit-constructor)
  AttrValue(const char* value) : value_(std::string(value)) {}  // NOLINT(google-explicit-constructor)
  AttrValue(List value) : value_(std::move(value)) {}  // NOLINT(google-explicit-constructor)
  /// A list of integers, the most common list attribute (padding, strides, shapes).
  static AttrValue ints(const std::vector<int64_t>& values);

  bool isNone() const { return std::holds_alternative<std::monostate>(value_); }
  bool isBool() const { return std::holds_alternative<bool>(value_); }
  bool isInt() const { return std::holds_alternative<int64_t>(value_); }
  bool isFloat() const { return std::holds_alternative<double>(value_); }
  bool isString() const { return std::holds_alternative<std::string>(value_); }
  bool isList() const { return std::holds_alternative<List>(value_); }

  bool asBool() const { return std::get<bool>(value_); }
  int64_t asInt() const { return std::get<int64_t>(value_); }
  /// The value as a double; integers convert.
  double asFloat() const { return isInt() ? static_cast<double>(asInt()) : std::get<double>(value_); }
  const std::string& asString() const { return std::get<std::string>(value_); }
  const List& asList() const { return std::get<List>(value_); }
  /// The list as integers; empty optional if it is not a list of integers.
  std::optional<std::vector<int64_t>> asInts() const;

  bool operator==(const AttrValue& other) const { return value_ == other.value_; }

  /// Relay text: `None`, `True`, `3`, `1e-05f`, `"NCHW"`, `[1, 1]`.
  std::string str() const;
  std::size_t hash() const;

 private:
  std::variant<std::monostate, bool, int64_t, double, std::string, List> value_;
};

/// The kind of value `model` stands for, as messages name it ("an integer", "a string or a list
/// of strings"); "nothing" for None.
const char* attrKindName(const AttrValue& model);

/// Ordered name → value dictionary. Keeps insertion order, which the printer follows.
///
/// Copies share one immutable list of entries (a node rebuilt over new children keeps its
/// attributes without copying them); changing a copy copies the list first.
class Attrs {
 public:
  using Entry = std::pair<std::string, AttrValue>;

  Attrs() = default;
  Attrs(std::initializer_list<Entry> entries)
      : entries_(entries.size() ? std::make_shared<std::vector<Entry>>(entries) : nullptr) {}

  /// The value of `name`, or null if absent.
  const AttrValue* find(std::string_view name) const;
  bool contains(std::string_view name) const { return find(name) != nullptr; }
  /// Sets `name`, replacing an existing value in place or appending. Setting the value a name
  /// already has changes nothing, so the copies sharing the entries keep sharing them.
  void set(std::string name, AttrValue value);
  /// Returns a copy with `name` set.
  Attrs with(std::string name, AttrValue value) const;
  /// Returns a copy without `name`.
  Attrs without(std::string_view name) const;

  const std::vector<Entry>& entries() const { return entries_ ? *entries_ : kNoEntries; }
  bool empty() const { return entries().empty(); }
  std::size_t size() const { return entries().size(); }
  bool operator==(const Attrs& other) const { return entries_ == other.entries_ || entries() == other.entries(); }
  std::size_t hash() const;

 private:
  static const std::vector<Entry> kNoEntries;
  std::shared_ptr<std::vector<Entry>> entries_;  ///< null when empty; changed only while not shared
};

}  // namespace byoc
