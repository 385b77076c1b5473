#pragma once
/// \file
/// What a codegen requires of the kernels of a graph it is to run. The graph and its JSON form know
/// no kernel; reading an artifact applies the rules of the codegen that will run it, so that a graph
/// that loads is one that codegen can build.

#include <functional>
#include <string>

#include "ir/attrs.h"
#include "kernel_graph/kernel_graph.h"
#include "support/result.h"

namespace byoc::kernel_graph {

/// One codegen's checks of a kernel; each error names no place (the caller locates it).
struct KernelRules {
  /// Whether `name` is a kernel the codegen knows.
  std::function<Status(const std::string& name)> checkName;
  /// The attributes of the kernel `name` as the codegen reads them (defaults filled, unknown names rejected).
  std::function<Result<Attrs>(const std::string& name, const Attrs& attrs)> normalizeAttrs;
  /// Whether the inputs and outputs of `kernel`, a node of `graph`, fit it.
  std::function<Status(const KernelGraph& graph, const KernelNode& kernel)> checkKernel;

  /// The three checks in order on `kernel`.
  Status check(const KernelGraph& graph, const KernelNode& kernel) const;
};

}  // namespace byoc::kernel_graph
