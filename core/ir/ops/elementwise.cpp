#include "ir/ops/op_helpers.h"

namespace byoc::ops {

namespace {

/// Unary ops that keep their input's shape and dtype and take no attributes.
struct UnaryOp {
  const char* name;
  const char* summary;
};

constexpr UnaryOp kUnaryOps[] = {
    {"nn.relu", "max(x, 0)"},
    {"sigmoid", "1 / (1 + exp(-x))"},
    {"tanh", "hyperbolic tangent"},
    {"erf", "Gauss error function"},
    {"exp", "e to the power x"},
    {"log", "natural logarithm"},
    {"sqrt", "square root"},
    {"rsqrt", "1 / sqrt(x)"},
    {"abs", "absolute value"},
    {"negative", "-x"},
    {"round", "round to nearest, ties away from zero"},
    {"floor", "round down"},
    {"ceil", "round up"},
    {"copy", "a copy of x"},
    {"zeros_like", "zeros with the shape and dtype of x"},
    {"ones_like", "ones with the shape and dtype of x"},
    {"nn.gelu", "x / 2 · (1 + erf(x / √2)), Relax's nn.gelu"},
};

Result<Type> logicalNotRelation(const TypeRelationInput& input) {
  BYOC_ASSIGN_OR_RETURN(const TensorTypeNode* x, tensorArg("logical_not", input, 0));
  if (x->dtype != DType::Bool) return makeError("logical_not: expected a bool tensor, found " + std::string(dtypeName(x->dtype)));
  return tensorType(x->shape, DType::Bool);
}

Result<Type> castRelation(const TypeRelationInput& input) {
  BYOC_ASSIGN_OR_RETURN(const TensorTypeNode* x, tensorArg("cast", input, 0));
  std::string name = stringAttr(input.attrs, "dtype");
  auto dtype = parseDType(name);
  if (!dtype) return makeError("cast: unknown dtype \"" + name + "\"");
  return tensorType(x->shape, *dtype);
}

}  // namespace

void registerElementwiseOps(OpRegistry& registry) {
  for (const UnaryOp& op : kUnaryOps)
    declare(registry, op.name, op.summary, {"data"}, {}, FusionKind::Elementwise, sameAsFirstArg(op.name));
  // TVM's LeakyReluAttrs default alpha to 0.25, so the text always states ours.
  declare(registry, "nn.leaky_relu", "x if x > 0 else alpha * x", {"data"}, {tvmRequired("alpha", 0.01)},
          FusionKind::Elementwise, sameAsFirstArg("nn.leaky_relu"));
  declare(registry, "clip", "min(max(x, a_min), a_max)", {"data"}, {tvmRequired("a_min", 0.0), tvmRequired("a_max", 0.0)},
          FusionKind::Elementwise, sameAsFirstArg("clip"));
  declare(registry, "logical_not", "not x, elementwise", {"data"}, {}, FusionKind::Elementwise, logicalNotRelation);
  declare(registry, "cast", "converts x to another dtype", {"data"}, {tvmRequired("dtype", "")}, FusionKind::Elementwise,
          castRelation);
}

}  // namespace byoc::ops
