#include "runtime/kernels/permute.h"

#include <cstring>

#include "runtime/kernels/dispatch.h"

namespace byoc::kernels {

namespace {

/// Copies element by element with the element size fixed at compile time.
template <typename Unit>
void permuteUnits(const Unit* in, Unit* out, const Shape& outShape, const std::vector<int64_t>& inStrides) {
  const std::size_t rank = outShape.size();
  const int64_t total = shapeElements(outShape);
  if (rank == 0) {
    if (total) out[0] = in[0];
    return;
  }
  const int64_t inner = outShape[rank - 1];
  const int64_t innerStride = inStrides[rank - 1];
  std::vector<int64_t> counter(rank, 0);
  int64_t offset = 0;
  for (int64_t done = 0; done < total; done += inner) {
    for (int64_t i = 0; i < inner; ++i) out[done + i] = in[offset + i * innerStride];
    for (std::size_t axis = rank - 1; axis-- > 0;) {
      ++counter[axis];
      offset += inStrides[axis];
      if (counter[axis] < outShape[axis]) break;
      offset -= inStrides[axis] * counter[axis];
      counter[axis] = 0;
    }
  }
}

}  // namespace

void permuteInto(const NDArray& in, const std::vector<std::size_t>& perm, const NDArray& out) {
  std::vector<int64_t> strides = stridesOf(in.shape());
  std::vector<int64_t> permutedStrides(perm.size());
  for (std::size_t i = 0; i < perm.size(); ++i) permutedStrides[i] = strides[perm[i]];
  switch (dtypeSize(in.dtype())) {
    case 1: permuteUnits(in.data<uint8_t>(), out.data<uint8_t>(), out.shape(), permutedStrides); break;
    case 2: permuteUnits(in.data<uint16_t>(), out.data<uint16_t>(), out.shape(), permutedStrides); break;
    case 4: permuteUnits(in.data<uint32_t>(), out.data<uint32_t>(), out.shape(), permutedStrides); break;
    default: permuteUnits(in.data<uint64_t>(), out.data<uint64_t>(), out.shape(), permutedStrides); break;
  }
}

NDArray permuted(const NDArray& in, const std::vector<std::size_t>& perm) {
  Shape shape(perm.size());
  for (std::size_t i = 0; i < perm.size(); ++i) shape[i] = in.shape()[perm[i]];
  NDArray out = NDArray::empty(in.dtype(), std::move(shape));
  permuteInto(in, perm, out);
  return out;
}

std::vector<std::size_t> inversePermutation(const std::vector<std::size_t>& perm) {
  std::vector<std::size_t> inverse(perm.size());
  for (std::size_t i = 0; i < perm.size(); ++i) inverse[perm[i]] = i;
  return inverse;
}

}  // namespace byoc::kernels
