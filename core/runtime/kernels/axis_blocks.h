#pragma once
/// \file
/// Joining arrays along an axis and splitting one apart (concatenate, split, qnn.concatenate).

#include <cstddef>
#include <span>

#include "runtime/ndarray.h"

namespace byoc::kernels {

/// Copies [outer, part, inner] blocks between `whole` and its `parts` along `axis`: into `whole`
/// when `gather`, else out of it. The parts' sizes along `axis` add up to the whole's; dtypes match.
void moveAlongAxis(const NDArray& whole, std::span<const NDArray> parts, std::size_t axis, bool gather);

}  // namespace byoc::kernels
