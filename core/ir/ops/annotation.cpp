#include "ir/ops/op_helpers.h"

namespace byoc::ops {

namespace {

/// The annotations pass any value through unchanged, tensors and tuples alike.
Result<Type> passThrough(const TypeRelationInput& input) {
  if (input.args.size() != 1 || !input.args[0]) return makeError("annotation: expects one typed argument");
  return input.args[0];
}

}  // namespace

void registerAnnotationOps(OpRegistry& registry) {
  declare(registry, "annotation.compiler_begin", "marks where a region of target `compiler` takes its input",
          {"data"}, {tvmRequired("compiler", "")}, FusionKind::Opaque, passThrough);
  declare(registry, "annotation.compiler_end", "marks where a region of target `compiler` produces its output",
          {"data"}, {tvmRequired("compiler", "")}, FusionKind::Opaque, passThrough);
}

}  // namespace byoc::ops
