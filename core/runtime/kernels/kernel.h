#pragma once
/// \file
/// Reference kernels: one plain function per registered op, attached to the op's definition
/// (kernel_families.h).
///
/// A kernel reads its inputs and writes into outputs the caller has already allocated with
/// the shapes and dtypes the op's type relation computed (so the same kernel serves the
/// interpreter, which allocates per call, and planned execution, which reuses buffers).
/// Tuple-typed arguments and results are flattened: `concatenate` sees each field as one
/// input, `split` writes one output per field. A kernel returns an error (naming the op)
/// for what it cannot compute, such as an unsupported dtype; it never aborts on user data.

#include <span>
#include <string_view>

#include "ir/attrs.h"
#include "runtime/ndarray.h"
#include "support/result.h"

namespace byoc {
struct OpDef;
}

namespace byoc::kernels {

/// What a kernel works on.
struct KernelArgs {
  /// The op's name, for messages.
  std::string_view op;
  /// Inputs, tuple fields flattened in order.
  std::span<const NDArray> inputs;
  /// Preallocated outputs, tuple fields flattened in order.
  std::span<const NDArray> outputs;
  /// The call's normalised attributes.
  const Attrs& attrs;
};

/// A reference kernel.
using Kernel = Status (*)(const KernelArgs& args);

/// The kernel of `op`, or null if there is none.
Kernel kernelOf(const OpDef& op);

/// Computes the result type of a call from its input values (tuple fields flattened), for an op
/// whose result shape depends on values and not only on its inputs' shapes (`dyn.reshape`).
using ShapeFunction = Result<Type> (*)(std::span<const NDArray> inputs, const Attrs& attrs);

/// The value-dependent shape function of op `name`, or null when the op's type relation applied
/// to the inputs' run-time types gives its result type.
ShapeFunction findShapeFunction(std::string_view name);

}  // namespace byoc::kernels
