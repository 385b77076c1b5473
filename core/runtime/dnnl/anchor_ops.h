#pragma once
/// \file
/// The anchors of composites, also lowered on their own: convolution, deconvolution and dense
/// (inner product), each one primitive with optional bias and post-ops.

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

/// `op`, `nn.conv2d` (`transposed` false) or `nn.conv2d_transpose` (true), with `kernel`'s
/// attributes on inputs[0] (data) and inputs[1] (weights), typed as kernel.inputs[0] and [1] with
/// the result kernel.outputs[0], and `fusion`'s bias, residual and post-ops. Errors name `op`.
Result<std::vector<Tensor>> lowerConvolution(Lowering& lowering, const std::string& op, const Kernel& kernel, bool transposed,
                                             const std::vector<Tensor>& inputs, const Fusion& fusion);
/// `nn.dense` on inputs[0] and inputs[1] (typed as kernel.inputs[0] and [1]) with `fusion`'s bias, residual and post-ops.
Result<std::vector<Tensor>> lowerDense(Lowering& lowering, const Kernel& kernel, const std::vector<Tensor>& inputs,
                                       const Fusion& fusion);

}  // namespace byoc::dnnl_backend
