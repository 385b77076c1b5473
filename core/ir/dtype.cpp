#include "ir/dtype.h"

#include <array>
#include <utility>

namespace byoc {

namespace {

struct DTypeInfo {
  DType dtype;
  std::string_view name;
  std::size_t size;
};

constexpr std::array<DTypeInfo, 10> kDTypes = {{
    {DType::Float32, "float32", 4},
    {DType::Float16, "float16", 2},
    {DType::BFloat16, "bfloat16", 2},
    {DType::Float64, "float64", 8},
    {DType::Int8, "int8", 1},
    {DType::Int16, "int16", 2},
    {DType::Int32, "int32", 4},
    {DType::Int64, "int64", 8},
    {DType::UInt8, "uint8", 1},
    {DType::Bool, "bool", 1},
}};

const DTypeInfo& info(DType dtype) { return kDTypes[static_cast<std::size_t>(dtype)]; }

}  // namespace

std::string_view dtypeName(DType dtype) { return info(dtype).name; }

std::optional<DType> parseDType(std::string_view name) {
  for (const DTypeInfo& entry : kDTypes)
    if (entry.name == name) return entry.dtype;
  return std::nullopt;
}

std::size_t dtypeSize(DType dtype) { return info(dtype).size; }

bool isFloat(DType dtype) {
  return dtype == DType::Float32 || dtype == DType::Float16 || dtype == DType::BFloat16 ||
         dtype == DType::Float64;
}

bool isInteger(DType dtype) {
  return dtype == DType::Int8 || dtype == DType::Int16 || dtype == DType::Int32 ||
         dtype == DType::Int64 || dtype == DType::UInt8;
}

}  // namespace byoc
