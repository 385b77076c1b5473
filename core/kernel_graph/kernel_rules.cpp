#include "kernel_graph/kernel_rules.h"

namespace byoc::kernel_graph {

Status KernelRules::check(const KernelGraph& graph, const KernelNode& kernel) const {
  BYOC_TRY(checkName(kernel.name));
  BYOC_TRY(normalizeAttrs(kernel.name, kernel.attrs).status());
  return checkKernel(graph, kernel);
}

}  // namespace byoc::kernel_graph
