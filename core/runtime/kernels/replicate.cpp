/// \file
/// Kernels of tile, broadcast_to and reverse: each output index maps to an input index axis by
/// axis, whatever the dtype.

#include "ir/ops/op_helpers.h"
#include "runtime/kernels/gather_axes.h"
#include "runtime/kernels/kernel_families.h"

namespace byoc::kernels {

namespace {

/// `in` viewed at the output's rank, with leading axes of size 1 (shorter shapes align right).
NDArray atRank(const NDArray& in, std::size_t rank) {
  Shape shape(rank - in.rank(), 1);
  shape.insert(shape.end(), in.shape().begin(), in.shape().end());
  return in.reshaped(std::move(shape));
}

Status tile(const KernelArgs& args) {
  const NDArray& out = args.outputs[0];
  const NDArray in = atRank(args.inputs[0], out.rank());
  const Shape& dims = in.shape();
  gatherBySize(in, out, nullptr, [&](std::size_t a, int64_t i) { return i % dims[a]; });
  return Status::ok();
}

Status broadcastTo(const KernelArgs& args) {
  const NDArray& out = args.outputs[0];
  const NDArray in = atRank(args.inputs[0], out.rank());
  const Shape& dims = in.shape();
  gatherBySize(in, out, nullptr, [&](std::size_t a, int64_t i) { return dims[a] == 1 ? 0 : i; });
  return Status::ok();
}

Status reverse(const KernelArgs& args) {
  const NDArray& in = args.inputs[0];
  BYOC_ASSIGN_OR_RETURN(int64_t given, ops::intAttr("reverse", args.attrs, "axis"));
  const std::size_t axis = axisIndex(given, in.rank());
  const int64_t last = in.rank() ? in.shape()[axis] - 1 : 0;
  gatherBySize(in, args.outputs[0], nullptr, [&](std::size_t a, int64_t i) { return a == axis ? last - i : i; });
  return Status::ok();
}

}  // namespace

void addReplicateKernels(KernelTable& table) {
  table["tile"] = tile;
  table["broadcast_to"] = broadcastTo;
  table["reverse"] = reverse;
}

}  // namespace byoc::kernels
