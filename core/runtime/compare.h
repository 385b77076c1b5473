#pragma once
/// \file
/// Comparing a run against the reference: the largest absolute and relative differences, and
/// whether every element satisfies |a - b| <= atol + rtol * |b| (b is the reference).

#include "runtime/ndarray.h"

namespace byoc {

/// How far `actual` is from `expected`.
struct Difference {
  /// Largest |a - b|.
  double maxAbsolute = 0;
  /// Largest |a - b| / |b| over elements with b != 0.
  double maxRelative = 0;
  /// Every element within atol + rtol * |b|, same shape and dtype, NaN where the reference has NaN.
  bool within = true;
};

/// Compares element by element.
Difference compareArrays(const NDArray& actual, const NDArray& expected, double atol, double rtol);

}  // namespace byoc
