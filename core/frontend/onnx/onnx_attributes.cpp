#include "frontend/onnx/onnx_attributes.h"

#include <charconv>

namespace byoc::onnx_import {

namespace {

using AttributeType = onnx::AttributeProto::AttributeType;

/// The declared type, or for files that leave it UNDEFINED the type implied by the filled field.
AttributeType typeOf(const onnx::AttributeProto& attribute) {
  if (attribute.type() != onnx::AttributeProto::UNDEFINED) return attribute.type();
  if (attribute.ints_size() > 0) return onnx::AttributeProto::INTS;
  if (attribute.floats_size() > 0) return onnx::AttributeProto::FLOATS;
  if (attribute.strings_size() > 0) return onnx::AttributeProto::STRINGS;
  if (attribute.has_t()) return onnx::AttributeProto::TENSOR;
  if (attribute.has_s()) return onnx::AttributeProto::STRING;
  if (attribute.has_f()) return onnx::AttributeProto::FLOAT;
  if (attribute.has_i()) return onnx::AttributeProto::INT;
  return onnx::AttributeProto::UNDEFINED;
}

template <typename T>
Result<T> missing(std::string_view name) {
  return makeError("missing attribute '" + std::string(name) + "'");
}

}  // namespace

bool NodeAttributes::has(std::string_view name) const {
  for (const auto& attribute : node_.attribute())
    if (attribute.name() == name) return true;
  return false;
}

Result<const onnx::AttributeProto*> NodeAttributes::find(std::string_view name, AttributeType expected) const {
  for (const auto& attribute : node_.attribute()) {
    if (attribute.name() != name) continue;
    AttributeType found = typeOf(attribute);
    if (found != expected)
      return makeError("attribute '" + std::string(name) + "' must be " +
                       onnx::AttributeProto_AttributeType_Name(expected) + ", found " +
                       onnx::AttributeProto_AttributeType_Name(found));
    return &attribute;
  }
  return static_cast<const onnx::AttributeProto*>(nullptr);
}

Result<int64_t> NodeAttributes::getInt(std::string_view name, std::optional<int64_t> fallback) const {
  BYOC_ASSIGN_OR_RETURN(const onnx::AttributeProto* attribute, find(name, onnx::AttributeProto::INT));
  if (attribute) return attribute->i();
  if (fallback) return *fallback;
  return missing<int64_t>(name);
}

double widenFloat(float value) {
  char text[32];
  auto written = std::to_chars(text, text + sizeof(text), value);
  double wide = value;
  std::from_chars(text, written.ptr, wide);
  return wide;
}

Result<double> NodeAttributes::getFloat(std::string_view name, std::optional<float> fallback) const {
  BYOC_ASSIGN_OR_RETURN(const onnx::AttributeProto* attribute, find(name, onnx::AttributeProto::FLOAT));
  if (attribute) return widenFloat(attribute->f());
  if (fallback) return widenFloat(*fallback);
  return missing<double>(name);
}

Result<std::string> NodeAttributes::getString(std::string_view name, std::optional<std::string> fallback) const {
  BYOC_ASSIGN_OR_RETURN(const onnx::AttributeProto* attribute, find(name, onnx::AttributeProto::STRING));
  if (attribute) return attribute->s();
  if (fallback) return *fallback;
  return missing<std::string>(name);
}

Result<std::vector<int64_t>> NodeAttributes::getInts(std::string_view name,
                                                     std::optional<std::vector<int64_t>> fallback) const {
  BYOC_ASSIGN_OR_RETURN(const onnx::AttributeProto* attribute, find(name, onnx::AttributeProto::INTS));
  if (attribute) return std::vector<int64_t>(attribute->ints().begin(), attribute->ints().end());
  if (fallback) return *fallback;
  return missing<std::vector<int64_t>>(name);
}

Result<std::vector<float>> NodeAttributes::getFloats(std::string_view name,
                                                     std::optional<std::vector<float>> fallback) const {
  BYOC_ASSIGN_OR_RETURN(const onnx::AttributeProto* attribute, find(name, onnx::AttributeProto::FLOATS));
  if (attribute) return std::vector<float>(attribute->floats().begin(), attribute->floats().end());
  if (fallback) return *fallback;
  return missing<std::vector<float>>(name);
}

Result<const onnx::TensorProto*> NodeAttributes::getTensor(std::string_view name) const {
  BYOC_ASSIGN_OR_RETURN(const onnx::AttributeProto* attribute, find(name, onnx::AttributeProto::TENSOR));
  if (attribute) return &attribute->t();
  return missing<const onnx::TensorProto*>(name);
}

}  // namespace byoc::onnx_import
