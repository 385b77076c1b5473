#pragma once
/// \file
/// Axis permutation of arrays, used by `transpose` and to bring other layouts to NCHW/OIHW.

#include <vector>

#include "runtime/ndarray.h"

namespace byoc::kernels {

/// Writes `in` with its axes permuted into `out`: out axis i is `in` axis `perm[i]`.
/// `out` must have the permuted shape and the same dtype.
void permuteInto(const NDArray& in, const std::vector<std::size_t>& perm, const NDArray& out);
/// A new array holding `in` with its axes permuted.
NDArray permuted(const NDArray& in, const std::vector<std::size_t>& perm);
/// The inverse permutation of `perm`.
std::vector<std::size_t> inversePermutation(const std::vector<std::size_t>& perm);

}  // namespace byoc::kernels
