#pragma once
/// \file
/// Numpy-broadcast iteration: walks the output row by row (the innermost axis), giving each
/// operand's offset at the row start and its stride along the row (0 when broadcast).

#include <array>
#include <cstdint>

#include "runtime/kernels/dispatch.h"

namespace byoc::kernels {

/// Strides of `shape` aligned to the right of an output of rank `rank`; broadcast axes get 0.
inline std::vector<int64_t> broadcastStrides(const Shape& shape, std::size_t rank) {
  std::vector<int64_t> strides(rank, 0);
  std::vector<int64_t> own = stridesOf(shape);
  std::size_t shift = rank - shape.size();
  for (std::size_t i = 0; i < shape.size(); ++i) strides[shift + i] = shape[i] == 1 ? 0 : own[i];
  return strides;
}

/// Calls `row(offsets, inner, innerStrides)` for every row of `out`, where `offsets[k]` is where
/// operand k's row starts and `innerStrides[k]` its step along the row.
template <std::size_t N, typename Row>
void forEachBroadcastRow(const Shape& out, const std::array<const Shape*, N>& operands, Row row) {
  const std::size_t rank = out.size();
  std::array<std::vector<int64_t>, N> strides;
  for (std::size_t k = 0; k < N; ++k) strides[k] = broadcastStrides(*operands[k], rank);
  const int64_t inner = rank ? out[rank - 1] : 1;
  std::array<int64_t, N> innerStrides{};
  for (std::size_t k = 0; k < N; ++k) innerStrides[k] = rank ? strides[k][rank - 1] : 0;
  const int64_t rows = inner ? shapeElements(out) / inner : 0;
  std::vector<int64_t> counter(rank, 0);
  std::array<int64_t, N> offsets{};
  for (int64_t r = 0; r < rows; ++r) {
    row(offsets, inner, innerStrides);
    // Advance the odometer over the outer axes (all but the last).
    for (std::size_t axis = rank < 2 ? 0 : rank - 1; axis-- > 0;) {
      ++counter[axis];
      for (std::size_t k = 0; k < N; ++k) offsets[k] += strides[k][axis];
      if (counter[axis] < out[axis]) break;
      for (std::size_t k = 0; k < N; ++k) offsets[k] -= strides[k][axis] * counter[axis];
      counter[axis] = 0;
    }
  }
}

}  // namespace byoc::kernels
