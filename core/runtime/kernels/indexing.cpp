/// \file
/// Kernels of gather_nd and scatter_nd. Index tuples are read on axis 0 of the indices; an index
/// may count from the end of its axis (as ONNX allows), and one outside the axis is an error.

#include <algorithm>
#include <cstring>

#include "ir/ops/op_helpers.h"
#include "runtime/kernels/dispatch.h"
#include "runtime/kernels/kernel_families.h"

namespace byoc::kernels {

namespace {

/// Reads the index tuples of an (M, Y…) indices array into flat positions over `axes` (M sizes).
class IndexTuples {
 public:
  IndexTuples(std::string_view op, const NDArray& indices, std::span<const int64_t> axes)
      : op_(op), indices_(indices), axes_(axes), count_(indices.numElements() / indices.shape()[0]) {}

  /// How many tuples there are (the product of Y…).
  int64_t count() const { return count_; }

  /// Tuple `p` as a row-major position within `axes`; an error when an index is outside its axis.
  Result<int64_t> position(int64_t p) const {
    int64_t position = 0;
    for (std::size_t m = 0; m < axes_.size(); ++m) {
      const int64_t size = axes_[m];
      int64_t index = indexAt(indices_, static_cast<int64_t>(m) * count_ + p);
      if (index < -size || index >= size)
        return makeError(std::string(op_) + ": index " + std::to_string(index) + " of tuple " + std::to_string(p) +
                         " is outside an axis of size " + std::to_string(size) + "; expected " + std::to_string(-size) +
                         " to " + std::to_string(size - 1));
      position = position * size + (index < 0 ? index + size : index);
    }
    return position;
  }

 private:
  std::string_view op_;
  const NDArray& indices_;
  std::span<const int64_t> axes_;
  int64_t count_;
};

Status gatherNd(const KernelArgs& args) {
  const NDArray& data = args.inputs[0];
  const NDArray& indices = args.inputs[1];
  const NDArray& out = args.outputs[0];
  BYOC_ASSIGN_OR_RETURN(int64_t batchDims, ops::intAttr("gather_nd", args.attrs, "batch_dims"));
  const auto batch = static_cast<std::size_t>(batchDims);
  const auto tuple = static_cast<std::size_t>(indices.shape()[0]);
  const Shape& shape = data.shape();
  const IndexTuples tuples("gather_nd", indices, std::span(shape).subspan(batch, tuple));
  // Tuples within one batch entry, and the elements one tuple addresses.
  const int64_t perBatch = extent(indices.shape(), 1 + batch, indices.rank());
  const int64_t addressed = extent(shape, batch, batch + tuple);
  const std::size_t block = static_cast<std::size_t>(extent(shape, batch + tuple, shape.size())) * dtypeSize(data.dtype());
  for (int64_t p = 0; p < tuples.count(); ++p) {
    BYOC_ASSIGN_OR_RETURN(int64_t position, tuples.position(p));
    const int64_t source = (perBatch ? p / perBatch : 0) * addressed + position;
    if (block)
      std::memcpy(out.bytes() + static_cast<std::size_t>(p) * block, data.bytes() + static_cast<std::size_t>(source) * block, block);
  }
  return Status::ok();
}

/// Writes each tuple's slice of updates into `out`, combined with what is there by `combine`.
template <typename T, typename Combine>
Status scatterSlices(const NDArray& out, const NDArray& updates, const IndexTuples& tuples, int64_t slice, Combine combine) {
  T* target = out.data<T>();
  const T* source = updates.data<T>();
  for (int64_t p = 0; p < tuples.count(); ++p) {
    BYOC_ASSIGN_OR_RETURN(int64_t position, tuples.position(p));
    for (int64_t i = 0; i < slice; ++i) target[position * slice + i] = combine(target[position * slice + i], source[p * slice + i]);
  }
  return Status::ok();
}

/// Scatters with the combination `mode` names (update, add, mul, min or max).
template <typename T>
Status scatterByMode(const NDArray& out, const NDArray& updates, const IndexTuples& tuples, int64_t slice,
                     const std::string& mode) {
  if (mode == "add") return scatterSlices<T>(out, updates, tuples, slice, [](T a, T b) { return static_cast<T>(a + b); });
  if (mode == "mul") return scatterSlices<T>(out, updates, tuples, slice, [](T a, T b) { return static_cast<T>(a * b); });
  if (mode == "min") return scatterSlices<T>(out, updates, tuples, slice, [](T a, T b) { return std::min(a, b); });
  if (mode == "max") return scatterSlices<T>(out, updates, tuples, slice, [](T a, T b) { return std::max(a, b); });
  return scatterSlices<T>(out, updates, tuples, slice, [](T, T b) { return b; });
}

Status scatterNd(const KernelArgs& args) {
  const NDArray& data = args.inputs[0];
  const NDArray& indices = args.inputs[1];
  const NDArray& out = args.outputs[0];
  out.copyFrom(data);
  const auto tuple = static_cast<std::size_t>(indices.shape()[0]);
  const IndexTuples tuples("scatter_nd", indices, std::span(data.shape()).first(tuple));
  const int64_t slice = extent(data.shape(), tuple, data.rank());
  const std::string mode = ops::stringAttr(args.attrs, "mode");
  Status scattered = Status::ok();
  BYOC_TRY(dispatchDType("scatter_nd", data.dtype(), [&](auto zero) {
    scattered = scatterByMode<decltype(zero)>(out, args.inputs[2], tuples, slice, mode);
  }));
  return scattered;
}

}  // namespace

void addIndexingKernels(KernelTable& table) {
  table["gather_nd"] = gatherNd;
  table["scatter_nd"] = scatterNd;
}

}  // namespace byoc::kernels
