/// \file
/// LegalizeQnnForDnnl (contract in the header).

#include "pass/transforms/legalize_qnn_for_dnnl.h"

#include <algorithm>
#include <cmath>
#include <span>

#include "ir/op.h"
#include "ir/ops/attr_views.h"
#include "ir/ops/op_helpers.h"
#include "pass/analysis/function_utils.h"

namespace byoc {

namespace legalize_qnn {

namespace {

const CallNode* opCall(const Expr& expr, std::string_view op) {
  const auto* call = expr->as<CallNode>();
  return call && call->opDef() && call->opDef()->name == op ? call : nullptr;
}

const TensorData* constantData(const Expr& expr) {
  const auto* constant = expr->as<ConstantNode>();
  return constant ? &constant->data : nullptr;
}

std::vector<double> valuesOf(const TensorData& data) {
  std::vector<double> values(static_cast<std::size_t>(data.numElements()));
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = data.elementAsDouble(static_cast<int64_t>(i));
  return values;
}

/// Per-channel value `c` of a parameter holding one value or one per channel.
double at(const std::vector<double>& values, int64_t c) { return values[values.size() == 1 ? 0 : static_cast<std::size_t>(c)]; }

/// A qnn.add of the chain's requantized result and another tensor (TVM's residual sum).
struct Sum {
  const CallNode* add = nullptr;
  std::size_t chainSide = 0;  ///< which operand of the add is the chain's result
};

/// The matched chain below one requantize.
struct Chain {
  const CallNode* product = nullptr;  ///< qnn.conv2d or qnn.dense
  const TensorData* bias = nullptr;   ///< the int32 bias, if any
  bool relu = false;
  bool padInput = false;  ///< a padded convolution of an input with a zero point other than 0
  std::optional<TensorData> weight;  ///< the product's constant weight
  const CallNode* reshape = nullptr;  ///< a reshape of the product's result before the requantize
  const CallNode* requantize = nullptr;
  Sum sum;
  std::vector<const ExprNode*> nodes;  ///< everything replaced, for origins
};

/// A dense weight written transpose(constant [k, units], axes=[1, 0]) (how a QDQ MatMul's weight
/// arrives) as the constant [units, k] it denotes; any other constant as it is; else nothing.
std::optional<TensorData> constantWeight(const Expr& expr) {
  if (const TensorData* data = constantData(expr)) return *data;
  const CallNode* transpose = opCall(expr, "transpose");
  const TensorData* data = transpose ? constantData(transpose->args[0]) : nullptr;
  if (!data || data->shape().size() != 2) return std::nullopt;
  const Result<std::vector<std::size_t>> perm = ops::readTransposeAxes("transpose", transpose->attrs, 2);
  if (!perm || *perm != std::vector<std::size_t>{1, 0}) return std::nullopt;
  return transposed2d(*data);
}

/// The single value of a scalar constant, or nothing.
std::optional<double> scalarOf(const Expr& expr) {
  const TensorData* data = constantData(expr);
  if (!data || data->numElements() != 1) return std::nullopt;
  return data->elementAsDouble(0);
}

class Legalizer final : public OpaqueFunctionSkippingMutator {
 public:
  explicit Legalizer(const Expr& body) {
    postOrderVisit(body, [this](const Expr& node) {
      for (const Expr& child : childrenOf(*node)) ++uses_[child.get()];
    });
  }

 protected:
  Result<Expr> rewriteCall(const Call& pre, const Call& post) override {
    std::optional<Chain> chain;
    if (const CallNode* add = opCall(pre, "qnn.add")) chain = matchSum(*add);
    if (const CallNode* requantize = opCall(pre, "qnn.requantize")) chain = match(*requantize);
    if (!chain) return Expr(post);
    // A chain that cannot be put in the legal form stays as it is.
    Result<Expr> legal = legalize(*chain);
    return legal ? *legal : Expr(post);
  }

 private:
  bool singleUse(const Expr& expr) const {
    const int* count = uses_.find(expr.get());
    return count && *count == 1;
  }

  /// Whether `bias` adds one value per output channel (or one for all): nn.bias_add on axis 1 (the
  /// channels of NCHW and of a dense result), or an add of a constant shaped to broadcast so.
  static bool alongChannels(const CallNode& add, const TensorData& bias) {
    const Shape& shape = bias.shape();
    if (add.opDef()->name == "nn.bias_add") {
      const Result<int64_t> axis = ops::intAttr("nn.bias_add", add.attrs, "axis");
      return axis && *axis == 1;
    }
    const auto* result = add.type() ? add.type()->as<TensorTypeNode>() : nullptr;
    if (!result || result->shape.size() < 2 || shape.size() > result->shape.size()) return false;
    // Right-aligned against the result, every axis but the channel axis 1 must be 1.
    const std::size_t shift = result->shape.size() - shape.size();
    for (std::size_t i = 0; i < shape.size(); ++i)
      if (i + shift != 1 && shape[i] != 1) return false;
    return true;
  }

  /// qnn.add(chain, other) or qnn.add(other, chain) of a chain's requantize used only there, both
  /// operands of the output dtype with per-tensor parameters: TVM's residual sum.
  std::optional<Chain> matchSum(const CallNode& add) const {
    const auto* outType = add.type() ? add.type()->as<TensorTypeNode>() : nullptr;
    if (!outType || outType->shape.empty()) return std::nullopt;
    for (std::size_t i = 2; i < 8; ++i)
      if (!scalarOf(add.args[i])) return std::nullopt;
    for (std::size_t side : {std::size_t{0}, std::size_t{1}}) {
      const CallNode* requantize = opCall(add.args[side], "qnn.requantize");
      const auto* otherType = add.args[1 - side]->type() ? add.args[1 - side]->type()->as<TensorTypeNode>() : nullptr;
      if (!requantize || !singleUse(add.args[side]) || !otherType || otherType->shape != outType->shape) continue;
      std::optional<Chain> chain = match(*requantize);
      if (!chain || chain->reshape || chain->requantize->type()->as<TensorTypeNode>()->dtype != outType->dtype) continue;
      chain->sum = {&add, side};
      chain->nodes.push_back(&add);
      return chain;
    }
    return std::nullopt;
  }

  std::optional<Chain> match(const CallNode& requantize) const {
    Chain chain;
    chain.requantize = &requantize;
    chain.nodes.push_back(&requantize);
    const auto* outType = requantize.type() ? requantize.type()->as<TensorTypeNode>() : nullptr;
    if (!outType || (outType->dtype != DType::Int8 && outType->dtype != DType::UInt8)) return std::nullopt;
    for (std::size_t i = 1; i < 5; ++i)
      if (!constantData(requantize.args[i])) return std::nullopt;
    Expr value = requantize.args[0];
    if (const CallNode* maximum = opCall(value, "maximum")) {
      const TensorData* zero = constantData(maximum->args[1]);
      if (!zero || !singleUse(value)) return std::nullopt;
      for (double z : valuesOf(*zero))
        if (z != 0) return std::nullopt;
      chain.relu = true;
      chain.nodes.push_back(maximum);
      value = maximum->args[0];
    }
    const CallNode* biasAdd = opCall(value, "add");
    if (!biasAdd) biasAdd = opCall(value, "nn.bias_add");
    if (biasAdd) {
      chain.bias = constantData(biasAdd->args[1]);
      if (!chain.bias || chain.bias->dtype() != DType::Int32 || !singleUse(value) || !alongChannels(*biasAdd, *chain.bias))
        return std::nullopt;
      chain.nodes.push_back(biasAdd);
      value = biasAdd->args[0];
    }
    // A dense of a flattened input reshaped back (a MatMul of rank 3) before a per-tensor requantize.
    const CallNode* reshape = opCall(value, "reshape");
    if (reshape && !chain.relu && !chain.bias && singleUse(value) && constantData(requantize.args[1])->numElements() == 1) {
      chain.reshape = reshape;
      chain.nodes.push_back(reshape);
      value = reshape->args[0];
    }
    chain.product = opCall(value, "qnn.conv2d");
    if (!chain.product || chain.reshape) chain.product = opCall(value, "qnn.dense");
    if (!chain.product || !singleUse(value)) return std::nullopt;
    chain.nodes.push_back(chain.product);
    chain.weight = constantWeight(chain.product->args[1]);
    const TensorData* weight = chain.weight ? &*chain.weight : nullptr;
    const TensorData* inputZp = constantData(chain.product->args[2]);
    const TensorData* kernelZp = constantData(chain.product->args[3]);
    if (!weight || weight->dtype() != DType::Int8 || !inputZp || inputZp->numElements() != 1 || !kernelZp) return std::nullopt;
    for (double zp : valuesOf(*kernelZp))
      if (zp != 0) return std::nullopt;
    if (chain.product->opDef()->name == "qnn.conv2d") {
      const Attrs& attrs = chain.product->attrs;
      const Result<ops::ConvLayouts> layouts = ops::readConvLayouts("qnn.conv2d", attrs);
      if (!layouts || layouts->data != "NCHW" || layouts->kernel != "OIHW") return std::nullopt;
      const Result<std::vector<int64_t>> padding = ops::intsAttr("qnn.conv2d", attrs, "padding");
      const bool padded = !padding || std::any_of(padding->begin(), padding->end(), [](int64_t p) { return p != 0; });
      chain.padInput = padded && inputZp->elementAsDouble(0) != 0;
      if (chain.padInput && (!padding || padding->size() != 4)) return std::nullopt;
    }
    return chain;
  }

  Result<Expr> legalize(const Chain& chain) {
    const bool conv = chain.product->opDef()->name == "qnn.conv2d";
    const TensorData& weight = *chain.weight;
    const int64_t channels = weight.shape()[0];
    const int64_t perChannel = channels ? weight.numElements() / channels : 0;
    // The weights are int8 (the chain requires it): summed from their bytes, millions per model.
    const auto* w = reinterpret_cast<const int8_t*>(weight.bytes().data());
    const double inputZp = constantData(chain.product->args[2])->elementAsDouble(0);
    const std::vector<double> inScale = valuesOf(*constantData(chain.requantize->args[1]));
    const double inZp = valuesOf(*constantData(chain.requantize->args[2]))[0];
    const double outScale = valuesOf(*constantData(chain.requantize->args[3]))[0];
    const double outZp = valuesOf(*constantData(chain.requantize->args[4]))[0];
    const std::vector<double> bias = chain.bias ? valuesOf(*chain.bias) : std::vector<double>{0.0};
    if (inScale.size() != 1 && static_cast<int64_t>(inScale.size()) != channels) return makeError("scales");
    // A scale that is not finite and positive stays with the host kernel, which refuses it by name.
    auto usable = [](double scale) { return std::isfinite(scale) && scale > 0; };
    if (!usable(outScale) || !std::all_of(inScale.begin(), inScale.end(), usable)) return makeError("scales");
    if (bias.size() != 1 && static_cast<int64_t>(bias.size()) != channels) return makeError("bias");

    std::vector<float> scales, biases;
    for (int64_t c = 0; c < channels; ++c) {
      int64_t weightSum = 0;
      for (int64_t i = 0; i < perChannel; ++i) weightSum += w[c * perChannel + i];
      const float scale = static_cast<float>(at(inScale, c)) / static_cast<float>(outScale);
      scales.push_back(scale);
      biases.push_back(static_cast<float>(at(bias, c) - inputZp * static_cast<double>(weightSum) - inZp));
    }
    if (inScale.size() == 1) scales.resize(1);

    std::vector<Origin> origins;
    for (const ExprNode* node : chain.nodes) origins.push_back(node->origin());
    const Origin origin = Origin::unite(origins);
    const Shape channelShape = conv ? Shape{channels, 1, 1} : Shape{channels};
    auto floats = [&](const std::vector<float>& values) {
      const Shape shape = values.size() == 1 ? Shape{} : channelShape;
      return Expr(ConstantNode::make(
          TensorData::fromBytes(DType::Float32, shape, std::as_bytes(std::span<const float>(values))), origin));
    };
    auto op = [&](const char* name, std::vector<Expr> args, const Attrs& attrs = {}) -> Result<Expr> {
      BYOC_ASSIGN_OR_RETURN(Call call, makeOpCall(name, std::move(args), attrs, origin));
      return Expr(call);
    };
    // One zero-point node for both, as the pattern's shared `zp` requires.
    const Expr zero = ConstantNode::make(TensorData::scalar(DType::Int32, 0), origin);
    const Expr one = ConstantNode::make(TensorData::scalar(DType::Float32, 1), origin);
    const Expr& given = chain.product->args[1];
    const Expr weightExpr = constantData(given) ? given : Expr(ConstantNode::make(weight, given->origin()));
    Expr data = rewritten(chain.product->args[0]);
    Attrs attrs = chain.product->attrs;
    if (chain.padInput) {
      // The padded taps must hold the input zero point for the bias to fold it: pad explicitly.
      BYOC_ASSIGN_OR_RETURN(data, padded(data, inputZp, attrs, origin));
      attrs = attrs.with("padding", AttrValue::ints({0, 0, 0, 0}));
    }
    BYOC_ASSIGN_OR_RETURN(Expr out, op(chain.product->opDef()->name.c_str(), {data, weightExpr, zero, zero, one, one},
                                       attrs));
    BYOC_ASSIGN_OR_RETURN(out, op("cast", {out}, {{"dtype", "float32"}}));
    BYOC_ASSIGN_OR_RETURN(out, op("add", {out, floats(biases)}));
    BYOC_ASSIGN_OR_RETURN(out, op("multiply", {out, floats(scales)}));
    const DType dtype = chain.requantize->type()->as<TensorTypeNode>()->dtype;
    const double low = dtype == DType::UInt8 ? 0 : -128;
    const double high = dtype == DType::UInt8 ? 255 : 127;
    // The requantize rounds the scaled value and then adds its output zero point: clip and round
    // relative to the zero point, and add it after. Folded into the bias, the zero point would
    // move the rounding of values near a half by a step.
    const double clipLow = chain.relu ? std::max(low - outZp, 0.0) : low - outZp;
    BYOC_ASSIGN_OR_RETURN(out, op("clip", {out}, {{"a_min", clipLow}, {"a_max", high - outZp}}));
    BYOC_ASSIGN_OR_RETURN(out, op("round", {out}));
    if (chain.sum.add) {
      BYOC_ASSIGN_OR_RETURN(out, residualSum(out, chain.sum, origin));
      BYOC_ASSIGN_OR_RETURN(out, op("clip", {out}, {{"a_min", low}, {"a_max", high}}));
      BYOC_ASSIGN_OR_RETURN(out, op("round", {out}));
    } else if (outZp != 0) {
      BYOC_ASSIGN_OR_RETURN(out, op("add", {out, ConstantNode::make(TensorData::scalar(DType::Float32, outZp), origin)}));
      BYOC_ASSIGN_OR_RETURN(out, op("round", {out}));
    }
    // The last round is the store to an integer, which rounds to nearest in oneDNN; a bare cast
    // would truncate.
    BYOC_ASSIGN_OR_RETURN(out, op("cast", {out}, {{"dtype", std::string(dtypeName(dtype))}}));
    return chain.reshape ? op("reshape", {out}, chain.reshape->attrs) : Result<Expr>(out);
  }

  /// `data` padded as the convolution `attrs` pad it, with `value` (the input zero point).
  static Result<Expr> padded(const Expr& data, double value, const Attrs& attrs, const Origin& origin) {
    BYOC_ASSIGN_OR_RETURN(const std::vector<int64_t> p, ops::intsAttr("qnn.conv2d", attrs, "padding"));  // top, left, bottom, right
    if (p.size() != 4) return makeError("qnn.conv2d: padding must have 4 values");
    const DType dtype = data->type()->as<TensorTypeNode>()->dtype;
    AttrValue::List width = {AttrValue::ints({0, 0}), AttrValue::ints({0, 0}), AttrValue::ints({p[0], p[2]}),
                             AttrValue::ints({p[1], p[3]})};
    const Expr fill = ConstantNode::make(TensorData::scalar(dtype, value), origin);
    BYOC_ASSIGN_OR_RETURN(Call call, makeOpCall("nn.pad", {data, fill}, {{"pad_width", AttrValue(width)}}, origin));
    return Expr(call);
  }

  /// TVM's sum form of qnn.add(lhs, rhs) with the chain's rounded result `out` (the requantize's
  /// integers less their zero point) on side `sum.chainSide`:
  ///   add(add(multiply(out, act_scale), multiply(sum_scale, cast(other))), dst_zero_point)
  /// with act_scale = chain_scale / out_scale, sum_scale = other_scale / out_scale and
  /// dst_zero_point = out_zp - other_zp * sum_scale.
  Result<Expr> residualSum(const Expr& out, const Sum& sum, const Origin& origin) {
    const CallNode& add = *sum.add;
    const std::size_t chainScale = 2 + 2 * sum.chainSide;
    const std::size_t otherScale = 2 + 2 * (1 - sum.chainSide);
    for (std::size_t i : {std::size_t{2}, std::size_t{4}, std::size_t{6}})
      if (!(std::isfinite(*scalarOf(add.args[i])) && *scalarOf(add.args[i]) > 0)) return makeError("scales");
    const double outScale = *scalarOf(add.args[6]);
    const double actScale = static_cast<float>(*scalarOf(add.args[chainScale])) / static_cast<float>(outScale);
    const double sumScale = static_cast<float>(*scalarOf(add.args[otherScale])) / static_cast<float>(outScale);
    const double dstZp = *scalarOf(add.args[7]) - *scalarOf(add.args[otherScale + 1]) * sumScale;
    auto scalar = [&](double value) { return Expr(ConstantNode::make(TensorData::scalar(DType::Float32, value), origin)); };
    auto op = [&](const char* name, std::vector<Expr> args, const Attrs& attrs = {}) -> Result<Expr> {
      BYOC_ASSIGN_OR_RETURN(Call call, makeOpCall(name, std::move(args), attrs, origin));
      return Expr(call);
    };
    BYOC_ASSIGN_OR_RETURN(Expr scaled, op("multiply", {out, scalar(actScale)}));
    BYOC_ASSIGN_OR_RETURN(Expr other, op("cast", {rewritten(add.args[1 - sum.chainSide])}, {{"dtype", "float32"}}));
    BYOC_ASSIGN_OR_RETURN(other, op("multiply", {scalar(sumScale), other}));
    BYOC_ASSIGN_OR_RETURN(Expr summed, op("add", {scaled, other}));
    return op("add", {summed, scalar(dstZp)});
  }

  NodeMap<int> uses_;
};

}  // namespace

}  // namespace legalize_qnn

Result<Function> legalizeQnnForDnnl(const Function& function) {
  if (!callsAnyOf(function, {"qnn.requantize"})) return function;  // a float model: nothing to count uses of
  legalize_qnn::Legalizer legalizer(function->body);
  return withBody(function, legalizer.mutate(function->body).value());  // its hook cannot fail
}

namespace {

PassInfo legalizeQnnForDnnlInfo() {
  return {"LegalizeQnnForDnnl", "puts requantized qnn.conv2d and qnn.dense into the form of the dnnl qnn patterns", 0,
          {"InferType"},
          "Rewrites qnn.conv2d or qnn.dense with constant int8 weights, an optional int32 bias and relu, and the "
          "qnn.requantize to int8 or uint8 after them into cast(round(add(round(clip(multiply(add(cast(product with "
          "zero points 0 and scales 1), bias), scale), bounds)), output zero point)), dtype), folding the input zero "
          "point into the float bias, and a qnn.add of that and another tensor into TVM's sum form, as TVM's "
          "legalize_qnn_for_dnnl does. Unlike TVM's form, the values the model holds as integers are rounded to "
          "nearest (before the sum and before the cast), as oneDNN rounds them, and the output zero point is added "
          "after the rounding, as the requantize adds it, rather than folded into the bias. InferType runs after it.",
          {}};
}

}  // namespace

PassPtr createLegalizeQnnForDnnlPass() {
  return makeFunctionPass(legalizeQnnForDnnlInfo(), [](const Function& function, const Module&, PassContext&) {
    return legalizeQnnForDnnl(function);
  });
}

PassRegistration legalizeQnnForDnnlRegistration() {
  return {legalizeQnnForDnnlInfo(), [](const Attrs&) { return Result<PassPtr>(createLegalizeQnnForDnnlPass()); }};
}

}  // namespace byoc
