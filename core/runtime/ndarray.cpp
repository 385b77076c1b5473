#include "runtime/ndarray.h"

#include <atomic>
#include <cstdlib>
#include <cstring>

#include "support/limits.h"
#include "support/result.h"

namespace byoc {

namespace {

/// Bytes of all storage blocks alive, as allocated (rounded up to the alignment).
std::atomic<int64_t> liveStorageBytes{0};

/// `bytes` rounded up to a whole number of alignment units, never 0 (aligned_alloc needs both).
std::size_t roundedToAlignment(std::size_t bytes) {
  const std::size_t units = bytes / kStorageAlignment + (bytes % kStorageAlignment != 0);
  return units == 0 ? kStorageAlignment : units * kStorageAlignment;
}

}  // namespace

Result<std::shared_ptr<Storage>> Storage::allocate(std::size_t bytes) {
  const std::string limit = std::to_string(limits::kMaxLiveTensorBytes) +
                            " bytes all tensors may hold at once (the limit of the runtime's memory)";
  if (bytes > static_cast<std::size_t>(limits::kMaxLiveTensorBytes)) return makeError("more than the " + limit);
  const auto rounded = static_cast<int64_t>(roundedToAlignment(bytes));
  const int64_t held = liveStorageBytes.fetch_add(rounded);
  if (held + rounded > limits::kMaxLiveTensorBytes) {
    liveStorageBytes.fetch_sub(rounded);
    return makeError("with the " + std::to_string(held) + " bytes other tensors hold, more than the " + limit);
  }
  auto* data = static_cast<std::byte*>(std::aligned_alloc(kStorageAlignment, static_cast<std::size_t>(rounded)));
  if (!data) {
    liveStorageBytes.fetch_sub(rounded);
    return makeError("out of memory");
  }
  return std::shared_ptr<Storage>(new Storage(data, bytes));
}

Storage::Storage(std::size_t bytes) : size_(bytes) {
  const std::size_t rounded = roundedToAlignment(bytes);
  data_ = static_cast<std::byte*>(std::aligned_alloc(kStorageAlignment, rounded));
  BYOC_CHECK(data_ != nullptr, "out of memory allocating " + std::to_string(bytes) + " bytes");
  liveStorageBytes.fetch_add(static_cast<int64_t>(rounded));
}

Storage::~Storage() {
  std::free(data_);
  liveStorageBytes.fetch_sub(static_cast<int64_t>(roundedToAlignment(size_)));
}

int64_t Storage::liveBytes() { return liveStorageBytes.load(); }

int64_t shapeElements(const Shape& shape) {
  int64_t count = 1;
  for (int64_t dim : shape) count *= dim;
  return count;
}

Result<NDArray> NDArray::allocate(DType dtype, Shape shape) {
  if (std::string problem = limits::shapeProblem(shape); !problem.empty())
    return makeError("cannot allocate " + describeArray(dtype, shape) + ": " + problem);
  const std::size_t bytes = static_cast<std::size_t>(*limits::elementCount(shape)) * dtypeSize(dtype);
  Result<std::shared_ptr<Storage>> storage = Storage::allocate(bytes);
  if (!storage)
    return makeError("cannot allocate " + describeArray(dtype, shape) + " (" + std::to_string(bytes) +
                     " bytes): " + storage.error().message);
  return view(dtype, std::move(shape), std::move(storage).value(), 0);
}

NDArray NDArray::empty(DType dtype, Shape shape) {
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
