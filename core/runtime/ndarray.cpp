#include "runtime/ndarray.h"

#include <cstdlib>
#include <cstring>

#include "support/limits.h"
#include "support/result.h"

namespace byoc {

Storage::Storage(std::size_t bytes) : size_(bytes) {
  // aligned_alloc needs a size that is a multiple of the alignment, and never 0.
  std::size_t rounded = (bytes + kStorageAlignment - 1) / kStorageAlignment * kStorageAlignment;
  if (rounded == 0) rounded = kStorageAlignment;
  data_ = static_cast<std::byte*>(std::aligned_alloc(kStorageAlignment, rounded));
  BYOC_CHECK(data_ != nullptr, "out of memory allocating " + std::to_string(bytes) + " bytes");
}

Storage::~Storage() { std::free(data_); }

int64_t shapeElements(const Shape& shape) {
  int64_t count = 1;
  for (int64_t dim : shape) count *= dim;
  return count;
}

NDArray NDArray::empty(DType dtype, Shape shape) {
  // Callers refuse shapes from user input first (allocationProblem in runtime/value.h).
  const std::optional<int64_t> count = limits::elementCount(shape);
  BYOC_CHECK(count, "cannot allocate " + describeArray(dtype, shape) + ": " + limits::shapeProblem(shape));
  std::size_t bytes = static_cast<std::size_t>(*count) * dtypeSize(dtype);
  return view(dtype, std::move(shape), std::make_shared<Storage>(bytes), 0);
}

NDArray NDArray::zeros(DType dtype, Shape shape) {
  NDArray array = empty(dtype, std::move(shape));
  std::memset(array.bytes(), 0, array.byteSize());
  return array;
}

NDArray NDArray::view(DType dtype, Shape shape, std::shared_ptr<Storage> storage, std::size_t offset) {
  NDArray array;
  array.dtype_ = dtype;
  array.shape_ = std::move(shape);
  array.storage_ = std::move(storage);
  array.offset_ = offset;
  BYOC_CHECK(array.storage_ && offset + array.byteSize() <= array.storage_->size(),
             "array view exceeds its storage");
  return array;
}

NDArray NDArray::fromTensorData(const TensorData& data) {
  NDArray array = empty(data.dtype(), data.shape());
  std::span<const std::byte> bytes = data.bytes();
  if (!bytes.empty()) std::memcpy(array.bytes(), bytes.data(), bytes.size());
  return array;
}

NDArray NDArray::fromFloats(Shape shape, std::span<const float> values) {
  NDArray array = empty(DType::Float32, std::move(shape));
  BYOC_CHECK(static_cast<int64_t>(values.size()) == array.numElements(), "value count does not match the shape");
  if (!values.empty()) std::memcpy(array.bytes(), values.data(), values.size() * sizeof(float));
  return array;
}

NDArray NDArray::reshaped(Shape shape) const {
  BYOC_CHECK(shapeElements(shape) == numElements(), "reshape changes the element count");
  return view(dtype_, std::move(shape), storage_, offset_);
}

NDArray NDArray::clone() const {
  NDArray copy = empty(dtype_, shape_);
  copy.copyFrom(*this);
  return copy;
}

void NDArray::copyFrom(const NDArray& source) const {
  BYOC_CHECK(source.dtype_ == dtype_ && source.numElements() == numElements(), "copy between different arrays");
  if (byteSize() != 0 && source.bytes() != bytes()) std::memcpy(bytes(), source.bytes(), byteSize());
}

double NDArray::elementAsDouble(int64_t index) const {
  TensorData scalar = TensorData::fromBytes(
      dtype_, {}, std::span<const std::byte>(bytes() + static_cast<std::size_t>(index) * dtypeSize(dtype_), dtypeSize(dtype_)));
  return scalar.elementAsDouble(0);
}

std::string describeArray(DType dtype, const Shape& shape) {
  std::string text = std::string(dtypeName(dtype)) + " (";
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (i) text += ", ";
    text += std::to_string(shape[i]);
  }
  return text + ")";
}

}  // namespace byoc
