#pragma once
/// \file
/// The anchors of composites, also lowered on their own: convolution, deconvolution and dense
/// (inner product), each one primitive with optional bias and post-ops. The 1-D and 3-D
/// convolutions live in spatial_nd_ops.cpp and share the fusion helpers declared here.

#include <vector>

#include <string>
#include "runtime/dnnl/lowering.h"

namespace byoc::dnnl_backend {

/// What a convolution-like anchor gets from a composite around it.
struct Fusion {
  const Tensor* bias = nullptr;
  const Tensor* sum = nullptr;
  /// The residual is an intermediate nobody reads afterwards: the primitive may write over it.
  bool sumInPlace = false;
  dnnl::post_ops postOps;
};

/// `bias` as a 1-d tensor of `channels` elements; an error naming `op` when it has another size.
Result<Tensor> fusedBias(Lowering& lowering, const std::string& op, const Tensor& bias, int64_t channels);

/// The destination of an anchor primitive in format `wanted`. With a sum post-op it must hold the
/// residual first: the residual's own memory when it may be overwritten and already has the
/// wanted format (the sum happens in place), else a copy of it.
Tensor fusedDestination(Lowering& lowering, const Fusion& fusion, const dnnl::memory::desc& wanted);

/// `op`, `nn.conv2d` (`transposed` false) or `nn.conv2d_transpose` (true), with `kernel`'s
/// attributes on inputs[0] (data) and inputs[1] (weights), typed as kernel.inputs[0] and [1] with
/// the result kernel.outputs[0], and `fusion`'s bias, residual and post-ops. Errors name `op`.
Result<std::vector<Tensor>> lowerConvolution(Lowering& lowering, const std::string& op, const Kernel& kernel, bool transposed,
                                             const std::vector<Tensor>& inputs, const Fusion& fusion);
/// `op`, `nn.conv1d`, `nn.conv3d` or `nn.conv3d_transpose` in its canonical layout, as
/// `lowerConvolution` lowers a 2-D one (spatial_nd_ops.cpp).
Result<std::vector<Tensor>> lowerSpatialConvolution(Lowering& lowering, const std::string& op, const Kernel& kernel,
                                                    const std::vector<Tensor>& inputs, const Fusion& fusion);
/// `nn.dense` on inputs[0] and inputs[1] (typed as kernel.inputs[0] and [1]) with `fusion`'s bias, residual and post-ops.
Result<std::vector<Tensor>> lowerDense(Lowering& lowering, const Kernel& kernel, const std::vector<Tensor>& inputs,
                                       const Fusion& fusion);

}  // namespace byoc::dnnl_backend
