#pragma once
/// \file
/// The runtime module of the `dnnl` codegen, built from a region's kernel graph: what the codegen
/// builds from an outlined function (through `buildKernelGraph`) and what an export loads.

#include <memory>
#include <string>

#include "kernel_graph/kernel_graph.h"
#include "runtime/runtime_module.h"

namespace byoc::dnnl_backend {

/// Compiles `graph` to oneDNN primitives, once, and exposes it as `symbol`.
Result<std::unique_ptr<RuntimeModule>> buildDnnlModule(const kernel_graph::KernelGraph& graph, const std::string& symbol,
                                                       const CodegenOptions& options);

}  // namespace byoc::dnnl_backend
