/// \file
/// The helpers of FoldScaleAxis (contract in the header).

#include "pass/transforms/fold_scale_axis_util.h"

#include "ir/op.h"

namespace byoc::fold_scale_axis {

const TensorTypeNode* tensorTypeOf(const Expr& expr) {
  return expr && expr->type() ? expr->type()->as<TensorTypeNode>() : nullptr;
}

const std::string& opName(const Expr& expr) {
  static const std::string none;
  const auto* call = expr->as<CallNode>();
  const OpDef* def = call ? call->opDef() : nullptr;
  return def ? def->name : none;
}

bool matchesChannelAxis(const Shape& lhs, const Shape& rhs, std::size_t axis, std::vector<int64_t>* squeeze) {
  if (lhs.size() < rhs.size()) return false;
  const std::size_t base = lhs.size() - rhs.size();
  for (std::size_t i = 0; i < lhs.size(); ++i) {
    if (i == axis) {
      if (i < base || lhs[i] != rhs[i - base]) return false;
    } else if (i >= base) {
      if (rhs[i - base] != 1) return false;
      if (squeeze) squeeze->push_back(static_cast<int64_t>(i - base));
    }
  }
  return true;
}

Result<std::optional<Expr>> channelScale(const Expr& scale, const TensorTypeNode& scaleType, const Shape& shape,
                                         std::size_t axis) {
  const auto* constant = scale->as<ConstantNode>();
  if (scaleType.shape.empty() && constant && axis < shape.size()) {
    const std::span<const std::byte> one = constant->data.bytes();
    std::vector<std::byte> bytes;
    for (int64_t i = 0; i < shape[axis]; ++i) bytes.insert(bytes.end(), one.begin(), one.end());
    return std::optional<Expr>(ConstantNode::make(TensorData::fromBytes(constant->data.dtype(), {shape[axis]}, bytes), scale->origin()));
  }
  std::vector<int64_t> squeeze;
  if (!matchesChannelAxis(shape, scaleType.shape, axis, &squeeze)) return std::optional<Expr>();
  if (squeeze.empty()) return std::optional<Expr>(scale);
  BYOC_ASSIGN_OR_RETURN(Call call, makeOpCall("squeeze", {scale}, {{"axis", AttrValue::ints(squeeze)}}, scale->origin()));
  return std::optional<Expr>(call);
}

Result<Expr> expandToAxis(const Expr& scale, std::size_t rank, std::size_t axis) {
  const int64_t pad = static_cast<int64_t>(rank) - static_cast<int64_t>(axis) - 1;
  if (pad <= 0) return scale;
  BYOC_ASSIGN_OR_RETURN(Call call, makeOpCall("expand_dims", {scale}, {{"axis", 1}, {"num_newaxis", pad}}, scale->origin()));
  return Expr(call);
}

bool isAllPositiveConstant(const Expr& expr) {
  Expr node = expr;
  for (;;) {
    if (const auto* constant = node->as<ConstantNode>()) {
      for (int64_t i = 0; i < constant->data.numElements(); ++i)
        if (!(constant->data.elementAsDouble(i) > 0)) return false;
      return true;
    }
    const std::string& name = opName(node);
    if (name != "expand_dims" && name != "reshape" && name != "transpose" && name != "squeeze") return false;
    node = node->as<CallNode>()->args[0];
  }
}

namespace {

/// The layout attribute `name` of `call`, "" when it is unset.
std::string layoutAttr(const CallNode& call, const char* name) {
  const AttrValue* value = call.attrs.find(name);
  return value && value->isString() ? value->asString() : std::string();
}

/// A layout of plain axes only (TVM's "simple layout": no blocked lower-case axis).
bool isPlain(const std::string& layout) {
  for (char c : layout)
    if (c < 'A' || c > 'Z') return false;
  return !layout.empty();
}

}  // namespace

std::optional<ConvAxes> convAxes(const CallNode& conv) {
  const std::string data = layoutAttr(conv, "data_layout");
  const std::string out = layoutAttr(conv, "out_layout");
  const std::string output = out.empty() ? data : out;
  const std::string kernel = layoutAttr(conv, "kernel_layout");
  if (!isPlain(data) || !isPlain(output) || !isPlain(kernel)) return std::nullopt;
  const std::size_t c = data.find('C'), outC = output.find('C'), i = kernel.find('I'), o = kernel.find('O');
  if (c == std::string::npos || outC == std::string::npos || i == std::string::npos || o == std::string::npos)
    return std::nullopt;
  const TensorTypeNode* weight = tensorTypeOf(conv.args[1]);
  const AttrValue* groupsAttr = conv.attrs.find("groups");
  if (!weight || weight->shape.size() != kernel.size() || !groupsAttr || !groupsAttr->isInt()) return std::nullopt;
  const int64_t groups = groupsAttr->asInt();
  const bool depthwise = weight->shape[o] == groups && weight->shape[i] == 1;
  // TVM folds into grouped convolutions only when they are depthwise.
  if (groups != 1 && !depthwise) return std::nullopt;
  return ConvAxes{c, outC, i, o, kernel.size(), depthwise};
}

}  // namespace byoc::fold_scale_axis
