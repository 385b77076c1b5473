#pragma once
/// \file
/// Lowering of op kernels and composite kernels to oneDNN primitives.
///
/// Each function appends the primitives of one kernel to the `Lowering` and returns its result
/// tensors (tuple results flattened). Errors name the op and what oneDNN cannot do with it.

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "runtime/dnnl/lowering.h"

namespace byoc {
struct OpDef;
}

namespace byoc::dnnl_backend {

/// One eltwise primitive `algo` (with `alpha`, `beta`) on `src`, in `src`'s format.
Result<std::vector<Tensor>> lowerEltwise(Lowering& lowering, dnnl::algorithm algo, const Tensor& src, float alpha = 0,
                                         float beta = 0);

/// One layer normalization primitive over the last axis of `src`, applying the channel-wise
/// scale and shift in `scaleShift` when given.
Result<std::vector<Tensor>> lowerLayerNormalization(Lowering& lowering, const Tensor& src, float epsilon,
                                                    const std::optional<std::pair<Tensor, Tensor>>& scaleShift);

/// Whether `op` has a lowering (attached to its definition in ops.cpp).
bool isLoweredOp(const OpDef& op);

/// Lowers a kernel of `op` (`inputs` as `kernel.inputs` describes them).
Result<std::vector<Tensor>> lowerOpCall(Lowering& lowering, const OpDef& op, const Kernel& kernel,
                                        const std::vector<Tensor>& inputs);

/// Lowers a composite kernel (see kernel_rules.h for the families and their input roles): a
/// convolution, deconvolution or dense anchor with bias, sum and eltwise post-ops chosen by the
/// composite's name; a scale and shift as one binary primitive with post-ops; gelu and layer norm.
/// `residualOverwritable` says that nothing reads the `_sum` residual after this kernel (earlier
/// readers have run and kept no view of it, and it is no other input of this kernel), so the
/// primitive may accumulate into the residual's memory in place.
Result<std::vector<Tensor>> lowerCompositeCall(Lowering& lowering, const Kernel& kernel, const std::vector<Tensor>& inputs,
                                               bool residualOverwritable);

}  // namespace byoc::dnnl_backend
