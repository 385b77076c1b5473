#pragma once
/// \file
/// `NDArray`: the tensor value of the runtime. A dtype, a shape, and a view into 64-byte aligned
/// storage shared by copies (copying an `NDArray` never copies its elements; `clone` does).
///
/// Storage is allocated once and may be viewed by several arrays (a memory plan hands out
/// views of one pool); an array is always dense and row-major.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>

#include "ir/dtype.h"
#include "ir/tensor_data.h"
#include "ir/type.h"
#include "support/result.h"

namespace byoc {

/// Alignment in bytes of every storage block (one cache line, enough for AVX-512).
inline constexpr std::size_t kStorageAlignment = 64;

/// A block of aligned bytes owned by the arrays that view it. The blocks alive are counted, so
/// that sizes computed from a model's data are refused before they take the machine's memory.
class Storage {
 public:
  /// `bytes` uninitialised bytes aligned to `kStorageAlignment`, or an error when they would
  /// take the bytes of all live blocks past `limits::kMaxLiveTensorBytes` or cannot be had.
  static Result<std::shared_ptr<Storage>> allocate(std::size_t bytes);
  /// `bytes` bytes of a size the program already holds (a copy, a constant of the loaded model):
  /// counted but not limited; aborts only when the memory cannot be had.
  explicit Storage(std::size_t bytes);
  ~Storage();
  Storage(const Storage&) = delete;
  Storage& operator=(const Storage&) = delete;

  /// The first byte.
  std::byte* data() const { return data_; }
  /// Usable bytes.
  std::size_t size() const { return size_; }
  /// Bytes of all blocks alive now.
  static int64_t liveBytes();

 private:
  Storage(std::byte* data, std::size_t size) : data_(data), size_(size) {}

  std::byte* data_;
  std::size_t size_;
};

/// Number of elements of a fully known shape (1 for a scalar).
int64_t shapeElements(const Shape& shape);

/// A dense row-major n-d array.
class NDArray {
 public:
  /// An undefined array (no storage).
  NDArray() = default;
  /// Uninitialised storage for `shape`, whose sizes may come from user input or a model's data:
  /// an error names the array and its bytes when the shape is past the limits of
  /// support/limits.h or the storage cannot be had (`Storage::allocate`).
  static Result<NDArray> allocate(DType dtype, Shape shape);
  /// Uninitialised storage for `shape`, a size the program already holds (`Storage(bytes)`).
  static NDArray empty(DType dtype, Shape shape);
  /// Zero-filled storage for `shape`.
  static NDArray zeros(DType dtype, Shape shape);
  /// A view of `storage` from byte `offset`; the storage must hold the whole array.
  static NDArray view(DType dtype, Shape shape, std::shared_ptr<Storage> storage, std::size_t offset);
  /// A copy of a constant's data.
  static NDArray fromTensorData(const TensorData& data);
  /// A float32 array holding `values` (size must match `shape`), for tests and tools.
  static NDArray fromFloats(Shape shape, std::span<const float> values);

  /// False for a default-constructed array.
  bool defined() const { return storage_ != nullptr; }
  /// Element type.
  DType dtype() const { return dtype_; }
  /// Dimensions, outermost first.
  const Shape& shape() const { return shape_; }
  /// Number of dimensions.
  std::size_t rank() const { return shape_.size(); }
  /// Number of elements.
  int64_t numElements() const { return shapeElements(shape_); }
  /// Bytes of the elements.
  std::size_t byteSize() const { return static_cast<std::size_t>(numElements()) * dtypeSize(dtype_); }

  /// The first byte of the array.
  std::byte* bytes() const { return storage_->data() + offset_; }
  /// The elements as `T` (the caller knows the dtype).
  template <typename T>
  T* data() const {
    return reinterpret_cast<T*>(bytes());
  }

  /// The same elements under another shape with the same element count (shares storage).
  NDArray reshaped(Shape shape) const;
  /// A deep copy in fresh storage.
  NDArray clone() const;
  /// Copies the elements of `source` (same dtype and element count) into this array.
  void copyFrom(const NDArray& source) const;
  /// The tensor type of this array.
  Type type() const { return tensorType(shape_, dtype_); }
  /// Element `index` converted to double (any dtype), for tests and messages.
  double elementAsDouble(int64_t index) const;
  /// Shares storage with `other`.
  bool sharesStorage(const NDArray& other) const { return storage_ == other.storage_; }

 private:
  DType dtype_ = DType::Float32;
  Shape shape_;
  std::shared_ptr<Storage> storage_;
  std::size_t offset_ = 0;
};

/// "float32 (1, 3, 224, 224)", for messages.
std::string describeArray(DType dtype, const Shape& shape);

}  // namespace byoc
