#pragma once
/// \file
/// Element types of tensors, named as Relay names them (`float32`, `int64`, `bool`, …).

#include <cstddef>
#include <optional>
#include <string_view>

namespace byoc {

/// Element type of a tensor.
enum class DType : unsigned char {
  Float32,
  Float16,
  BFloat16,
  Float64,
  Int8,
  Int16,
  Int32,
  Int64,
  UInt8,
  Bool,
};

/// Relay spelling: "float32", "bfloat16", "bool", …
std::string_view dtypeName(DType dtype);
/// Inverse of `dtypeName`; empty for an unknown name.
std::optional<DType> parseDType(std::string_view name);
/// Storage size of one element in bytes (bool takes one byte).
std::size_t dtypeSize(DType dtype);
/// True for the floating-point types.
bool isFloat(DType dtype);
/// True for the signed and unsigned integer types (not bool).
bool isInteger(DType dtype);

}  // namespace byoc
