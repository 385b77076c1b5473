#pragma once
/// \file
/// A kernel graph (core/kernel_graph/kernel_graph.h) as a function the graph view can draw:
/// each input a parameter, each constant a constant named for its role in the first kernel reading it
/// (`weight`, `bias`: the graph view lists it on that kernel's box), each kernel a call (of its op, or of a global
/// named after its composite, `@dnnl.conv2d_bias_relu`) typed with its outputs, a kernel's second
/// and later outputs projections of it, and the heads the body (a tuple when the region returns one).
/// Kernels and constants keep the origin the export records, so that the view names the model's
/// nodes each came from (through the host module's provenance) and groups them by name scope.
/// Only for drawing: the function is not meant to be type-checked or run.

#include <map>
#include <memory>
#include <string>

#include "ir/expr.h"
#include "ir/module.h"
#include "kernel_graph/kernel_graph.h"

namespace byoc::ui {

/// The drawable function of `graph`.
Function kernelGraphFunction(const kernel_graph::KernelGraph& graph);

/// `module` (a loaded export's) with the body of each function `graphs` holds a kernel graph for
/// replaced by that graph's kernels, as kernelGraphFunction draws them, its signature and
/// attributes kept: what the IR text shows instead of the `%kernel_graph` placeholder.
Module withKernelGraphBodies(const Module& module,
                             const std::map<std::string, std::shared_ptr<const kernel_graph::KernelGraph>>& graphs);

}  // namespace byoc::ui
