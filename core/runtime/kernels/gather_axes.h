#pragma once
/// \file
/// Copies an array's elements to another of the same rank where each output index maps to an input
/// index axis by axis (slicing, padding, tiling, broadcasting, reversing).

#include <cstdint>
#include <vector>

#include "runtime/kernels/dispatch.h"

namespace byoc::kernels {

/// Copies out[i…] = in[source(i…)] where each output axis maps to an input index through `map`
/// (returning -1 for "use the fill value"). Element size is fixed at compile time.
template <typename Unit, typename Map>
void gatherAxes(const NDArray& in, const NDArray& out, const Unit* fill, Map map) {
  const Shape& shape = out.shape();
  const std::size_t rank = shape.size();
  const std::vector<int64_t> inStrides = stridesOf(in.shape());
  const Unit* source = in.data<Unit>();
  Unit* target = out.data<Unit>();
  const int64_t total = out.numElements();
  std::vector<int64_t> counter(rank, 0);
  for (int64_t k = 0; k < total; ++k) {
    int64_t offset = 0;
    bool inside = true;
    for (std::size_t a = 0; a < rank; ++a) {
      const int64_t index = map(a, counter[a]);
      if (index < 0) inside = false;
      else offset += index * inStrides[a];
    }
    target[k] = inside ? source[offset] : *fill;
    for (std::size_t a = rank; a-- > 0;) {
      if (++counter[a] < shape[a]) break;
      counter[a] = 0;
    }
  }
}

/// Runs `gatherAxes` with the unit type matching the element size.
template <typename Map>
void gatherBySize(const NDArray& in, const NDArray& out, const std::byte* fill, Map map) {
  switch (dtypeSize(in.dtype())) {
    case 1: gatherAxes(in, out, reinterpret_cast<const uint8_t*>(fill), map); break;
    case 2: gatherAxes(in, out, reinterpret_cast<const uint16_t*>(fill), map); break;
    case 4: gatherAxes(in, out, reinterpret_cast<const uint32_t*>(fill), map); break;
    default: gatherAxes(in, out, reinterpret_cast<const uint64_t*>(fill), map); break;
  }
}

}  // namespace byoc::kernels
