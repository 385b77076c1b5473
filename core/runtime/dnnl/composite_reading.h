#pragma once
/// \file
/// Reading a composite's body for its kernel: which parameter plays each role of the composite's
/// family (kernel_rules.h) and the attributes the body fixes (the anchor's, a clip's bounds, a
/// layer norm's epsilon). The kernel graph builder is its one user: nothing else reads bodies.

#include <string>
#include <vector>

#include "ir/expr.h"
#include "runtime/dnnl/kernel_rules.h"
#include "support/result.h"

namespace byoc::dnnl_backend {

/// The inputs (in role order) and attributes of a composite kernel, read from its body.
struct CompositeReading {
  std::vector<int> params;  ///< The composite parameter of each role.
  Attrs attrs;
  /// Constants of the body that fill the roles after the parameters' (the qnn composites' weight,
  /// bias and scale); the kernel graph gets a constant node for each.
  std::vector<TensorData> constants;
  /// A parameter filling the role after the constants (the qnn `_sum` composites' residual), or -1.
  int trailing = -1;
};

/// Reads the body of the composite `name`, called with `args`; an error says what of its family
/// the body lacks. A parameter whose argument is a constant counts as that constant (Relax's
/// FuseOpsByPattern lifts a pattern's constants, such as layer norm's epsilon, to parameters).
Result<CompositeReading> readComposite(const std::string& name, const FunctionNode& composite, const std::vector<Expr>& args);

}  // namespace byoc::dnnl_backend
