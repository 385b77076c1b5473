#pragma once
/// \file
/// The immutable payload of a `Constant`: dtype, shape and little-endian bytes, shared by copies.

#include <cstddef>
#include <cstring>
#include <memory>
#include <span>
#include <vector>

#include "ir/dtype.h"
#include "ir/type.h"

namespace byoc {

/// An n-d array value held by a constant. Copies share the bytes.
class TensorData {
 public:
  TensorData() = default;
  /// Wraps `bytes`, which must hold exactly numElements(shape) * dtypeSize(dtype) bytes.
  TensorData(DType dtype, Shape shape, std::shared_ptr<const std::vector<std::byte>> bytes);

  /// A rank-0 tensor holding `value` converted to `dtype`.
  static TensorData scalar(DType dtype, double value);
  /// A zero-filled tensor.
  static TensorData zeros(DType dtype, Shape shape);
  /// A tensor copied from raw bytes.
  static TensorData fromBytes(DType dtype, Shape shape, std::span<const std::byte> bytes);

  DType dtype() const { return dtype_; }
  const Shape& shape() const { return shape_; }
  bool isScalar() const { return shape_.empty(); }
  int64_t numElements() const;
  std::span<const std::byte> bytes() const;
  /// Element `index` read as a double (for printing scalars and folding).
  double elementAsDouble(int64_t index) const;

  /// Same dtype, shape and bytes.
  bool operator==(const TensorData& other) const;
  std::size_t hash() const;

 private:
  DType dtype_ = DType::Float32;
  Shape shape_;
  std::shared_ptr<const std::vector<std::byte>> bytes_;
};

/// The transpose of the 2-D tensor `matrix` (a [k, n] weight as the [n, k] one nn.dense takes).
TensorData transposed2d(const TensorData& matrix);

}  // namespace byoc
