#pragma once
/// \file
/// Runtime values: a tensor (`NDArray`), a tuple of values, or a closure (a function with the
/// values of its free variables). Values are cheap to copy; tensors and tuples share their data.

#include <memory>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include "ir/expr.h"
#include "runtime/ndarray.h"
#include "support/result.h"

namespace byoc {

class Value;

/// A function value: the function, what its free variables were bound to when it was created,
/// and, for a let-bound recursive function, the variable naming itself.
struct Closure {
  Function function;
  std::vector<std::pair<const VarNode*, std::shared_ptr<const Value>>> captured;
  Var self;
  /// For a reference to a module function: its global name (empty otherwise).
  std::string globalName;
};

/// A tensor, a tuple, or a closure.
class Value {
 public:
  /// No value (a placeholder before evaluation).
  Value() = default;
  /// A tensor value.
  Value(NDArray tensor) : value_(std::move(tensor)) {}  // NOLINT(google-explicit-constructor)
  /// A tuple of `fields`.
  static Value tuple(std::vector<Value> fields);
  /// A closure value.
  static Value closure(Closure closure);

  /// Which kind of value this is.
  bool isTensor() const { return std::holds_alternative<NDArray>(value_); }
  bool isTuple() const { return std::holds_alternative<std::shared_ptr<const std::vector<Value>>>(value_); }
  bool isClosure() const { return std::holds_alternative<std::shared_ptr<const Closure>>(value_); }

  /// The tensor, fields or closure; the value must be of that kind.
  const NDArray& tensor() const { return std::get<NDArray>(value_); }
  const std::vector<Value>& fields() const { return *std::get<std::shared_ptr<const std::vector<Value>>>(value_); }
  const Closure& closure() const { return *std::get<std::shared_ptr<const Closure>>(value_); }

  /// Appends every tensor of this value, tuples flattened depth-first; false if a closure is met.
  bool flattenInto(std::vector<NDArray>& out) const;

 private:
  std::variant<std::monostate, NDArray, std::shared_ptr<const std::vector<Value>>, std::shared_ptr<const Closure>> value_;
};

/// Why a tensor of `type` cannot be allocated (an unknown or negative dimension, a rank or element
/// count past the limits of support/limits.h), or "" when it can.
std::string allocationProblem(const TensorTypeNode& type);

/// Fresh, uninitialised tensors for every tensor of `type` (tuples flattened depth-first);
/// error if a tensor cannot be allocated (`allocationProblem`, `NDArray::allocate`) or the type
/// is a function type.
Result<std::vector<NDArray>> allocateFlat(const Type& type);
/// Rebuilds the value of `type` from its flattened tensors, consuming them from `next`.
Value assemble(const Type& type, std::span<const NDArray> flat, std::size_t& next);

}  // namespace byoc
