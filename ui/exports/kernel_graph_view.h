#pragma once
/// \file
/// A dnnl kernel graph (core/runtime/dnnl/kernel_graph.h) as a function the graph view can draw:
/// each input a parameter, each constant a constant, each kernel a call (of its op, or of a global
/// named after its composite, `@dnnl.conv2d_bias_relu`) typed with its outputs, a kernel's second
/// and later outputs projections of it, and the heads the body (a tuple when the region returns one).
/// Only for drawing: the function is not meant to be type-checked or run.

#include "ir/expr.h"
#include "runtime/dnnl/kernel_graph.h"

namespace byoc::ui {

/// The drawable function of `graph`.
Function kernelGraphFunction(const dnnl_backend::KernelGraph& graph);

}  // namespace byoc::ui
