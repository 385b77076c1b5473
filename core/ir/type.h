#pragma once
/// \file
/// Types of expressions: tensors, tuples and functions. Immutable and shared.

#include <cstdint>
#include <string>
#include <vector>

#include "ir/dtype.h"
#include "support/ref.h"

namespace byoc {

/// Dimension value meaning "unknown at compile time" (printed `?`).
inline constexpr int64_t kAnyDim = -1;

using Shape = std::vector<int64_t>;

class TypeNode;
/// Handle to a type; null means "not yet inferred" or "not annotated".
using Type = Ref<const TypeNode>;

/// Base of the three type kinds.
class TypeNode : public Object {
 public:
  enum class Kind : unsigned char { Tensor, Tuple, Func };
  Kind kind() const { return kind_; }

  /// Downcast; null when the node is of another kind.
  template <typename T>
  const T* as() const {
    return kind_ == T::kKind ? static_cast<const T*>(this) : nullptr;
  }

 protected:
  explicit TypeNode(Kind kind) : kind_(kind) {}

 private:
  Kind kind_;
};

/// `Tensor[(d0, d1, …), dtype]`; rank 0 is a scalar (printed as the bare dtype).
class TensorTypeNode final : public TypeNode {
 public:
  static constexpr Kind kKind = Kind::Tensor;
  TensorTypeNode(Shape shape, DType dtype) : TypeNode(kKind), shape(std::move(shape)), dtype(dtype) {}

  const Shape shape;
  const DType dtype;

  /// Number of elements, or -1 if a dimension is unknown.
  int64_t numElements() const;
};

/// `(T0, T1, …)`.
class TupleTypeNode final : public TypeNode {
 public:
  static constexpr Kind kKind = Kind::Tuple;
  explicit TupleTypeNode(std::vector<Type> fields) : TypeNode(kKind), fields(std::move(fields)) {}

  const std::vector<Type> fields;
};

/// `fn (P0, P1, …) -> R`.
class FuncTypeNode final : public TypeNode {
 public:
  static constexpr Kind kKind = Kind::Func;
  FuncTypeNode(std::vector<Type> params, Type ret)
      : TypeNode(kKind), params(std::move(params)), ret(std::move(ret)) {}

  const std::vector<Type> params;
  const Type ret;
};

/// Builds a tensor type.
Type tensorType(Shape shape, DType dtype);
/// Builds a scalar (rank-0 tensor) type.
Type scalarType(DType dtype);
/// Builds a tuple type.
Type tupleType(std::vector<Type> fields);
/// Builds a function type.
Type funcType(std::vector<Type> params, Type ret);

/// Structural equality of types (null equals only null).
bool typeEqual(const Type& lhs, const Type& rhs);
/// Structural hash consistent with `typeEqual`.
std::size_t typeHash(const Type& type);

/// Relay text of a type: `Tensor[(1, 3), float32]`, `int32`, `(int32, bool)`, `fn (int32) -> int32`.
std::string typeToString(const Type& type);

/// The types of `type` with tuples flattened, in field order: what a value of that type holds
/// when its tuples are taken apart (tensors, and whatever else is not a tuple; null stays null).
std::vector<const TypeNode*> flattenTupleTypes(const Type& type);

}  // namespace byoc
