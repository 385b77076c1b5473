#pragma once
/// \file
/// One offloaded region compiled to oneDNN: built once from the region function, then run
/// many times. Building walks the region's dataflow (op calls and composite calls; tuples
/// only group values), lowers each call, and ends with reorders of the results into the
/// plain layout the caller expects. Running binds the caller's buffers and executes the
/// primitive list on one stream; nothing is allocated.

#include <memory>
#include <span>
#include <string>

#include "ir/module.h"
#include "runtime/dnnl/lowering.h"
#include "runtime/ndarray.h"

namespace byoc::dnnl_backend {

/// A compiled region.
class Region {
 public:
  /// Compiles `function`; errors name the node (located through `module` when given).
  static Result<std::unique_ptr<Region>> build(const Function& function, const Module* module, int threads);

  /// Runs on flattened inputs, writing the flattened preallocated outputs.
  Status run(std::span<const NDArray> inputs, std::span<const NDArray> outputs);

 private:
  explicit Region(int inputCount) : lowering_(inputCount) {}

  Lowering lowering_;
  std::vector<dnnl::memory> outputs_;
  int threads_ = 1;
};

}  // namespace byoc::dnnl_backend
