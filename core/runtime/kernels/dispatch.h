#pragma once
/// \file
/// Helpers shared by the kernels: calling a template on the C++ type of a dtype, row-major
/// strides, and the error for an unsupported dtype.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/ndarray.h"
#include "support/result.h"

namespace byoc::kernels {

/// "op: float16 is not supported by the reference kernels".
inline Diagnostic unsupportedDType(std::string_view op, DType dtype) {
  return makeError(std::string(op) + ": " + std::string(dtypeName(dtype)) +
                   " is not supported by the reference kernels");
}

/// Calls `f(T{})` with T the C++ type of `dtype`; error for float16 and bfloat16.
template <typename F>
Status dispatchDType(std::string_view op, DType dtype, F&& f) {
  switch (dtype) {
    case DType::Float32: f(float{}); return Status::ok();
    case DType::Float64: f(double{}); return Status::ok();
    case DType::Int8: f(int8_t{}); return Status::ok();
    case DType::Int16: f(int16_t{}); return Status::ok();
    case DType::Int32: f(int32_t{}); return Status::ok();
    case DType::Int64: f(int64_t{}); return Status::ok();
    case DType::UInt8: f(uint8_t{}); return Status::ok();
    case DType::Bool: f(bool{}); return Status::ok();
    case DType::Float16:
    case DType::BFloat16: break;
  }
  return unsupportedDType(op, dtype);
}

/// Calls `f(T{})` for float32 and float64 only.
template <typename F>
Status dispatchFloat(std::string_view op, DType dtype, F&& f) {
  if (dtype == DType::Float32) f(float{});
  else if (dtype == DType::Float64) f(double{});
  else return unsupportedDType(op, dtype);
  return Status::ok();
}

/// Row-major strides (in elements) of `shape`.
inline std::vector<int64_t> stridesOf(const Shape& shape) {
  std::vector<int64_t> strides(shape.size(), 1);
  for (std::size_t i = shape.size(); i-- > 1;) strides[i - 1] = strides[i] * shape[i];
  return strides;
}

/// Product of `shape[begin, end)`.
inline int64_t extent(const Shape& shape, std::size_t begin, std::size_t end) {
  int64_t count = 1;
  for (std::size_t i = begin; i < end; ++i) count *= shape[i];
  return count;
}

/// A normalised axis in [0, rank), assuming the type relation already validated it.
inline std::size_t axisIndex(int64_t axis, std::size_t rank) {
  return static_cast<std::size_t>(axis < 0 ? axis + static_cast<int64_t>(rank) : axis);
}

/// Reads index `k` of an integer array as int64.
inline int64_t indexAt(const NDArray& indices, int64_t k) {
  switch (indices.dtype()) {
    case DType::Int8: return indices.data<int8_t>()[k];
    case DType::Int16: return indices.data<int16_t>()[k];
    case DType::Int32: return indices.data<int32_t>()[k];
    case DType::UInt8: return indices.data<uint8_t>()[k];
    default: return indices.data<int64_t>()[k];
  }
}

}  // namespace byoc::kernels
