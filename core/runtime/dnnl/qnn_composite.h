#pragma once
/// \file
/// The rules of the `dnnl.qnn.conv2d` and `dnnl.qnn.dense` composite kernels (the form
/// LegalizeQnnForDnnl writes, TVM's dnnl qnn patterns): int8 or uint8 data, int8 weights, a
/// float32 bias with one value per output channel and a float32 output scale (one, or one per
/// output channel); the result int8, uint8 or float32. Their attributes are the product's plus
/// `a_min`/`a_max` (the clip), `activation_scale` and `output_zero_point`. The `_sum` forms
/// (`dnnl.qnn.conv2d_sum`, `dnnl.qnn.dense_sum`) add a residual of the result's type, scaled by
/// the attribute `sum_scale` (TVM's sum post-op), as a fifth input.

#include <string_view>
#include <vector>

#include "runtime/dnnl/kernel_rules.h"

namespace byoc::dnnl_backend {

/// Whether `attr` is one of the attributes a qnn composite's body fixes beside the product's.
bool isQnnCompositeAttr(std::string_view attr);

/// Checks a qnn composite kernel's input and output types (inputs in role order).
Status checkQnnComposite(const CompositeKind& kind, const std::vector<kernel_graph::TensorSpec>& inputs, const kernel_graph::KernelNode& kernel);

}  // namespace byoc::dnnl_backend
