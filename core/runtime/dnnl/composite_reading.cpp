#include "runtime/dnnl/composite_reading.h"

#include <optional>
#include <utility>

#include "ir/op.h"
#include "ir/traversal.h"

namespace byoc::dnnl_backend {

namespace {

/// The position of `value` among `composite`'s parameters, or -1 when it is not one.
int parameterIndex(const FunctionNode& composite, const Expr& value) {
  for (std::size_t i = 0; i < composite.params.size(); ++i)
    if (Expr(composite.params[i]) == value) return static_cast<int>(i);
  return -1;
}

/// The first call of `op` in `body` (post order) whose first argument is `producer` when one is
/// given, or null.
const CallNode* callOf(const Expr& body, const char* op, const CallNode* producer = nullptr) {
  const CallNode* found = nullptr;
  postOrderVisit(body, [&](const Expr& node) {
    const auto* call = node->as<CallNode>();
    if (!found && call && call->opDef() && call->opDef()->name == op && (!producer || call->args[0].get() == producer))
      found = call;
  });
  return found;
}

/// The `add` in `body` (post order) one of whose arguments is `producer`, and its other argument:
/// TVM's patterns match add either way round, so a bias or residual may come first.
std::pair<const CallNode*, Expr> addOnto(const Expr& body, const CallNode* producer) {
  std::pair<const CallNode*, Expr> found{nullptr, Expr()};
  postOrderVisit(body, [&](const Expr& node) {
    const auto* call = node->as<CallNode>();
    if (found.first || !call || !call->opDef() || call->opDef()->name != "add" || call->args.size() != 2) return;
    for (std::size_t i = 0; i < 2; ++i)
      if (call->args[i].get() == producer) found = {call, call->args[1 - i]};
  });
  return found;
}

/// The bias `producer` gets in `body`: an `add` onto it (either way round, as addOnto finds it),
/// or an `nn.bias_add` onto it along axis 1, the output channels of a convolution (NC…) or a
/// dense layer, as a pattern written with the bias op has it.
std::pair<const CallNode*, Expr> biasOnto(const Expr& body, const CallNode* producer) {
  if (auto added = addOnto(body, producer); added.first) return added;
  std::pair<const CallNode*, Expr> found{nullptr, Expr()};
  const auto* type = producer->type() ? producer->type()->as<TensorTypeNode>() : nullptr;
  postOrderVisit(body, [&](const Expr& node) {
    const auto* call = node->as<CallNode>();
    if (found.first || !type || !call || !call->opDef() || call->opDef()->name != "nn.bias_add" || call->args.size() != 2 ||
        call->args[0].get() != producer)
      return;
    const AttrValue* axisAttr = call->attrs.find("axis");
    const int64_t rank = static_cast<int64_t>(type->shape.size());
    const int64_t axis = axisAttr && axisAttr->isInt() ? axisAttr->asInt() : 1;
    if ((axis < 0 ? axis + rank : axis) == 1) found = {call, call->args[1]};
  });
  return found;
}

/// The constant `value` is: itself, or the argument of the parameter it is.
const ConstantNode* constantOf(const FunctionNode& composite, const std::vector<Expr>& args, const Expr& value) {
  const int param = parameterIndex(composite, value);
  return (param >= 0 ? args[static_cast<std::size_t>(param)] : value)->as<ConstantNode>();
}

/// The parameters whose arguments are not constants.
std::vector<int> tensorParameters(const std::vector<Expr>& args) {
  std::vector<int> params;
  for (std::size_t i = 0; i < args.size(); ++i)
    if (args[i]->kind() != ExprKind::Constant) params.push_back(static_cast<int>(i));
  return params;
}

/// The float value of the scalar constant that `add`s onto something in the body (layer norm's epsilon).
std::optional<double> addedConstant(const FunctionNode& composite, const std::vector<Expr>& args) {
  std::optional<double> found;
  postOrderVisit(composite.body, [&](const Expr& node) {
    const auto* call = node->as<CallNode>();
    if (found || !call || !call->opDef() || call->opDef()->name != "add") return;
    const ConstantNode* constant = constantOf(composite, args, call->args[1]);
    if (constant && constant->data.dtype() == DType::Float32 && constant->data.numElements() == 1)
      found = *reinterpret_cast<const float*>(constant->data.bytes().data());
  });
  return found;
}

Result<CompositeReading> readScaleShift(const CompositeKind& kind, const FunctionNode& composite) {
  const CallNode* multiply = callOf(composite.body, "multiply");
  const CallNode* shiftAdd = multiply ? callOf(composite.body, "add", multiply) : nullptr;
  const int data = multiply ? parameterIndex(composite, multiply->args[0]) : -1;
  const int scale = multiply ? parameterIndex(composite, multiply->args[1]) : -1;
  const int shift = shiftAdd ? parameterIndex(composite, shiftAdd->args[1]) : -1;
  if (data < 0 || scale < 0 || shift < 0)
    return makeError("composite \"" + kind.name + "\": its data, scale and shift must be parameters of the composite");
  return CompositeReading{{data, scale, shift}, {}, {}};
}

Result<CompositeReading> readAnchored(const CompositeKind& kind, const FunctionNode& composite) {
  const CallNode* anchor = nullptr;
  const CallNode* clip = nullptr;
  postOrderVisit(composite.body, [&](const Expr& node) {
    const auto* inner = node->as<CallNode>();
    const OpDef* def = inner ? inner->opDef() : nullptr;
    if (!def) return;
    if (!anchor && def->name == kind.anchorOp) anchor = inner;
    if (def->name == "clip") clip = inner;
  });
  if (!anchor || anchor->opDef()->name != kind.anchorOp) return makeError("unsupported composite \"" + kind.name + "\"");
  const auto [biasAdd, bias] = kind.bias ? biasOnto(composite.body, anchor) : std::pair<const CallNode*, Expr>();
  const auto [sumAdd, residual] =
      kind.sum ? addOnto(composite.body, biasAdd ? biasAdd : anchor) : std::pair<const CallNode*, Expr>();
  CompositeReading reading{{parameterIndex(composite, anchor->args[0]), parameterIndex(composite, anchor->args[1])}, anchor->attrs, {}};
  if (kind.bias) reading.params.push_back(biasAdd ? parameterIndex(composite, bias) : -1);
  if (kind.sum) reading.params.push_back(sumAdd ? parameterIndex(composite, residual) : -1);
  for (int param : reading.params)
    if (param < 0)
      return makeError("composite \"" + kind.name + "\": its data, weight" + (kind.bias ? ", bias" : "") +
                       (kind.sum ? " and residual" : "") + " must be parameters of the composite");
  if (kind.has("_clip")) {
    if (!clip) return makeError("composite \"" + kind.name + "\" has no clip call");
    reading.attrs.set("a_min", *clip->attrs.find("a_min"));
    reading.attrs.set("a_max", *clip->attrs.find("a_max"));
  }
  return reading;
}

/// The one value of a scalar float32 constant.
std::optional<double> scalarOf(const ConstantNode* constant) {
  if (!constant || constant->data.dtype() != DType::Float32 || constant->data.numElements() != 1) return std::nullopt;
  return constant->data.elementAsDouble(0);
}

/// `dnnl.qnn.conv2d` / `dnnl.qnn.dense` in the form LegalizeQnnForDnnl writes: the product's data
/// is the one parameter; weight, bias and output scale are constants of the body.
Result<CompositeReading> readQnn(const CompositeKind& kind, const FunctionNode& composite, const std::vector<Expr>& args) {
  const std::string quoted = "composite \"" + kind.name + "\"";
  const CallNode* product = callOf(composite.body, kind.anchorOp.c_str());
  const CallNode* toFloat = product ? callOf(composite.body, "cast", product) : nullptr;
  if (!toFloat) return makeError(quoted + " has no " + kind.anchorOp + " cast to float32");
  const CallNode* biasAdd = callOf(composite.body, "add", toFloat);
  const CallNode* scaled = callOf(composite.body, "multiply", biasAdd ? biasAdd : toFloat);
  const CallNode* clip = scaled ? callOf(composite.body, "clip", scaled) : nullptr;
  if (!clip) return makeError(quoted + " has no output scale and clip");
  // LegalizeQnnForDnnl rounds the clipped value before what follows it (the output zero point, or
  // the scale for a sum); the `_sum` forms must.
  const CallNode* rounded = callOf(composite.body, "round", clip);
  const CallNode* activation = callOf(composite.body, "multiply", rounded ? rounded : clip);
  const CallNode* last = activation ? activation : rounded ? rounded : clip;
  const CallNode* shift = callOf(composite.body, "add", last);
  // The `_sum` forms add multiply(sum_scale, cast(residual)) before the zero point.
  const CallNode* sum = shift && !constantOf(composite, args, shift->args[1]) ? shift : nullptr;
  const auto* sumScaled = sum ? sum->args[1]->as<CallNode>() : nullptr;
  const auto* residualCast = sumScaled && sumScaled->args.size() == 2 ? sumScaled->args[1]->as<CallNode>() : nullptr;
  const int residual = residualCast ? parameterIndex(composite, residualCast->args[0]) : -1;
  if (kind.sum != (sum != nullptr) || (sum && residual < 0))
    return makeError(quoted + (kind.sum ? ": expected a residual sum add(·, multiply(scale, cast(residual)))"
                                        : ": a residual sum is not supported"));
  if (sum && !rounded) return makeError(quoted + ": expected round(clip(·)) before the residual sum");
  if (sum) shift = callOf(composite.body, "add", sum);
  const ConstantNode* weight = constantOf(composite, args, product->args[1]);
  const ConstantNode* scale = constantOf(composite, args, scaled->args[1]);
  const ConstantNode* bias = biasAdd ? constantOf(composite, args, biasAdd->args[1]) : nullptr;
  const int data = parameterIndex(composite, product->args[0]);
  if (data < 0 || !weight || !scale || (biasAdd && !bias))
    return makeError(quoted + ": its data must be a parameter and its weight, bias and scale constants");
  CompositeReading reading{{data}, product->attrs, {}};
  const int64_t channels = weight->data.shape()[0];
  reading.constants = {weight->data,
                       bias ? bias->data : TensorData::zeros(DType::Float32, {channels}), scale->data};
  reading.attrs.set("a_min", *clip->attrs.find("a_min"));
  reading.attrs.set("a_max", *clip->attrs.find("a_max"));
  const std::optional<double> activationScale = activation ? scalarOf(constantOf(composite, args, activation->args[1])) : 1.0;
  const std::optional<double> zeroPoint = shift ? scalarOf(constantOf(composite, args, shift->args[1])) : 0.0;
  if (!activationScale || !zeroPoint)
    return makeError(quoted + ": its activation scale and output zero point must be float32 scalars");
  if (rounded && (activation || shift || sum)) reading.attrs.set("round_clipped", true);
  reading.attrs.set("activation_scale", *activationScale);
  reading.attrs.set("output_zero_point", *zeroPoint);
  if (sum) {
    const std::optional<double> sumScale = scalarOf(constantOf(composite, args, sumScaled->args[0]));
    if (!sumScale) return makeError(quoted + ": its sum scale must be a float32 scalar");
    reading.attrs.set("sum_scale", *sumScale);
    reading.trailing = residual;
  }
  return reading;
}

}  // namespace

Result<CompositeReading> readComposite(const std::string& name, const FunctionNode& composite, const std::vector<Expr>& args) {
  const std::optional<CompositeKind> kind = compositeKind(name);
  if (!kind) return makeError("unsupported composite \"" + name + "\"");
  switch (kind->family) {
    case CompositeFamily::Gelu:
    case CompositeFamily::LayerNorm: {
      const std::vector<int> inputs = tensorParameters(args);
      if (inputs.size() != 1) return makeError("composite \"" + name + "\" takes one input");
      CompositeReading reading{inputs, {}, {}};
      if (kind->family == CompositeFamily::Gelu) return reading;
      const std::optional<double> epsilon = addedConstant(composite, args);
      if (!epsilon) return makeError("composite \"dnnl.layer_norm\" has no epsilon constant");
      reading.attrs.set("epsilon", *epsilon);
      return reading;
    }
    case CompositeFamily::ScaleShift: return readScaleShift(*kind, composite);
    case CompositeFamily::Anchor: return readAnchored(*kind, composite);
    case CompositeFamily::Qnn: return readQnn(*kind, composite, args);
  }
  return makeError("unsupported composite \"" + name + "\"");
}

}  // namespace byoc::dnnl_backend
