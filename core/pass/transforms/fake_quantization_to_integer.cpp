/// \file
/// FakeQuantizationToInteger (contract in the header). The rewrites follow TVM's
/// python/tvm/relay/transform/fake_quantization_to_integer.py, one function per op.

#include "pass/transforms/fake_quantization_to_integer.h"

#include <cmath>
#include <map>
#include <optional>

#include "ir/op.h"
#include "ir/ops/attr_views.h"
#include "ir/ops/op_helpers.h"
#include "ir/structural.h"
#include "pass/analysis/function_utils.h"

namespace byoc {

namespace fake_quantization {

namespace {

/// How a quantized value maps to reals: real = (q - zero_point) * scale, per tensor or along `axis`.
struct AffineType {
  Expr scale;      ///< a float32 constant, scalar or 1-D
  Expr zeroPoint;  ///< an int32 constant, scalar or 1-D
  DType dtype;
  int64_t axis;
};

/// A value of the rewritten region: its expression, its type, and its affine type (none for a
/// float constant the region reads directly); a tuple has one affine type per field instead.
struct Value {
  Expr expr;
  Type type;
  std::optional<AffineType> affine;
  std::vector<AffineType> fields = {};

  const TensorTypeNode& tensor() const { return *type->as<TensorTypeNode>(); }
};

const TensorData* constantData(const Expr& expr) {
  const auto* constant = expr->as<ConstantNode>();
  return constant ? &constant->data : nullptr;
}

std::vector<double> valuesOf(const TensorData& data) {
  std::vector<double> values(static_cast<std::size_t>(data.numElements()));
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = data.elementAsDouble(static_cast<int64_t>(i));
  return values;
}

/// numpy's allclose on two constants (a single value broadcasting), else structural equality.
bool approxEqual(const Expr& a, const Expr& b) {
  const TensorData* x = constantData(a);
  const TensorData* y = constantData(b);
  if (!x || !y) return structuralEqual(a, b);
  const std::vector<double> xs = valuesOf(*x);
  const std::vector<double> ys = valuesOf(*y);
  if (xs.size() != ys.size() && xs.size() != 1 && ys.size() != 1) return false;
  for (std::size_t i = 0; i < std::max(xs.size(), ys.size()); ++i) {
    const double u = xs[xs.size() == 1 ? 0 : i];
    const double v = ys[ys.size() == 1 ? 0 : i];
    if (std::abs(u - v) > 1e-8 + 1e-5 * std::abs(v)) return false;
  }
  return true;
}

bool sameAffine(const AffineType& a, const AffineType& b) {
  return a.dtype == b.dtype && a.axis == b.axis && structuralEqual(a.scale, b.scale) &&
         structuralEqual(a.zeroPoint, b.zeroPoint);
}

/// What one rewrite sees: the original call, its rewritten arguments, the affine type the
/// region's last rewrite produced (TVM's "current" output type), and where new nodes come from.
struct Context {
  const CallNode& call;
  std::vector<Value> args;
  AffineType current;
  Origin origin;
  /// The affine type of the region's quantize when this call is the value it quantizes: qnn.add
  /// and qnn.mul produce it directly, as the fake-quantized graph computes in float and rounds
  /// once, instead of saturating to an operand's range and requantizing after.
  std::optional<AffineType> wanted = std::nullopt;

  /// A call of `op` on `args`, typed by the op's relation, with affine type `affine`.
  Result<Value> build(std::string_view op, const std::vector<Value>& operands, const Attrs& attrs,
                      std::optional<AffineType> affine) const {
    std::vector<Expr> exprs;
    std::vector<Type> types;
    for (const Value& operand : operands) {
      exprs.push_back(operand.expr);
      types.push_back(operand.type);
    }
    BYOC_ASSIGN_OR_RETURN(Call built, makeOpCall(op, std::move(exprs), attrs, origin));
    BYOC_ASSIGN_OR_RETURN(Type type, built->opDef()->relation({types, built->attrs}));
    return Value{built, type, std::move(affine)};
  }
  /// A constant value.
  Value constant(TensorData data) const {
    Type type = tensorType(data.shape(), data.dtype());
    return Value{ConstantNode::make(std::move(data), origin), type, std::nullopt};
  }
  /// An affine-type parameter as a value (its type is the constant's).
  Value param(const Expr& expr) const { return Value{expr, expr->type(), std::nullopt}; }
  /// A tuple of affine-type parameters as a value.
  Value params(const std::vector<Expr>& fields) const {
    std::vector<Type> types;
    for (const Expr& field : fields) types.push_back(field->type());
    Type type = tupleType(types);
    return Value{TupleNode::make(fields, origin, type), type, std::nullopt};
  }

  /// The affine type of argument `index`; an error when the argument is not quantized.
  Result<AffineType> affineOf(std::size_t index) const {
    if (!args[index].affine) return makeError(call.opDef()->name + ": argument " + std::to_string(index) + " is not quantized");
    return *args[index].affine;
  }

  /// qnn.requantize of `value` from `from` to `to`.
  Result<Value> requantize(const Value& value, const AffineType& from, const AffineType& to) const {
    return build("qnn.requantize", {value, param(from.scale), param(from.zeroPoint), param(to.scale), param(to.zeroPoint)},
                 {{"axis", from.axis}, {"out_dtype", std::string(dtypeName(to.dtype))}}, to);
  }
};

using Rewrite = Result<Value> (*)(const Context& c);

/// The op's own call on the rewritten arguments, keeping argument 0's affine type.
Result<Value> identity(const Context& c) {
  BYOC_ASSIGN_OR_RETURN(AffineType t, c.affineOf(0));
  return c.build(c.call.opDef()->name, c.args, c.call.attrs, t);
}

/// Whether a quantization parameter is one value (per-tensor).
bool isScalar(const Expr& param) {
  const TensorData* data = constantData(param);
  return data && data->numElements() == 1;
}

/// Average pools run in int32 and cast back.
Result<Value> averagePool(const Context& c) {
  BYOC_ASSIGN_OR_RETURN(AffineType t, c.affineOf(0));
  BYOC_ASSIGN_OR_RETURN(Value wide, c.build("cast", {c.args[0]}, {{"dtype", "int32"}}, t));
  BYOC_ASSIGN_OR_RETURN(Value pooled, c.build(c.call.opDef()->name, {wide}, c.call.attrs, t));
  return c.build("cast", {pooled}, {{"dtype", std::string(dtypeName(t.dtype))}}, t);
}

/// The constant `param` with `f` applied to each value, in its dtype and shape; null if `param`
/// is not a constant.
template <typename F>
Expr mappedParam(const Expr& param, F f, const Origin& origin) {
  const TensorData* data = constantData(param);
  if (!data) return nullptr;
  std::vector<std::byte> bytes;
  for (double value : valuesOf(*data)) {
    TensorData one = TensorData::scalar(data->dtype(), f(value));
    bytes.insert(bytes.end(), one.bytes().begin(), one.bytes().end());
  }
  return ConstantNode::make(TensorData::fromBytes(data->dtype(), data->shape(), bytes), origin);
}

/// nn.global_avg_pool2d → the int32 sum over the spatial axes, requantized from the input's scale
/// / count (zero point × count) to the region's output type: the mean rounded once, as the QDQ
/// model computes it. TVM averages in int32, whose division truncates, and casts back: up to a
/// step of the input's scale lost, several of a finer quantize's after it.
Result<Value> globalAveragePool(const Context& c) {
  BYOC_ASSIGN_OR_RETURN(AffineType t, c.affineOf(0));
  const AffineType out = c.wanted && isScalar(c.wanted->scale) && isScalar(c.wanted->zeroPoint) ? *c.wanted : t;
  const AttrValue* layout = c.call.attrs.find("layout");
  const bool channelsLast = layout && layout->isString() && layout->asString() == "NHWC";
  const Shape& shape = c.args[0].tensor().shape;
  if (shape.size() != 4 || (layout && layout->isString() && layout->asString() != "NCHW" && !channelsLast))
    return averagePool(c);
  const int64_t height = shape[channelsLast ? 1 : 2], width = shape[channelsLast ? 2 : 3];
  // Other than 8-bit values and zero points, or an unknown or empty extent, or one whose int32 sum
  // (or zero point × count) could overflow, pool as TVM does.
  const int64_t kMaxCount = int64_t{1} << 23;  // 255 · 2^23 < 2^31
  const TensorData* zeroPoints = constantData(t.zeroPoint);
  const bool eightBit = (t.dtype == DType::Int8 || t.dtype == DType::UInt8) && zeroPoints;
  if (!eightBit || height <= 0 || width <= 0 || height > kMaxCount / width || !isScalar(out.scale)) return averagePool(c);
  for (double zeroPoint : valuesOf(*zeroPoints))
    if (std::abs(zeroPoint) > 255) return averagePool(c);
  const double count = static_cast<double>(height * width);
  const Expr sumScale = mappedParam(t.scale, [&](double scale) { return double(float(scale) / float(count)); }, c.origin);
  const Expr sumZeroPoint = mappedParam(t.zeroPoint, [&](double zeroPoint) { return zeroPoint * count; }, c.origin);
  if (!sumScale || !sumZeroPoint) return averagePool(c);
  BYOC_ASSIGN_OR_RETURN(Value wide, c.build("cast", {c.args[0]}, {{"dtype", "int32"}}, t));
  const std::vector<int64_t> spatial = channelsLast ? std::vector<int64_t>{1, 2} : std::vector<int64_t>{2, 3};
  BYOC_ASSIGN_OR_RETURN(Value summed, c.build("sum", {wide}, {{"axis", AttrValue::ints(spatial)}, {"keepdims", true}}, t));
  return c.build("qnn.requantize",
                 {summed, c.param(sumScale), c.param(sumZeroPoint), c.param(out.scale), c.param(out.zeroPoint)},
                 {{"axis", t.axis}, {"out_dtype", std::string(dtypeName(out.dtype))}}, out);
}

/// `a * b` elementwise in float32 (one of them may be a single value); null if either is not a constant.
Expr scaleProduct(const Expr& a, const Expr& b, const Origin& origin) {
  const TensorData* x = constantData(a);
  const TensorData* y = constantData(b);
  if (!x || !y) return nullptr;
  const TensorData& larger = x->numElements() >= y->numElements() ? *x : *y;
  const std::vector<double> xs = valuesOf(*x);
  const std::vector<double> ys = valuesOf(*y);
  std::vector<std::byte> bytes;
  for (std::size_t i = 0; i < static_cast<std::size_t>(larger.numElements()); ++i) {
    const float product = static_cast<float>(xs[xs.size() == 1 ? 0 : i]) * static_cast<float>(ys[ys.size() == 1 ? 0 : i]);
    TensorData one = TensorData::scalar(DType::Float32, product);
    bytes.insert(bytes.end(), one.bytes().begin(), one.bytes().end());
  }
  return ConstantNode::make(TensorData::fromBytes(DType::Float32, larger.shape(), bytes), origin);
}

/// qnn.conv2d / qnn.dense: the product's scale is x_scale * w_scale, its zero point 0, its dtype int32.
Result<Value> integerProduct(const Context& c, const char* op, int64_t outAxis) {
  BYOC_ASSIGN_OR_RETURN(AffineType x, c.affineOf(0));
  BYOC_ASSIGN_OR_RETURN(AffineType w, c.affineOf(1));
  Expr scale = scaleProduct(x.scale, w.scale, c.origin);
  if (!scale) return makeError(std::string(op) + ": the scales are not constants");
  const TensorData& scaleData = scale->as<ConstantNode>()->data;
  Expr zero = ConstantNode::make(TensorData::zeros(DType::Int32, scaleData.shape()), c.origin);
  AffineType out{scale, zero, DType::Int32, outAxis};
  return c.build(op, {c.args[0], c.args[1], c.param(x.zeroPoint), c.param(w.zeroPoint), c.param(x.scale), c.param(w.scale)},
                 c.call.attrs.with("out_dtype", "int32"), out);
}

Result<Value> conv2d(const Context& c) {
  BYOC_ASSIGN_OR_RETURN(const ops::ConvLayouts layouts, ops::readConvLayouts("nn.conv2d", c.call.attrs));
  const std::size_t channel = layouts.out.find('C');
  return integerProduct(c, "qnn.conv2d", channel == std::string::npos ? 1 : static_cast<int64_t>(channel));
}

Result<Value> dense(const Context& c) { return integerProduct(c, "qnn.dense", 1); }

Result<Value> biasAdd(const Context& c) {
  BYOC_ASSIGN_OR_RETURN(AffineType x, c.affineOf(0));
  BYOC_ASSIGN_OR_RETURN(AffineType b, c.affineOf(1));
  Value bias = c.args[1];
  if (!(approxEqual(x.scale, b.scale) && approxEqual(x.zeroPoint, b.zeroPoint) && x.dtype == b.dtype)) {
    AffineType from = b;
    from.axis = 0;
    BYOC_ASSIGN_OR_RETURN(bias, c.requantize(bias, from, x));
  }
  return c.build("nn.bias_add", {c.args[0], bias}, c.call.attrs, x);
}

/// TVM's get_binary_types: a float constant operand is quantized with the other operand's type,
/// which is then also the output's; a dtype mismatch makes the left operand's type the output's.
struct BinaryTypes {
  Value left, right;
  AffineType leftType, rightType, out;
};

Result<BinaryTypes> binaryTypes(const Context& c) {
  BinaryTypes t{c.args[0], c.args[1], {}, {}, c.current};
  if (!c.args[0].affine && !c.args[1].affine) return makeError(c.call.opDef()->name + ": neither operand is quantized");
  auto quantizeConstant = [&c](const Value& value, const AffineType& like) -> Result<Value> {
    if (!constantData(value.expr)) return makeError(c.call.opDef()->name + ": an operand is neither quantized nor a constant");
    return c.build("qnn.quantize", {value, c.param(like.scale), c.param(like.zeroPoint)},
                   {{"out_dtype", std::string(dtypeName(like.dtype))}}, like);
  };
  if (!c.args[0].affine) {
    BYOC_ASSIGN_OR_RETURN(t.left, quantizeConstant(c.args[0], *c.args[1].affine));
    t.out = *c.args[1].affine;
  }
  if (!c.args[1].affine) {
    BYOC_ASSIGN_OR_RETURN(t.right, quantizeConstant(c.args[1], *c.args[0].affine));
    t.out = *c.args[0].affine;
  }
  t.leftType = *t.left.affine;
  t.rightType = *t.right.affine;
  if (t.leftType.dtype != t.out.dtype) t.out = t.leftType;
  return t;
}

/// Whether `a + b` adds an int32 bias to an int32 product at the same scale, zero points 0.
bool isBiasAdd(const AffineType& a, const AffineType& b) {
  auto zero = [](const Expr& zeroPoint) {
    const TensorData* data = constantData(zeroPoint);
    if (!data) return false;
    for (double value : valuesOf(*data))
      if (value != 0) return false;
    return true;
  };
  return a.dtype == DType::Int32 && b.dtype == DType::Int32 && approxEqual(a.scale, b.scale) && zero(a.zeroPoint) &&
         zero(b.zeroPoint);
}

/// add → qnn.add, multiply → qnn.mul; an int32 bias added to an int32 product stays an add (the
/// bias of a Gemm or MatMul, which imports as add rather than nn.bias_add).
template <const char* QnnOp>
Result<Value> binaryQnn(const Context& c) {
  BYOC_ASSIGN_OR_RETURN(BinaryTypes t, binaryTypes(c));
  if (QnnOp == std::string_view("qnn.add") && isBiasAdd(t.leftType, t.rightType)) {
    // The product is the operand of higher rank; its type (axis included) is the sum's.
    const bool leftIsProduct = t.left.tensor().shape.size() >= t.right.tensor().shape.size();
    return c.build("add", {t.left, t.right}, {}, leftIsProduct ? t.leftType : t.rightType);
  }
  if (c.wanted && isScalar(c.wanted->scale) && isScalar(c.wanted->zeroPoint) && c.wanted->dtype == t.leftType.dtype)
    t.out = *c.wanted;
  return c.build(QnnOp,
                 {t.left, t.right, c.param(t.leftType.scale), c.param(t.leftType.zeroPoint), c.param(t.rightType.scale),
                  c.param(t.rightType.zeroPoint), c.param(t.out.scale), c.param(t.out.zeroPoint)},
                 {}, t.out);
}
constexpr char kQnnAdd[] = "qnn.add";
constexpr char kQnnMul[] = "qnn.mul";
constexpr char kQnnSubtract[] = "qnn.subtract";

/// maximum / minimum on operands requantized to the output type.
Result<Value> binaryIdentity(const Context& c) {
  BYOC_ASSIGN_OR_RETURN(BinaryTypes t, binaryTypes(c));
  if (!sameAffine(t.leftType, t.out)) {
    BYOC_ASSIGN_OR_RETURN(t.left, c.requantize(t.left, t.leftType, t.out));
  }
  if (!sameAffine(t.rightType, t.out)) {
    BYOC_ASSIGN_OR_RETURN(t.right, c.requantize(t.right, t.rightType, t.out));
  }
  return c.build(c.call.opDef()->name, {t.left, t.right}, {}, t.out);
}

/// concatenate → qnn.concatenate of the tuple with its fields' parameters, into the region's
/// output type (TVM's type_map[expr]); per-tensor parameters and one dtype only.
Result<Value> concatenate(const Context& c) {
  const Value& tuple = c.args[0];
  if (tuple.fields.empty()) return makeError("concatenate: the tensors are not quantized");
  const AffineType out = c.wanted ? *c.wanted : c.current;
  if (!isScalar(out.scale) || !isScalar(out.zeroPoint))
    return makeError("concatenate: per-axis output parameters are not supported");
  std::vector<Expr> scales, zeroPoints;
  for (const AffineType& field : tuple.fields) {
    if (!isScalar(field.scale) || !isScalar(field.zeroPoint) || field.dtype != out.dtype)
      return makeError("concatenate: a tensor is quantized per axis or to another dtype");
    scales.push_back(field.scale);
    zeroPoints.push_back(field.zeroPoint);
  }
  return c.build("qnn.concatenate",
                 {tuple, c.params(scales), c.params(zeroPoints), c.param(out.scale), c.param(out.zeroPoint)},
                 c.call.attrs, out);
}

/// The single value of a per-tensor constant parameter.
std::optional<double> singleValue(const Expr& expr) {
  const TensorData* data = constantData(expr);
  if (!data || data->numElements() != 1) return std::nullopt;
  return data->elementAsDouble(0);
}

/// clip at the bounds quantized as TVM does (int(bound / scale + zero_point)); per-tensor only.
Result<Value> clip(const Context& c) {
  BYOC_ASSIGN_OR_RETURN(AffineType t, c.affineOf(0));
  std::optional<double> scale = singleValue(t.scale);
  std::optional<double> zeroPoint = singleValue(t.zeroPoint);
  if (!scale || !zeroPoint) return makeError("clip: per-axis quantization parameters are not supported");
  BYOC_ASSIGN_OR_RETURN(const ops::ClipAttrs bounds, ops::readClipAttrs("clip", c.call.attrs));
  const double low = std::trunc(bounds.low / *scale + *zeroPoint);
  const double high = std::trunc(bounds.high / *scale + *zeroPoint);
  if (!std::isfinite(low) || !std::isfinite(high)) return makeError("clip: a bound is not finite");
  // Bounds beyond the dtype's range clip nothing more than the range itself.
  const bool isUnsigned = t.dtype == DType::UInt8;
  const double min = isUnsigned ? 0.0 : -std::ldexp(1.0, static_cast<int>(dtypeSize(t.dtype)) * 8 - 1);
  const double max = isUnsigned ? 255.0 : std::ldexp(1.0, static_cast<int>(dtypeSize(t.dtype)) * 8 - 1) - 1;
  return c.build("clip", {c.args[0]}, {{"a_min", std::clamp(low, min, max)}, {"a_max", std::clamp(high, min, max)}}, t);
}

/// nn.relu → maximum(x, zero_point), the zero point shaped to broadcast along the axis.
Result<Value> relu(const Context& c) {
  BYOC_ASSIGN_OR_RETURN(AffineType t, c.affineOf(0));
  const TensorData* zp = constantData(t.zeroPoint);
  if (!zp) return makeError("nn.relu: the zero point is not a constant");
  Shape shape;
  if (zp->numElements() > 1) {
    shape.assign(c.args[0].tensor().shape.size(), 1);
    shape[static_cast<std::size_t>(t.axis < 0 ? t.axis + static_cast<int64_t>(shape.size()) : t.axis)] = zp->numElements();
  }
  std::vector<std::byte> bytes;
  for (double value : valuesOf(*zp)) {
    TensorData one = TensorData::scalar(t.dtype, value);
    bytes.insert(bytes.end(), one.bytes().begin(), one.bytes().end());
  }
  return c.build("maximum", {c.args[0], c.constant(TensorData::fromBytes(t.dtype, shape, bytes))}, {}, t);
}

const std::map<std::string, Rewrite, std::less<>>& rewrites() {
  static const std::map<std::string, Rewrite, std::less<>> table = {
      {"nn.conv2d", conv2d},
      {"nn.dense", dense},
      {"nn.bias_add", biasAdd},
      {"add", binaryQnn<kQnnAdd>},
      {"multiply", binaryQnn<kQnnMul>},
      {"subtract", binaryQnn<kQnnSubtract>},
      {"concatenate", concatenate},
      {"maximum", binaryIdentity},
      {"minimum", binaryIdentity},
      {"clip", clip},
      {"nn.relu", relu},
      {"nn.avg_pool2d", averagePool},
      {"nn.global_avg_pool2d", globalAveragePool},
      {"nn.max_pool2d", identity},
      {"nn.global_max_pool2d", identity},
      {"reshape", identity},
      {"squeeze", identity},
      {"strided_slice", identity},
      {"transpose", identity},
      {"expand_dims", identity},
      {"nn.batch_flatten", identity},
      {"nn.depth_to_space", identity},
      {"max", identity},
      {"min", identity},
  };
  return table;
}

/// Whether the rewrite of `op` gives its result its input's affine type.
bool keepsAffineType(std::string_view op) {
  if (op == "nn.relu" || op == "clip") return true;
  auto found = rewrites().find(op);
  return found != rewrites().end() && found->second == identity;
}

bool isOp(const ExprNode& node, std::string_view name) {
  const auto* call = node.as<CallNode>();
  return call && call->opDef() && call->opDef()->name == name;
}

/// The affine type a qnn.quantize produces or a qnn.dequantize reads; an error when its
/// parameters are not constants.
Result<AffineType> affineOfQnnCall(const CallNode& call, DType dtype) {
  if (!constantData(call.args[1]) || !constantData(call.args[2])) return makeError("run-time parameters");
  BYOC_ASSIGN_OR_RETURN(const int64_t axis, ops::intAttr(call.opDef()->name, call.attrs, "axis"));
  return AffineType{call.args[1], call.args[2], dtype, axis};
}

class Rewriter final : public OpaqueFunctionSkippingMutator {
 protected:
  Result<Expr> rewriteCall(const Call& pre, const Call& post) override {
    if (!isOp(*pre, "qnn.quantize")) return Expr(post);
    // A region no rewrite handles stays in float.
    Result<Expr> integer = rewriteRegion(*pre);
    return integer ? *integer : Expr(post);
  }

 private:
  /// The nodes of the region above `quantize`, arguments before their users; an error when the
  /// region holds something no rewrite handles.
  Result<std::vector<const ExprNode*>> region(const CallNode& quantize) {
    std::vector<const ExprNode*> order;
    NodeMap<bool> seen;
    auto done = [&seen](const ExprNode* node) { return seen.contains(node); };
    auto children = [](const ExprNode& node, std::vector<const ExprNode*>& out) -> Status {
      if (node.as<ConstantNode>() || isOp(node, "qnn.dequantize")) return Status::ok();
      if (const auto* tuple = node.as<TupleNode>()) {
        for (const Expr& field : tuple->fields) out.push_back(field.get());
        return Status::ok();
      }
      const auto* call = node.as<CallNode>();
      if (!call || !call->opDef() || !rewrites().count(call->opDef()->name))
        return makeError("not a fake-quantized region");
      for (const Expr& arg : call->args) out.push_back(arg.get());
      return Status::ok();
    };
    auto visit = [&](const ExprNode& node) -> Status {
      seen.emplace(&node, true);
      order.push_back(&node);
      return Status::ok();
    };
    BYOC_TRY(visitChildrenFirst(quantize.args[0].get(), done, children, visit));
    return order;
  }

  Result<Expr> rewriteRegion(const CallNode& quantize) {
    BYOC_ASSIGN_OR_RETURN(std::vector<const ExprNode*> order, region(quantize));
    const auto* outType = quantize.type() ? quantize.type()->as<TensorTypeNode>() : nullptr;
    if (!outType) return makeError("untyped");
    BYOC_ASSIGN_OR_RETURN(const AffineType quantized, affineOfQnnCall(quantize, outType->dtype));
    std::optional<AffineType> current = quantized;
    NodeMap<Value> values;
    const ExprNode* wanted = wantedNode(quantize);
    for (const ExprNode* node : order) {
      const Expr pre(node);
      if (node->as<ConstantNode>()) {
        values.emplace(node, Value{pre, pre->type(), std::nullopt});
        continue;
      }
      if (const auto* tuple = node->as<TupleNode>()) {
        BYOC_ASSIGN_OR_RETURN(Value value, tupleValue(*tuple, values));
        values.emplace(node, std::move(value));
        continue;
      }
      const auto& call = *node->as<CallNode>();
      if (isOp(*node, "qnn.dequantize")) {
        const Expr& data = call.args[0];
        const auto* dataType = data->type() ? data->type()->as<TensorTypeNode>() : nullptr;
        if (!dataType) return makeError("untyped");
        BYOC_ASSIGN_OR_RETURN(AffineType affine, affineOfQnnCall(call, dataType->dtype));
        values.emplace(node, Value{rewritten(data), data->type(), affine});
        current = affine;
        continue;
      }
      Context context{call, {}, *current, node->origin()};
      if (node == wanted) context.wanted = quantized;
      for (const Expr& arg : call.args) context.args.push_back(*values.find(arg.get()));
      BYOC_ASSIGN_OR_RETURN(Value value, rewrites().at(call.opDef()->name)(context));
      current = value.affine;
      values.emplace(node, std::move(value));
    }
    return quantizeResult(quantize, *values.find(quantize.args[0].get()));
  }

  /// A tuple of rewritten values, each field quantized. The tuple node stays untyped, like the
  /// calls the rewrites build: a field may be another region's new, untyped calls, and InferType
  /// does not look under a typed node.
  static Result<Value> tupleValue(const TupleNode& tuple, const NodeMap<Value>& values) {
    Value value;
    std::vector<Expr> fields;
    std::vector<Type> types;
    for (const Expr& field : tuple.fields) {
      const Value& rewrittenField = *values.find(field.get());
      if (!rewrittenField.affine) return makeError("a tuple field is not quantized");
      fields.push_back(rewrittenField.expr);
      types.push_back(rewrittenField.type);
      value.fields.push_back(*rewrittenField.affine);
    }
    value.type = tupleType(std::move(types));
    value.expr = TupleNode::make(std::move(fields), tuple.origin());
    return value;
  }

  /// The value whose type the quantize's is: its argument, or, below ops whose result keeps their
  /// input's affine type (relu, clip, max pooling, reshapes), the value they take. A sum under a
  /// relu thus rounds once into the quantize's range instead of saturating to an operand's.
  static const ExprNode* wantedNode(const CallNode& quantize) {
    const ExprNode* node = quantize.args[0].get();
    for (const auto* call = node->as<CallNode>(); call && call->opDef() && keepsAffineType(call->opDef()->name);
         call = node->as<CallNode>())
      node = call->args[0].get();
    return node;
  }

  /// The quantize itself: a requantize to its parameters, or the value when they already match.
  Result<Expr> quantizeResult(const CallNode& quantize, const Value& value) {
    if (!value.affine) return makeError("the quantized value is a float constant");
    const AffineType& t = *value.affine;
    BYOC_ASSIGN_OR_RETURN(const AffineType to, affineOfQnnCall(quantize, quantize.type()->as<TensorTypeNode>()->dtype));
    if (approxEqual(t.scale, to.scale) && approxEqual(t.zeroPoint, to.zeroPoint) && t.dtype == to.dtype)
      return value.expr;
    Context context{quantize, {}, t, quantize.origin()};
    BYOC_ASSIGN_OR_RETURN(Value out, context.requantize(value, t, to));
    return out.expr;
  }
};

}  // namespace

}  // namespace fake_quantization

Result<Function> fakeQuantizationToInteger(const Function& function) {
  if (!callsAnyOf(function, {"qnn.quantize"})) return function;  // a float model: no region ends in a quantize
  fake_quantization::Rewriter rewriter;
  return withBody(function, rewriter.mutate(function->body).value());  // its hook cannot fail
}

namespace {

PassInfo fakeQuantizationToIntegerInfo() {
  return {"FakeQuantizationToInteger", "turns dequantize → float ops → quantize regions into integer (qnn) ops", 0,
          {"InferType"},
          "For each qnn.quantize, rewrites the float region above it, down to qnn.dequantize calls and constants, "
          "into integer ops as TVM's pass does: conv2d and dense become qnn.conv2d and qnn.dense, add, subtract and "
          "multiply qnn.add, qnn.subtract and qnn.mul, concatenate qnn.concatenate, relu and clip a maximum and clip at the quantized bounds, pools and data movement "
          "stay on the integers, and the quantize becomes a qnn.requantize (or nothing). A region with any other op, "
          "a variable or run-time quantization parameters stays float. InferType runs after it.",
          {}};
}

}  // namespace

PassPtr createFakeQuantizationToIntegerPass() {
  return makeFunctionPass(fakeQuantizationToIntegerInfo(), [](const Function& function, const Module&, PassContext&) {
    return fakeQuantizationToInteger(function);
  });
}

PassRegistration fakeQuantizationToIntegerRegistration() {
  return {fakeQuantizationToIntegerInfo(),
          [](const Attrs&) { return Result<PassPtr>(createFakeQuantizationToIntegerPass()); }};
}

}  // namespace byoc
