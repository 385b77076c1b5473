#pragma once
/// \file
/// The lowerings of op kernels that live outside ops.cpp (which holds the table of every op's
/// lowering): data movement (movement_ops.cpp), pooling and normalization (normalization_ops.cpp),
/// and the 1-D and 3-D convolutions and pools (spatial_nd_ops.cpp). Each appends the primitives of
/// one kernel and returns its results.

#include <vector>

#include "runtime/dnnl/lowering.h"

namespace byoc::dnnl_backend {

/// `reshape`, `squeeze`, `expand_dims`, `nn.batch_flatten`: a view of the plain data, no copy.
Result<std::vector<Tensor>> lowerReshape(Lowering& lowering, const Kernel& kernel, const std::vector<Tensor>& inputs);
/// `transpose`: the input read through permuted strides, reordered into plain layout.
Result<std::vector<Tensor>> lowerTranspose(Lowering& lowering, const Kernel& kernel, const std::vector<Tensor>& inputs);
/// `concatenate` of the kernel's inputs (the tuple's fields) in their own formats.
Result<std::vector<Tensor>> lowerConcat(Lowering& lowering, const Kernel& kernel, const std::vector<Tensor>& inputs);
/// `nn.pad` in constant mode with a constant value.
Result<std::vector<Tensor>> lowerPad(Lowering& lowering, const Kernel& kernel, const std::vector<Tensor>& inputs);
/// `strided_slice` with unit strides.
Result<std::vector<Tensor>> lowerStridedSlice(Lowering& lowering, const Kernel& kernel, const std::vector<Tensor>& inputs);

/// Max, average, global and 1×1 adaptive pooling in NCHW.
Result<std::vector<Tensor>> lowerPool(Lowering& lowering, const Kernel& kernel, const std::vector<Tensor>& inputs);
/// `nn.conv1d`, `nn.conv3d`, `nn.conv1d_transpose` and `nn.conv3d_transpose` in their canonical
/// layouts (spatial_nd_ops.cpp).
Result<std::vector<Tensor>> lowerSpatialConv(Lowering& lowering, const Kernel& kernel, const std::vector<Tensor>& inputs);
/// `nn.adaptive_avg_pool1d/3d` and `nn.adaptive_max_pool1d/3d` to an output size of all 1 (spatial_nd_ops.cpp).
Result<std::vector<Tensor>> lowerSpatialGlobalPool(Lowering& lowering, const Kernel& kernel, const std::vector<Tensor>& inputs);
/// `nn.max_pool3d` and `nn.avg_pool3d` in NCDHW (spatial_nd_ops.cpp).
Result<std::vector<Tensor>> lowerSpatialPool(Lowering& lowering, const Kernel& kernel, const std::vector<Tensor>& inputs);
/// `nn.batch_norm` over axis 1 with global statistics; results: data, mean, variance.
Result<std::vector<Tensor>> lowerBatchNorm(Lowering& lowering, const Kernel& kernel, const std::vector<Tensor>& inputs);
/// `nn.layer_norm` over the last axis.
Result<std::vector<Tensor>> lowerLayerNorm(Lowering& lowering, const Kernel& kernel, const std::vector<Tensor>& inputs);
/// `nn.softmax` and `nn.log_softmax`.
Result<std::vector<Tensor>> lowerSoftmax(Lowering& lowering, const Kernel& kernel, const std::vector<Tensor>& inputs);

}  // namespace byoc::dnnl_backend
