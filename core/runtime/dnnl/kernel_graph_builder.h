#pragma once
/// \file
/// The dnnl codegen's reading of an outlined region function: its kernel graph (kernel_graph.h).
/// This is the one place that reads composite bodies: each composite call becomes one kernel whose
/// inputs are the call's arguments in the role order of its family (kernel_rules.h) and whose
/// attributes are its anchor's plus what the body fixes (a clip's bounds, a layer norm's epsilon).
/// Tuples only group values: they become entries of the kernels that read them.

#include "ir/module.h"
#include "kernel_graph/kernel_graph.h"
#include "support/result.h"

namespace byoc::dnnl_backend {

/// The kernel graph of the type-checked region `function`; errors name the node (located through
/// `module` when given). Kernels are not checked against their rules here (`Region` does that).
Result<kernel_graph::KernelGraph> buildKernelGraph(const Function& function, const Module* module);

}  // namespace byoc::dnnl_backend
