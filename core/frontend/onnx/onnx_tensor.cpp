#include "frontend/onnx/onnx_tensor.h"

#include <algorithm>
#include <charconv>
#include <cstring>
#include <filesystem>
#include <optional>

#include "support/file_io.h"
#include "support/safe_path.h"

#include "support/limits.h"

namespace byoc::onnx_import {

namespace {

using onnx::TensorProto_DataType;

/// "(1, 3, 224)", with `?` for unknown dimensions when `unknownAsMark`.
std::string joinDims(const Shape& shape, bool unknownAsMark) {
  std::string text = "(";
  for (std::size_t i = 0; i < shape.size(); ++i)
    text += (i ? ", " : "") + (unknownAsMark && shape[i] == kAnyDim ? std::string("?") : std::to_string(shape[i]));
  return text + ")";
}

/// Copies the elements of a typed repeated field into little-endian storage of `dtype`.
template <typename Field>
std::vector<std::byte> packTyped(const Field& field, DType dtype) {
  std::size_t size = dtypeSize(dtype);
  std::vector<std::byte> bytes(static_cast<std::size_t>(field.size()) * size);
  for (int i = 0; i < field.size(); ++i) {
    std::byte* out = bytes.data() + static_cast<std::size_t>(i) * size;
    auto value = field.Get(i);
    switch (dtype) {
      case DType::Float32: { float v = static_cast<float>(value); std::memcpy(out, &v, 4); break; }
      case DType::Float64: { double v = static_cast<double>(value); std::memcpy(out, &v, 8); break; }
      case DType::Int64: { int64_t v = static_cast<int64_t>(value); std::memcpy(out, &v, 8); break; }
      case DType::Int32: { int32_t v = static_cast<int32_t>(value); std::memcpy(out, &v, 4); break; }
      case DType::Int16:
      case DType::Float16:
      case DType::BFloat16: { uint16_t v = static_cast<uint16_t>(value); std::memcpy(out, &v, 2); break; }
      case DType::Int8:
      case DType::UInt8:
      case DType::Bool: { uint8_t v = static_cast<uint8_t>(value); std::memcpy(out, &v, 1); break; }
    }
  }
  return bytes;
}

/// The typed field that holds `dtype` values when `raw_data` is not used (onnx.proto's table).
std::vector<std::byte> typedData(const onnx::TensorProto& proto, DType dtype) {
  switch (dtype) {
    case DType::Float32: return packTyped(proto.float_data(), dtype);
    case DType::Float64: return packTyped(proto.double_data(), dtype);
    case DType::Int64: return packTyped(proto.int64_data(), dtype);
    default: return packTyped(proto.int32_data(), dtype);
  }
}

Result<std::vector<std::byte>> externalData(const onnx::TensorProto& proto, const std::string& dir) {
  std::string location;
  int64_t offset = 0;
  std::optional<int64_t> length;  // to the end of the file when absent
  for (const auto& entry : proto.external_data()) {
    if (entry.key() == "location") {
      location = entry.value();
    } else if (entry.key() == "offset" || entry.key() == "length") {
      const std::string& text = entry.value();
      int64_t value = 0;
      auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
      if (error != std::errc() || end != text.data() + text.size())
        return makeError("external data " + entry.key() + " '" + text + "' is not an integer");
      if (entry.key() == "offset") offset = value;
      else length = value;
    }
  }
  if (location.empty()) return makeError("external data has no 'location'");
  const std::filesystem::path named = std::filesystem::path(dir) / location;
  std::error_code error;
  if (!std::filesystem::exists(std::filesystem::symlink_status(named, error)))
    return makeError("cannot open external data file '" + named.string() + "'");
  // The location is confined to the model's directory: relative, no '..', no link leading out.
  Result<ContainedFile> file = resolveInside(dir, location);
  if (!file) return makeError("external data location " + file.error().message);
  if (!length && offset >= 0 && offset <= file->size) length = file->size - offset;
  if (Status inside = checkByteRange(offset, length.value_or(0), file->size); !inside)
    return makeError("external data in " + file->path + ": " + inside.error().message);
  Result<std::vector<std::byte>> bytes = readFileRange(file->path, offset, *length);
  if (!bytes) return makeError("external data in " + bytes.error().str());
  return std::move(bytes).value();
}

}  // namespace

std::string shapeString(const Shape& shape) { return joinDims(shape, true); }

std::string listString(const std::vector<int64_t>& values) { return joinDims(values, false); }

Status checkShape(const Shape& shape, bool allowUnknown) {
  Shape counted = shape;
  if (allowUnknown) std::replace(counted.begin(), counted.end(), kAnyDim, int64_t{1});
  std::string problem = limits::shapeProblem(counted);
  if (problem.empty()) return Status::ok();
  // A shape over the rank limit may have any number of dimensions: it is not shown.
  if (static_cast<int64_t>(shape.size()) > limits::kMaxRank) return makeError(problem);
  return makeError("shape " + (allowUnknown ? shapeString(shape) : listString(shape)) + ": " + problem);
}

std::string onnxElemTypeName(int32_t elemType) {
  // The float8 and 4-bit types of ONNX 1.14 and later, which the linked ONNX may not name.
  static const char* const kNewer[] = {"FLOAT8E4M3FN", "FLOAT8E4M3FNUZ", "FLOAT8E5M2", "FLOAT8E5M2FNUZ", "UINT4", "INT4"};
  if (elemType >= 17 && elemType <= 22) return kNewer[elemType - 17];
  if (!onnx::TensorProto_DataType_IsValid(elemType)) return std::to_string(elemType);
  return onnx::TensorProto_DataType_Name(static_cast<TensorProto_DataType>(elemType));
}

Result<DType> dtypeFromOnnx(int32_t elemType) {
  switch (elemType) {
    case onnx::TensorProto::FLOAT: return DType::Float32;
    case onnx::TensorProto::FLOAT16: return DType::Float16;
    case onnx::TensorProto::BFLOAT16: return DType::BFloat16;
    case onnx::TensorProto::DOUBLE: return DType::Float64;
    case onnx::TensorProto::INT8: return DType::Int8;
    case onnx::TensorProto::INT16: return DType::Int16;
    case onnx::TensorProto::INT32: return DType::Int32;
    case onnx::TensorProto::INT64: return DType::Int64;
    case onnx::TensorProto::UINT8: return DType::UInt8;
    case onnx::TensorProto::BOOL: return DType::Bool;
    default: return makeError("unsupported element type " + onnxElemTypeName(elemType));
  }
}

Result<TensorData> tensorFromProto(const onnx::TensorProto& proto, const std::string& externalDataDir) {
  BYOC_ASSIGN_OR_RETURN(DType dtype, dtypeFromOnnx(proto.data_type()));
  Shape shape(proto.dims().begin(), proto.dims().end());
  BYOC_TRY(checkShape(shape));
  std::vector<std::byte> bytes;
  if (proto.data_location() == onnx::TensorProto::EXTERNAL) {
    BYOC_ASSIGN_OR_RETURN(bytes, externalData(proto, externalDataDir));
  } else if (proto.has_raw_data()) {
    const std::string& raw = proto.raw_data();
    bytes.resize(raw.size());
    std::memcpy(bytes.data(), raw.data(), raw.size());
  } else {
    bytes = typedData(proto, dtype);
  }
  // Within the element limit, the byte count of any dtype fits int64_t.
  auto expected = static_cast<std::size_t>(*limits::elementCount(shape)) * dtypeSize(dtype);
  if (bytes.size() != expected)
    return makeError("tensor holds " + std::to_string(bytes.size()) + " bytes, expected " + std::to_string(expected) +
                     " for shape " + shapeString(shape) + " of " + std::string(dtypeName(dtype)));
  return TensorData(dtype, std::move(shape), std::make_shared<const std::vector<std::byte>>(std::move(bytes)));
}

}  // namespace byoc::onnx_import
