#pragma once
/// \file
/// The length of ONNX Range (numpy's arange): max(ceil((limit - start) / delta), 0), shared by the
/// importer, which folds a Range of constant bounds, and the `arange` kernel, which computes one
/// of run-time bounds.

#include <cstdint>

#include "support/result.h"

namespace byoc::ops {

/// The length of the integer range, exact for every int64 bound; an error for a delta of 0 or a
/// length beyond the element limit of one tensor.
Result<int64_t> rangeLength(int64_t start, int64_t limit, int64_t delta);

/// The length of the floating-point range; an error for a delta of 0, a bound that is not a
/// number, or a length beyond the element limit of one tensor.
Result<int64_t> rangeLength(double start, double limit, double delta);

}  // namespace byoc::ops
