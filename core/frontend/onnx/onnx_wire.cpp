#include "frontend/onnx/onnx_wire.h"

#include <cstdint>
#include <optional>
#include <string>

namespace byoc::onnx_import {

namespace {

enum WireType : uint32_t { kVarint = 0, kFixed64 = 1, kLengthDelimited = 2, kFixed32 = 5 };

/// The fields of ModelProto (onnx.proto) and their wire types.
struct ModelField {
  uint32_t number;
  WireType wire;
  const char* name;
};

constexpr ModelField kModelFields[] = {
    {1, kVarint, "ir_version"},        {2, kLengthDelimited, "producer_name"},
    {3, kLengthDelimited, "producer_version"}, {4, kLengthDelimited, "domain"},
    {5, kVarint, "model_version"},     {6, kLengthDelimited, "doc_string"},
    {7, kLengthDelimited, "graph"},    {8, kLengthDelimited, "opset_import"},
    {14, kLengthDelimited, "metadata_props"}, {20, kLengthDelimited, "training_info"},
    {25, kLengthDelimited, "functions"},
};

const ModelField* findField(uint32_t number) {
  for (const ModelField& field : kModelFields)
    if (field.number == number) return &field;
  return nullptr;
}

/// Reads a varint at `pos`, advancing it; empty when the data ends inside it or it is too long.
std::optional<uint64_t> readVarint(std::string_view bytes, std::size_t& pos) {
  uint64_t value = 0;
  for (int shift = 0; shift < 64; shift += 7) {
    if (pos >= bytes.size()) return std::nullopt;
    auto byte = static_cast<uint8_t>(bytes[pos++]);
    value |= static_cast<uint64_t>(byte & 0x7f) << shift;
    if (!(byte & 0x80)) return value;
  }
  return std::nullopt;
}

Diagnostic truncated(std::size_t at, std::size_t size, const std::string& what) {
  return makeError("truncated ONNX model: " + what + " at byte " + std::to_string(at) + " runs past the end of the " +
                   std::to_string(size) + "-byte file");
}

}  // namespace

Status checkModelWireFormat(std::string_view bytes) {
  if (bytes.empty()) return makeError("not an ONNX model: the file is empty");
  std::size_t pos = 0;
  while (pos < bytes.size()) {
    std::size_t start = pos;
    std::optional<uint64_t> tag = readVarint(bytes, pos);
    if (!tag) return truncated(start, bytes.size(), "a field tag");
    auto number = static_cast<uint32_t>(*tag >> 3);
    auto wire = static_cast<uint32_t>(*tag & 7);
    const ModelField* field = findField(number);
    if (!field || field->wire != wire)
      return makeError("not an ONNX model: byte " + std::to_string(start) + " starts field " + std::to_string(number) +
                       " of wire type " + std::to_string(wire) + ", which an ONNX ModelProto does not have");
    std::string what = std::string("field ") + field->name;
    if (wire == kVarint) {
      if (!readVarint(bytes, pos)) return truncated(start, bytes.size(), what);
      continue;
    }
    std::optional<uint64_t> length = readVarint(bytes, pos);
    if (!length) return truncated(start, bytes.size(), what);
    if (*length > bytes.size() - pos)
      return truncated(start, bytes.size(), what + " (" + std::to_string(*length) + " bytes)");
    pos += static_cast<std::size_t>(*length);
  }
  return Status::ok();
}

bool startsLikeOnnxModel(std::string_view bytes) { return !bytes.empty() && bytes[0] == '\x08'; }

}  // namespace byoc::onnx_import
