#pragma once
/// \file
/// Zero padding folded into the average pools that read it. ONNX exporters write PyTorch's
/// avg_pool2d(padding=p, count_include_pad=True) as a Pad and an AveragePool: inception_v3 does so
/// nine times, and densenet121's transitions pad by nothing three times. Lowered as written, the
/// pad copies the tensor into a padded plain buffer and the pool runs on the plain layout between
/// two reorders. Folded, the pool reads the unpadded tensor in its own format and adds the padding
/// itself, counted in the average, as TVM's FoldExplicitPadding folds a pad into a pool.

#include <cstdint>
#include <optional>
#include <vector>

#include "kernel_graph/kernel_graph.h"
#include "runtime/dnnl/lowering.h"

namespace byoc::dnnl_backend {

/// The padding of a pad node that its readers take themselves.
struct FoldedPad {
  /// Widths added around the two spatial axes: top, left, bottom, right (a pool's `padding` order).
  std::vector<int64_t> padding;
};

/// For each node of `graph`, the padding it adds when it is an nn.pad that every reader can take:
/// float32, constant mode with the value 0, only the spatial axes of a 4-d tensor padded, not a
/// head, and read only as the data of nn.avg_pool2d kernels (NCHW, floor mode, counting their own
/// padding if they have any) whose padding stays narrower than their window.
std::vector<std::optional<FoldedPad>> foldablePads(const kernel_graph::KernelGraph& graph);

/// `pool` reading the pad's input, typed `padInput`, instead of the pad's result: the pad's widths
/// added to its padding, which its average counts.
Kernel withFoldedPad(Kernel pool, const FoldedPad& pad, const kernel_graph::TensorSpec& padInput);

}  // namespace byoc::dnnl_backend
