/// \file
/// Converters of the elementwise and broadcasting ONNX ops: activations, arithmetic, comparisons,
/// Clip, Where, Cast, Gelu, and the pass-through ops of inference (Identity, Dropout).

#include <cmath>
#include <limits>
#include <numbers>

#include "frontend/onnx/onnx_converters.h"
#include "frontend/onnx/onnx_tensor.h"

namespace byoc::onnx_import {

namespace {

OnnxConverter unary(std::string op) {
  return [op](const OnnxNodeContext& c) -> Result<OnnxOutputs> {
    BYOC_ASSIGN_OR_RETURN(OnnxValue x, c.input(0));
    return single(c.call(op, {x}));
  };
}

/// A binary op; a right operand of another dtype (Pow's integer exponent) is cast to the left's.
Result<OnnxValue> binary(const OnnxNodeContext& c, const std::string& op, OnnxValue lhs, OnnxValue rhs) {
  if (lhs.tensor() && rhs.tensor() && lhs.tensor()->dtype != rhs.tensor()->dtype) {
    BYOC_ASSIGN_OR_RETURN(rhs, c.call("cast", {rhs}, {{"dtype", std::string(dtypeName(lhs.tensor()->dtype))}}));
  }
  return c.call(op, {std::move(lhs), std::move(rhs)});
}

OnnxConverter binaryOp(std::string op) {
  return [op](const OnnxNodeContext& c) -> Result<OnnxOutputs> {
    BYOC_ASSIGN_OR_RETURN(OnnxValue lhs, c.input(0));
    BYOC_ASSIGN_OR_RETURN(OnnxValue rhs, c.input(1));
    return single(binary(c, op, lhs, rhs));
  };
}

/// Max, Min, Sum: variadic, folded left to right.
OnnxConverter variadicOp(std::string op) {
  return [op](const OnnxNodeContext& c) -> Result<OnnxOutputs> {
    BYOC_ASSIGN_OR_RETURN(OnnxValue result, c.input(0));
    for (std::size_t i = 1; i < c.inputCount(); ++i) {
      BYOC_ASSIGN_OR_RETURN(OnnxValue next, c.input(i));
      BYOC_ASSIGN_OR_RETURN(result, binary(c, op, result, next));
    }
    return OnnxOutputs{result};
  };
}

/// Identity, and Dropout at inference (its optional mask output is not supported).
Result<OnnxOutputs> passThrough(const OnnxNodeContext& c) {
  if (c.node.output_size() > 1 && !c.node.output(1).empty())
    return makeError("the mask output of Dropout is not supported (inference only)");
  BYOC_ASSIGN_OR_RETURN(OnnxValue x, c.input(0));
  return OnnxOutputs{x};
}

/// Clip: the bounds are optional constant inputs (opset 11 on).
Result<OnnxOutputs> clip(const OnnxNodeContext& c) {
  BYOC_ASSIGN_OR_RETURN(OnnxValue x, c.input(0));
  double bounds[2] = {-std::numeric_limits<float>::max(), std::numeric_limits<float>::max()};
  for (std::size_t i = 1; i <= 2; ++i) {
    if (!c.hasInput(i)) continue;
    BYOC_ASSIGN_OR_RETURN(std::vector<double> bound, c.constantFloats(i));
    if (bound.size() != 1) return makeError("Clip bounds must be scalars");
    bounds[i - 1] = bound[0];
  }
  return single(c.call("clip", {x}, {{"a_min", bounds[0]}, {"a_max", bounds[1]}}));
}

Result<OnnxOutputs> leakyRelu(const OnnxNodeContext& c) {
  BYOC_ASSIGN_OR_RETURN(OnnxValue x, c.input(0));
  BYOC_ASSIGN_OR_RETURN(double alpha, c.attrs.getFloat("alpha", 0.01f));
  return single(c.call("nn.leaky_relu", {x}, {{"alpha", alpha}}));
}

/// max(0, min(1, alpha * x + beta)).
Result<OnnxValue> hardSigmoid(const OnnxNodeContext& c, const OnnxValue& x, double alpha, double beta) {
  DType dtype = x.tensor() ? x.tensor()->dtype : DType::Float32;
  BYOC_ASSIGN_OR_RETURN(OnnxValue scaled, c.call("multiply", {x, c.scalar(dtype, alpha)}));
  BYOC_ASSIGN_OR_RETURN(OnnxValue shifted, c.call("add", {scaled, c.scalar(dtype, beta)}));
  return c.call("clip", {shifted}, {{"a_min", 0.0}, {"a_max", 1.0}});
}

Result<OnnxOutputs> hardSigmoidOp(const OnnxNodeContext& c) {
  BYOC_ASSIGN_OR_RETURN(OnnxValue x, c.input(0));
  BYOC_ASSIGN_OR_RETURN(double alpha, c.attrs.getFloat("alpha", 0.2f));
  BYOC_ASSIGN_OR_RETURN(double beta, c.attrs.getFloat("beta", 0.5f));
  return single(hardSigmoid(c, x, alpha, beta));
}

/// x * HardSigmoid(x) with alpha 1/6 and beta 1/2.
Result<OnnxOutputs> hardSwish(const OnnxNodeContext& c) {
  BYOC_ASSIGN_OR_RETURN(OnnxValue x, c.input(0));
  BYOC_ASSIGN_OR_RETURN(OnnxValue gate, hardSigmoid(c, x, 1.0 / 6.0, 0.5));
  return single(c.call("multiply", {x, gate}));
}

Result<OnnxOutputs> reciprocal(const OnnxNodeContext& c) {
  BYOC_ASSIGN_OR_RETURN(OnnxValue x, c.input(0));
  DType dtype = x.tensor() ? x.tensor()->dtype : DType::Float32;
  return single(c.call("divide", {c.scalar(dtype, 1.0), x}));
}

Result<OnnxOutputs> where(const OnnxNodeContext& c) {
  BYOC_ASSIGN_OR_RETURN(OnnxValue condition, c.input(0));
  BYOC_ASSIGN_OR_RETURN(OnnxValue x, c.input(1));
  BYOC_ASSIGN_OR_RETURN(OnnxValue y, c.input(2));
  return single(c.call("where", {condition, x, y}));
}

Result<OnnxOutputs> cast(const OnnxNodeContext& c) {
  BYOC_ASSIGN_OR_RETURN(OnnxValue x, c.input(0));
  BYOC_ASSIGN_OR_RETURN(int64_t to, c.attrs.getInt("to"));
  BYOC_ASSIGN_OR_RETURN(DType dtype, dtypeFromOnnx(static_cast<int32_t>(to)));
  return single(c.call("cast", {x}, {{"dtype", std::string(dtypeName(dtype))}}));
}

/// Gelu (opset 20) spelled out as TVM's importer writes it: 0.5x · (1 + erf(x / √2)), or with
/// approximate="tanh" its FastGelu form 0.5x · (1 + tanh(√(2/π) x + 0.044715 √(2/π) x³)).
Result<OnnxOutputs> gelu(const OnnxNodeContext& c) {
  BYOC_ASSIGN_OR_RETURN(OnnxValue x, c.input(0));
  BYOC_ASSIGN_OR_RETURN(std::string approximate, c.attrs.getString("approximate", "none"));
  const bool exact = approximate == "none";
  if (!exact && approximate != "tanh") return makeError("approximate \"" + approximate + "\"; expected none or tanh");
  if (!x.tensor() || !isFloat(x.tensor()->dtype)) return makeError("Gelu takes a floating-point tensor");
  const DType dtype = x.tensor()->dtype;
  BYOC_ASSIGN_OR_RETURN(OnnxValue half, c.call("multiply", {c.scalar(dtype, 0.5), x}));
  OnnxValue curve;
  if (exact) {
    BYOC_ASSIGN_OR_RETURN(OnnxValue scaled, c.call("divide", {x, c.scalar(dtype, std::sqrt(2.0))}));
    BYOC_ASSIGN_OR_RETURN(curve, c.call("erf", {scaled}));
  } else {
    const double root = std::sqrt(2.0 / std::numbers::pi);
    BYOC_ASSIGN_OR_RETURN(OnnxValue linear, c.call("multiply", {c.scalar(dtype, root), x}));
    BYOC_ASSIGN_OR_RETURN(OnnxValue cube, c.call("power", {x, c.scalar(dtype, 3.0)}));
    BYOC_ASSIGN_OR_RETURN(OnnxValue cubic, c.call("multiply", {c.scalar(dtype, 0.044715 * root), cube}));
    BYOC_ASSIGN_OR_RETURN(OnnxValue inner, c.call("add", {linear, cubic}));
    BYOC_ASSIGN_OR_RETURN(curve, c.call("tanh", {inner}));
  }
  BYOC_ASSIGN_OR_RETURN(OnnxValue onePlus, c.call("add", {c.scalar(dtype, 1.0), curve}));
  return single(c.call("multiply", {half, onePlus}));
}

}  // namespace

void addElementwiseConverters(OnnxConverterTable& table) {
  const std::pair<const char*, const char*> unaryOps[] = {
      {"Relu", "nn.relu"}, {"Sigmoid", "sigmoid"}, {"Tanh", "tanh"},   {"Erf", "erf"},     {"Sqrt", "sqrt"},
      {"Exp", "exp"},      {"Log", "log"},         {"Abs", "abs"},     {"Neg", "negative"}, {"Floor", "floor"},
      {"Ceil", "ceil"},    {"Not", "logical_not"},
  };
  for (const auto& [onnxName, op] : unaryOps) table[onnxName] = unary(op);
  const std::pair<const char*, const char*> binaryOps[] = {
      {"Add", "add"},         {"Sub", "subtract"},           {"Mul", "multiply"},         {"Div", "divide"},
      {"Pow", "power"},       {"Equal", "equal"},            {"Less", "less"},            {"Greater", "greater"},
      {"And", "logical_and"}, {"Or", "logical_or"},          {"LessOrEqual", "less_equal"},
      {"GreaterOrEqual", "greater_equal"},
  };
  for (const auto& [onnxName, op] : binaryOps) table[onnxName] = binaryOp(op);
  table["Max"] = variadicOp("maximum");
  table["Min"] = variadicOp("minimum");
  table["Sum"] = variadicOp("add");
  table["Identity"] = passThrough;
  table["Dropout"] = passThrough;
  table["Clip"] = clip;
  table["LeakyRelu"] = leakyRelu;
  table["HardSigmoid"] = hardSigmoidOp;
  table["HardSwish"] = hardSwish;
  table["Reciprocal"] = reciprocal;
  table["Where"] = where;
  table["Cast"] = cast;
  table["Gelu"] = gelu;
}

}  // namespace byoc::onnx_import
