#pragma once
/// \file
/// Lowering of single op calls and of composite calls to oneDNN primitives.
///
/// Each function appends the primitives of one call to the `Lowering` and returns its result
/// tensors (tuple results flattened). Errors name the op and what oneDNN cannot do with it.

#include <functional>
#include <string>
#include <vector>

#include "ir/expr.h"
#include "runtime/dnnl/lowering.h"

namespace byoc::dnnl_backend {

/// One eltwise primitive `algo` (with `alpha`, `beta`) on `src`, in `src`'s format.
Result<std::vector<Tensor>> lowerEltwise(Lowering& lowering, dnnl::algorithm algo, const Tensor& src, float alpha = 0,
                                         float beta = 0);

/// Lowers a call of a registered op.
Result<std::vector<Tensor>> lowerOpCall(Lowering& lowering, const CallNode& call, const std::vector<Tensor>& inputs);

/// Lowers a call of a composite function (attribute `Composite`): a convolution, deconvolution
/// or dense anchor with bias, sum and eltwise post-ops chosen by the composite's name; a
/// scale and shift (`dnnl.scale_shift[_relu]`) as one binary primitive with post-ops.
/// The roles of the inputs (data, weight, bias, residual) are read from the composite's body, so
/// an argument passed for two roles works. `lastRead(arg)` says that nothing reads the
/// `_sum` residual after this call (earlier readers have run and kept no view of it), so the
/// primitive may accumulate into the residual's memory in place.
Result<std::vector<Tensor>> lowerCompositeCall(Lowering& lowering, const CallNode& call, const FunctionNode& composite,
                                               const std::vector<Tensor>& inputs,
                                               const std::function<bool(const Expr&)>& lastRead);

}  // namespace byoc::dnnl_backend
