/// \file
/// Composite calls: the anchor found in the composite's body, lowered with the bias, residual
/// and post-ops the composite's name asks for (the order of TVM's DNNL runtime); composites
/// without an anchor (gelu, layer norm, scale and shift) as their own primitives.

#include <algorithm>
#include <optional>

#include "ir/op.h"
#include "ir/traversal.h"
#include "runtime/dnnl/anchor_ops.h"
#include "runtime/dnnl/lowering_helpers.h"
#include "runtime/dnnl/ops.h"

namespace byoc::dnnl_backend {

using dnnl::algorithm;

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

/// The float value of the scalar constant that `add`s onto something in `body` (layer norm's epsilon).
std::optional<float> addedConstant(const Expr& body) {
  std::optional<float> found;
  postOrderVisit(body, [&](const Expr& node) {
    const auto* call = node->as<CallNode>();
    if (found || !call || !call->opDef() || call->opDef()->name != "add") return;
    const auto* constant = call->args[1]->as<ConstantNode>();
    if (constant && constant->data.dtype() == DType::Float32 && constant->data.numElements() == 1)
      found = *reinterpret_cast<const float*>(constant->data.bytes().data());
  });
  return found;
}

/// Composites without an anchor: `dnnl.gelu` (one eltwise primitive) and `dnnl.layer_norm`
/// (normalization over the last axis without scale and shift, epsilon from the body).
std::optional<Result<std::vector<Tensor>>> lowerNormalizing(Lowering& lowering, const std::string& name,
                                                            const FunctionNode& composite, const std::vector<Tensor>& inputs) {
  if (name != "dnnl.gelu" && name != "dnnl.layer_norm") return std::nullopt;
  if (inputs.size() != 1) return Result<std::vector<Tensor>>(makeError("composite \"" + name + "\" takes one input"));
  const std::optional<float> epsilon = addedConstant(composite.body);
  if (name == "dnnl.layer_norm" && !epsilon)
    return Result<std::vector<Tensor>>(makeError("composite \"dnnl.layer_norm\" has no epsilon constant"));
  return guarded(name, [&]() -> Result<std::vector<Tensor>> {
    if (name == "dnnl.gelu") return lowerEltwise(lowering, algorithm::eltwise_gelu_erf, inputs[0]);
    Tensor src = lowering.plain(inputs[0]);
    dnnl::layer_normalization_forward::desc desc(dnnl::prop_kind::forward_inference, src.desc(), *epsilon,
                                                 dnnl::normalization_flags::none);
    dnnl::layer_normalization_forward::primitive_desc pd(desc, lowering.engine);
    Tensor dst = lowering.fresh(pd.dst_desc());
    lowering.add(dnnl::layer_normalization_forward(pd),
                 {{DNNL_ARG_SRC, src.memory}, {DNNL_ARG_MEAN, lowering.fresh(pd.mean_desc()).memory},
                  {DNNL_ARG_VARIANCE, lowering.fresh(pd.variance_desc()).memory}, {DNNL_ARG_DST, dst.memory}});
    return std::vector<Tensor>{dst};
  });
}

/// `dnnl.scale_shift` and `dnnl.scale_shift_relu` (an inference batch norm after
/// SimplifyInference): `add(multiply(x, scale), shift)` [→ `nn.relu`] as one binary multiply
/// primitive with a binary add and an optional relu post-op; scale and shift broadcast onto x.
std::optional<Result<std::vector<Tensor>>> lowerScaleShift(Lowering& lowering, const std::string& name,
                                                           const FunctionNode& composite, const std::vector<Tensor>& inputs) {
  if (name != "dnnl.scale_shift" && name != "dnnl.scale_shift_relu") return std::nullopt;
  const CallNode* multiply = callOf(composite.body, "multiply");
  const CallNode* shiftAdd = multiply ? callOf(composite.body, "add", multiply) : nullptr;
  const int data = multiply ? parameterIndex(composite, multiply->args[0]) : -1;
  const int scale = multiply ? parameterIndex(composite, multiply->args[1]) : -1;
  const int shift = shiftAdd ? parameterIndex(composite, shiftAdd->args[1]) : -1;
  if (data < 0 || scale < 0 || shift < 0 || inputs.size() != composite.params.size())
    return Result<std::vector<Tensor>>(
        makeError("composite \"" + name + "\": its data, scale and shift must be parameters of the composite"));
  const Shape& out = shiftAdd->type()->as<TensorTypeNode>()->shape;
  if (shapeOf(multiply->args[0]) != out)
    return Result<std::vector<Tensor>>(makeError("composite \"" + name + "\": the data must have the result's shape"));
  // A broadcast operand as plain memory of the result's rank (leading 1s added).
  const auto broadcast = [&](int index) {
    Shape dims = shapeOf(composite.params[static_cast<std::size_t>(index)]);
    dims.insert(dims.begin(), out.size() - std::min(out.size(), dims.size()), 1);
    return lowering.view(lowering.plain(inputs[static_cast<std::size_t>(index)]), plainDesc(dimsOf(dims)));
  };
  return guarded(name, [&]() -> Result<std::vector<Tensor>> {
    const Tensor& src = inputs[static_cast<std::size_t>(data)];
    const Tensor scaleTensor = broadcast(scale);
    const Tensor shiftTensor = broadcast(shift);
    dnnl::post_ops postOps;
    postOps.append_binary(algorithm::binary_add, shiftTensor.desc());
    if (name == "dnnl.scale_shift_relu") postOps.append_eltwise(1.0f, algorithm::eltwise_relu, 0, 0);
    dnnl::primitive_attr attr;
    attr.set_post_ops(postOps);
    dnnl::binary::desc desc(algorithm::binary_mul, src.desc(), scaleTensor.desc(), src.desc());
    dnnl::binary::primitive_desc pd(desc, attr, lowering.engine);
    Tensor dst = lowering.fresh(pd.dst_desc());
    lowering.add(dnnl::binary(pd), {{DNNL_ARG_SRC_0, src.memory},
                                    {DNNL_ARG_SRC_1, scaleTensor.memory},
                                    {DNNL_ARG_ATTR_MULTIPLE_POST_OP(0) | DNNL_ARG_SRC_1, shiftTensor.memory},
                                    {DNNL_ARG_DST, dst.memory}});
    return std::vector<Tensor>{dst};
  });
}

}  // namespace

Result<std::vector<Tensor>> lowerCompositeCall(Lowering& lowering, const CallNode& call, const FunctionNode& composite,
                                               const std::vector<Tensor>& inputs,
                                               const std::function<bool(const Expr&)>& lastRead) {
  const std::string name = composite.attrs.find("Composite")->asString();
  if (auto lowered = lowerNormalizing(lowering, name, composite, inputs)) return *std::move(lowered);
  if (auto lowered = lowerScaleShift(lowering, name, composite, inputs)) return *std::move(lowered);
  const CallNode* anchor = nullptr;
  const CallNode* clip = nullptr;
  postOrderVisit(composite.body, [&](const Expr& node) {
    const auto* inner = node->as<CallNode>();
    const OpDef* def = inner ? inner->opDef() : nullptr;
    if (!def) return;
    if (!anchor && (def->name == "nn.conv2d" || def->name == "nn.conv2d_transpose" || def->name == "nn.dense")) anchor = inner;
    if (def->name == "clip") clip = inner;
  });
  const bool deconv = name.find("deconv2d") != std::string::npos;
  const bool conv = !deconv && name.find("conv2d") != std::string::npos;
  const bool dense = name.find("dense") != std::string::npos;
  const char* anchorOp = deconv ? "nn.conv2d_transpose" : conv ? "nn.conv2d" : dense ? "nn.dense" : nullptr;
  if (!anchorOp || !anchor || anchor->opDef()->name != anchorOp)
    return makeError("unsupported composite \"" + name + "\"");
  const auto has = [&](const char* part) { return name.find(part) != std::string::npos; };
  // Each role's input: the composite parameter the body reads there.
  const CallNode* biasAdd = has("_bias") ? callOf(composite.body, "add", anchor) : nullptr;
  const CallNode* sumAdd = has("_sum") ? callOf(composite.body, "add", biasAdd ? biasAdd : anchor) : nullptr;
  const int data = parameterIndex(composite, anchor->args[0]);
  const int weight = parameterIndex(composite, anchor->args[1]);
  const int bias = biasAdd ? parameterIndex(composite, biasAdd->args[1]) : -1;
  const int residual = sumAdd ? parameterIndex(composite, sumAdd->args[1]) : -1;
  if (data < 0 || weight < 0 || (has("_bias") && bias < 0) || (has("_sum") && residual < 0) ||
      call.args.size() != inputs.size() || inputs.size() != composite.params.size())
    return makeError("composite \"" + name + "\": its data, weight" + (has("_bias") ? ", bias" : "") +
                     (has("_sum") ? " and residual" : "") + " must be parameters of the composite");
  Fusion fusion;
  const std::vector<Tensor> anchorInputs{inputs[static_cast<std::size_t>(data)], inputs[static_cast<std::size_t>(weight)]};
  if (bias >= 0) fusion.bias = &inputs[static_cast<std::size_t>(bias)];
  if (residual >= 0) {
    fusion.sum = &inputs[static_cast<std::size_t>(residual)];
    // In place only when the residual is no other input of this call and nothing reads it later.
    fusion.sumInPlace = residual != data && residual != weight && residual != bias &&
                        lastRead(call.args[static_cast<std::size_t>(residual)]);
    fusion.postOps.append_sum(1.0f);
  }
  if (has("_relu")) fusion.postOps.append_eltwise(1.0f, algorithm::eltwise_relu, 0, 0);
  if (has("_tanh")) fusion.postOps.append_eltwise(1.0f, algorithm::eltwise_tanh, 0, 0);
  if (has("_clip")) {
    if (!clip) return makeError("composite \"" + name + "\" has no clip call");
    fusion.postOps.append_eltwise(1.0f, algorithm::eltwise_clip, static_cast<float>(clip->attrs.find("a_min")->asFloat()),
                                  static_cast<float>(clip->attrs.find("a_max")->asFloat()));
  }
  if (has("_sigmoid")) fusion.postOps.append_eltwise(1.0f, algorithm::eltwise_logistic, 0, 0);
  if (has("_swish")) fusion.postOps.append_eltwise(1.0f, algorithm::eltwise_swish, 1.0f, 0);
  if (has("_gelu")) fusion.postOps.append_eltwise(1.0f, algorithm::eltwise_gelu_erf, 0, 0);
  if (has("_mish")) fusion.postOps.append_eltwise(1.0f, algorithm::eltwise_mish, 0, 0);
  return guarded(name, [&]() -> Result<std::vector<Tensor>> {
    if (dense) return lowerDense(lowering, *anchor, anchorInputs, fusion);
    return lowerConvolution(lowering, *anchor, deconv, anchorInputs, fusion);
  });
}

}  // namespace byoc::dnnl_backend
