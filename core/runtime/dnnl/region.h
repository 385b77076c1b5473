#pragma once
/// \file
/// One offloaded region compiled to oneDNN: built once from its kernel graph (kernel_graph.h),
/// then run many times. Building checks each kernel against its rules, lowers the kernels in
/// order, and ends with reorders of the heads into the plain layout the caller expects. Running
/// binds the caller's buffers and executes the steps (primitives on one stream, host loops such as
/// swish.h's in between); nothing is allocated.

#include <memory>
#include <span>
#include <string>

#include "ir/module.h"
#include "kernel_graph/kernel_graph.h"
#include "runtime/dnnl/lowering.h"
#include "runtime/ndarray.h"

namespace byoc::dnnl_backend {

/// A compiled region.
class Region {
 public:
  /// Compiles `graph`; errors name the node (an IR node located through `module` when given, or
  /// the artifact and the node's JSON pointer).
  static Result<std::unique_ptr<Region>> build(const kernel_graph::KernelGraph& graph, const Module* module, int threads);

  /// Runs on flattened inputs, writing the flattened preallocated outputs.
  Status run(std::span<const NDArray> inputs, std::span<const NDArray> outputs);

 private:
  explicit Region(int inputCount) : lowering_(inputCount) {}

  Lowering lowering_;
  std::vector<dnnl::memory> outputs_;
  int threads_ = 1;
};

}  // namespace byoc::dnnl_backend
