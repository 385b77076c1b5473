#pragma once
/// \file
/// Evaluation of op calls whose inputs are all constants, for `FoldConstant`.
///
/// `ConstantEvaluator` is the interface FoldConstant depends on; `referenceConstantEvaluator`
/// is a small built-in implementation covering the arithmetic that constant folding meets in
/// practice (numpy-broadcast add, subtract, multiply, divide, maximum, minimum, and power of
/// float32; negative, sqrt, exp, nn.relu; expand_dims, squeeze). A full interpreter can implement the same interface.

#include <optional>
#include <span>

#include "ir/attrs.h"
#include "ir/op.h"
#include "ir/tensor_data.h"

namespace byoc {

/// Computes op calls on constant inputs.
class ConstantEvaluator {
 public:
  virtual ~ConstantEvaluator() = default;
  /// The value of `def(inputs…)` with (normalised) `attrs`, or nothing when this evaluator does
  /// not implement the op, its dtype, or inputs that do not fit (the call is then left alone and
  /// type inference reports any real error).
  virtual std::optional<TensorData> evaluate(const OpDef& def, const Attrs& attrs,
                                             std::span<const TensorData> inputs) const = 0;
};

/// The built-in evaluator described in the file comment; floating-point and integer dtypes.
const ConstantEvaluator& referenceConstantEvaluator();

}  // namespace byoc
