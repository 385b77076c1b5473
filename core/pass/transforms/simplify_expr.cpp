/// \file
/// SimplifyExpr (contract in the header). Each rule is a pattern and a callback, as in TVM's
/// simplify_expr.cc, run by `rewrite` to a fixed point with types recomputed before each pass.

#include "pass/transforms/simplify_expr.h"

#include <cmath>
#include <limits>

#include "ir/op.h"
#include "ir/ops/attr_views.h"
#include "ir/ops/op_helpers.h"
#include "ir/structural.h"
#include "pass/analysis/constant_evaluator.h"
#include "pass/infer_type.h"
#include "pattern/rewrite.h"

namespace byoc {

namespace {

const TensorTypeNode* tensorTypeOf(const Expr& expr) {
  return expr && expr->type() ? expr->type()->as<TensorTypeNode>() : nullptr;
}

/// The static shape of a tensor type, or nothing when a dimension is unknown.
std::optional<std::vector<int64_t>> staticShape(const TensorTypeNode* type) {
  if (!type) return std::nullopt;
  for (int64_t dim : type->shape)
    if (dim == kAnyDim) return std::nullopt;
  return std::vector<int64_t>(type->shape.begin(), type->shape.end());
}

Result<Expr> op(std::string_view name, std::vector<Expr> args, const Attrs& attrs, const Expr& replaced) {
  BYOC_ASSIGN_OR_RETURN(Call call, makeOpCall(name, std::move(args), attrs, replaced->origin()));
  return Expr(call);
}

/// zeros_like / ones_like of a static type → zeros / ones (TVM's ConcretizeZerosLike/OnesLikeRewrite).
RewriteCallback concretizeLike(const char* like, const char* concrete) {
  return {callOp(like, {wildcard()}), [concrete](const Expr& pre, const Expr& post, const PatternNodeMap&) -> Result<Expr> {
            const TensorTypeNode* type = tensorTypeOf(pre);
            auto shape = staticShape(type);
            if (!shape) return post;
            return op(concrete, {}, {{"shape", AttrValue::ints(*shape)}, {"dtype", std::string(dtypeName(type->dtype))}}, pre);
          }, true};
}

/// A scalar constant holding `value`, or zeros/ones (and their `_like` forms) of that value.
bool isIdentityOperand(const Expr& expr, double value) {
  if (const auto* constant = expr->as<ConstantNode>())
    return constant->data.numElements() == 1 && constant->data.shape().empty() && constant->data.elementAsDouble(0) == value;
  const auto* call = expr->as<CallNode>();
  const OpDef* def = call ? call->opDef() : nullptr;
  if (!def) return false;
  return value == 0.0 ? def->name == "zeros" || def->name == "zeros_like" : def->name == "ones" || def->name == "ones_like";
}

/// x + 0, x - 0, x * 1, x / 1 → x when x has the result's type (TVM's EliminateIdentityRewrite);
/// add and multiply match either order.
RewriteCallback eliminateIdentity() {
  Pattern x = wildcard();
  auto filled = [](const char* full, const char* like) {
    return alt(alt(callOp(full, {}), callOp(like, {wildcard()})), isConstant());
  };
  Pattern zeros = filled("zeros", "zeros_like");
  Pattern ones = filled("ones", "ones_like");
  Pattern pattern = alt(alt(callOp("add", {x, zeros}), callOp("multiply", {x, ones})),
                        alt(callOp("subtract", {x, zeros}), callOp("divide", {x, ones})));
  return {pattern, [x](const Expr& pre, const Expr& post, const PatternNodeMap& nodes) -> Result<Expr> {
            const auto* call = pre->as<CallNode>();
            const std::string& name = call->opDef()->name;
            const Expr& kept = nodes.at(x)[0];
            const std::size_t keptSide = post->as<CallNode>()->args[0] == kept ? 0 : 1;
            const double identity = name == "add" || name == "subtract" ? 0.0 : 1.0;
            if (!isIdentityOperand(post->as<CallNode>()->args[1 - keptSide], identity)) return post;
            const Expr& keptPre = call->args[keptSide];
            if (!keptPre->type() || !pre->type() || !typeEqual(keptPre->type(), pre->type())) return post;
            return kept;
          }, true};
}

/// reshape(reshape(x)) → reshape(x) to the final static shape (TVM's SimplifyReshape).
RewriteCallback simplifyReshape() {
  Pattern x = wildcard();
  return {callOp("reshape", {callOp("reshape", {x})}),
          [x](const Expr& pre, const Expr& post, const PatternNodeMap& nodes) -> Result<Expr> {
            auto shape = staticShape(tensorTypeOf(pre));
            if (!shape) return post;
            return op("reshape", {nodes.at(x)[0]}, {{"newshape", AttrValue::ints(*shape)}}, pre);
          }, true};
}

/// The axis order a transpose or layout_transform applies: output axis i is input axis order[i].
Result<std::vector<int64_t>> axisOrder(const CallNode& call, std::size_t rank) {
  std::vector<std::size_t> perm;
  if (call.opDef()->name == "layout_transform") {
    BYOC_ASSIGN_OR_RETURN(perm, ops::layoutPermutation("layout_transform", ops::stringAttr(call.attrs, "src_layout"),
                                                       ops::stringAttr(call.attrs, "dst_layout")));
  } else {
    BYOC_ASSIGN_OR_RETURN(perm, ops::readTransposeAxes("transpose", call.attrs, rank));
  }
  return std::vector<int64_t>(perm.begin(), perm.end());
}

/// Two consecutive transposes or layout_transforms → one transpose, or x when they cancel
/// (TVM's SimplifyTranspose, for layouts of the same rank).
RewriteCallback simplifyTranspose() {
  Pattern x = wildcard();
  auto transform = [](Pattern input) { return alt(callOp("transpose", {input}), callOp("layout_transform", {input})); };
  return {transform(transform(x)), [x](const Expr& pre, const Expr& post, const PatternNodeMap& nodes) -> Result<Expr> {
            const TensorTypeNode* type = tensorTypeOf(pre);
            if (!type) return post;
            const std::size_t rank = type->shape.size();
            const auto* outer = post->as<CallNode>();
            BYOC_ASSIGN_OR_RETURN(std::vector<int64_t> second, axisOrder(*outer, rank));
            BYOC_ASSIGN_OR_RETURN(std::vector<int64_t> first, axisOrder(*outer->args[0]->as<CallNode>(), rank));
            std::vector<int64_t> axes(rank);
            bool identity = true;
            for (std::size_t i = 0; i < rank; ++i) {
              axes[i] = first[static_cast<std::size_t>(second[i])];
              identity = identity && axes[i] == static_cast<int64_t>(i);
            }
            if (identity) return nodes.at(x)[0];
            return op("transpose", {nodes.at(x)[0]}, {{"axes", AttrValue::ints(axes)}}, pre);
          }, true};
}

/// cast(x) to x's own dtype → x (TVM's SimplifySameCast).
RewriteCallback simplifySameCast() {
  Pattern x = wildcard();
  return {callOp("cast", {x}), [x](const Expr& pre, const Expr& post, const PatternNodeMap& nodes) -> Result<Expr> {
            const TensorTypeNode* from = tensorTypeOf(pre->as<CallNode>()->args[0]);
            const TensorTypeNode* to = tensorTypeOf(pre);
            if (!from || !to || from->dtype != to->dtype) return post;
            return nodes.at(x)[0];
          }, true};
}

/// TVM's kind order of dtypes (int < uint < float; bfloat apart) and their bits.
struct DTypeRank {
  int code;
  int bits;
};

DTypeRank rankOf(DType dtype) {
  const int bits = dtype == DType::Bool ? 1 : static_cast<int>(dtypeSize(dtype) * 8);
  if (dtype == DType::BFloat16) return {4, bits};
  if (isFloat(dtype)) return {2, bits};
  if (dtype == DType::UInt8 || dtype == DType::Bool) return {1, bits};
  return {0, bits};
}

/// Whether casting `from` to `to` keeps every value (TVM's IsWidenCast).
bool widens(DType from, DType to) {
  const DTypeRank a = rankOf(from), b = rankOf(to);
  if (a.code == b.code && a.bits <= b.bits) return true;
  if (a.code == 4 || b.code == 4) return false;
  return a.code < b.code && a.bits <= b.bits;
}

/// cast(cast(x, t1), t2) → cast(x, t2) when x → t1 widens (TVM's SimplifyConsecutiveCast).
RewriteCallback simplifyConsecutiveCast() {
  Pattern x = wildcard();
  Pattern first = callOp("cast", {x});
  return {callOp("cast", {first}), [x, first](const Expr& pre, const Expr& post, const PatternNodeMap& nodes) -> Result<Expr> {
            const Expr& inner = pre->as<CallNode>()->args[0];
            const TensorTypeNode* data = tensorTypeOf(inner->as<CallNode>()->args[0]);
            const TensorTypeNode* middle = tensorTypeOf(inner);
            const TensorTypeNode* result = tensorTypeOf(pre);
            if (!data || !middle || !result || !widens(data->dtype, middle->dtype)) return post;
            return op("cast", {nodes.at(x)[0]}, {{"dtype", std::string(dtypeName(result->dtype))}}, pre);
          }, true};
}

/// A scalar constant of `dtype` holding `value` (TVM's MakeConstantScalar).
Expr scalarConstant(DType dtype, double value, const Expr& replaced) {
  return ConstantNode::make(TensorData::scalar(dtype, value), replaced->origin());
}

/// x + x → x * 2 (TVM's SimplifyAdd).
RewriteCallback simplifyAdd() {
  return {callOp("add", {wildcard(), wildcard()}), [](const Expr& pre, const Expr& post, const PatternNodeMap&) -> Result<Expr> {
            const auto& args = post->as<CallNode>()->args;
            const TensorTypeNode* type = tensorTypeOf(pre);
            if (args[0] != args[1] || !type) return post;
            return op("multiply", {args[0], scalarConstant(type->dtype, 2, pre)}, {}, pre);
          }, true};
}

/// n / sqrt(x) → n * rsqrt(x) (TVM's SimplifyRSqrt).
RewriteCallback simplifyRSqrt() {
  Pattern numerator = wildcard(), x = wildcard();
  return {callOp("divide", {numerator, callOp("sqrt", {x})}),
          [numerator, x](const Expr& pre, const Expr&, const PatternNodeMap& nodes) -> Result<Expr> {
            BYOC_ASSIGN_OR_RETURN(Expr root, op("rsqrt", {nodes.at(x)[0]}, {}, pre));
            return op("multiply", {nodes.at(numerator)[0], root}, {}, pre);
          }, true};
}

/// A transpose that keeps every axis in place, or a layout_transform to its own layout → x
/// (TVM's SimplifyNoOpTranspose).
RewriteCallback simplifyNoOpTranspose() {
  Pattern x = wildcard();
  return {alt(callOp("transpose", {x}), callOp("layout_transform", {x})),
          [x](const Expr& pre, const Expr& post, const PatternNodeMap& nodes) -> Result<Expr> {
            const auto* call = post->as<CallNode>();
            const TensorTypeNode* type = tensorTypeOf(pre);
            if (!type) return post;
            if (call->opDef()->name == "layout_transform" &&
                ops::stringAttr(call->attrs, "src_layout") != ops::stringAttr(call->attrs, "dst_layout"))
              return post;
            BYOC_ASSIGN_OR_RETURN(std::vector<int64_t> order, axisOrder(*call, type->shape.size()));
            for (std::size_t i = 0; i < order.size(); ++i)
              if (order[i] != static_cast<int64_t>(i)) return post;
            return nodes.at(x)[0];
          }, true};
}

/// A broadcasting op of zeros/ones (or their `_like` forms) and a value x of the result's type →
/// the op of a scalar 0 or 1 and x (TVM's FullElementwise, without full and full_like, which this
/// tool lacks).
RewriteCallback fullElementwise() {
  Pattern x = wildcard();
  Pattern filled = alt(alt(callOp("ones", {}), callOp("ones_like", {wildcard()})),
                       alt(callOp("zeros", {}), callOp("zeros_like", {wildcard()})));
  Pattern broadcast = hasAttr(wildcard(), {{"TOpPattern", static_cast<int64_t>(FusionKind::Broadcast)}});
  return {alt(isCall(broadcast, {filled, x}), isCall(broadcast, {x, filled})),
          [x](const Expr& pre, const Expr& post, const PatternNodeMap& nodes) -> Result<Expr> {
            const auto* call = post->as<CallNode>();
            const Expr& kept = nodes.at(x)[0];
            const std::size_t keptSide = call->args[1] == kept ? 1 : 0;
            const Expr& keptPre = pre->as<CallNode>()->args[keptSide];
            const TensorTypeNode* type = tensorTypeOf(pre);
            if (!type || !keptPre->type() || !typeEqual(keptPre->type(), pre->type())) return post;
            const std::string& filler = call->args[1 - keptSide]->as<CallNode>()->opDef()->name;
            std::vector<Expr> args = call->args;
            args[1 - keptSide] = scalarConstant(type->dtype, filler.starts_with("ones") ? 1 : 0, pre);
            return Expr(CallNode::make(call->callee, std::move(args), call->attrs, pre->origin()));
          }, true};
}

/// `name(a, b)` of two constants computed now (TVM's FoldConstantExpr), or nothing when the
/// reference evaluator does not compute it.
std::optional<Expr> folded(std::string_view name, const Expr& a, const Expr& b, const Expr& replaced) {
  const OpDef* def = OpRegistry::global().find(name);
  const TensorData inputs[] = {a->as<ConstantNode>()->data, b->as<ConstantNode>()->data};
  std::optional<TensorData> value = referenceConstantEvaluator().evaluate(*def, {}, inputs);
  if (!value) return std::nullopt;
  return Expr(ConstantNode::make(std::move(*value), replaced->origin()));
}

/// (x + c1) * c2 → x * c2 + (c1 * c2), the constant folded: the multiply-add order FoldScaleAxis
/// folds (TVM's SwitchAddMultiply).
RewriteCallback switchAddMultiply() {
  Pattern x = wildcard(), c1 = isConstant(), c2 = isConstant();
  return {callOp("multiply", {callOp("add", {x, c1}), c2}),
          [x, c1, c2](const Expr& pre, const Expr& post, const PatternNodeMap& nodes) -> Result<Expr> {
            const Expr& value = nodes.at(x)[0];
            if (value->as<ConstantNode>()) return post;
            std::optional<Expr> shift = folded("multiply", nodes.at(c1)[0], nodes.at(c2)[0], pre);
            if (!shift) return post;
            BYOC_ASSIGN_OR_RETURN(Expr scaled, op("multiply", {value, nodes.at(c2)[0]}, {}, pre));
            return op("add", {scaled, *shift}, {}, pre);
          }, true};
}

/// (x * c1) * c2 → x * (c1 * c2) and (x + c1) + c2 → x + (c1 + c2), the constants folded (TVM's
/// SimplifyAdjacentMultiplyOrAdd).
RewriteCallback simplifyAdjacentMultiplyOrAdd() {
  Pattern x = wildcard(), c1 = isConstant(), c2 = isConstant();
  return {alt(callOp("multiply", {callOp("multiply", {x, c1}), c2}), callOp("add", {callOp("add", {x, c1}), c2})),
          [x, c1, c2](const Expr& pre, const Expr& post, const PatternNodeMap& nodes) -> Result<Expr> {
            const Expr& value = nodes.at(x)[0];
            const std::string& name = pre->as<CallNode>()->opDef()->name;
            if (value->as<ConstantNode>()) return post;
            std::optional<Expr> constant = folded(name, nodes.at(c1)[0], nodes.at(c2)[0], pre);
            if (!constant) return post;
            return op(name, {value, *constant}, {}, pre);
          }, true};
}

/// argmax or argmin of a dequantized tensor → of the tensor itself (TVM's SimplifyDQArgMax and
/// SimplifyDQArgMin; this tool has no argsort).
RewriteCallback simplifyDequantizedArg(const char* name) {
  Pattern x = wildcard();
  return {callOp(name, {callOp("qnn.dequantize", {x, wildcard(), wildcard()})}),
          [x](const Expr& pre, const Expr& post, const PatternNodeMap& nodes) -> Result<Expr> {
            const auto* call = post->as<CallNode>();
            return Expr(CallNode::make(call->callee, {nodes.at(x)[0]}, call->attrs, pre->origin()));
          }, true};
}

/// The smallest and largest values of `dtype`, as TVM's min_value and max_value give them.
std::pair<double, double> dtypeRange(DType dtype) {
  switch (dtype) {
    case DType::Int8: return {-128, 127};
    case DType::Int16: return {-32768, 32767};
    case DType::Int32: return {std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max()};
    case DType::Int64:
      return {static_cast<double>(std::numeric_limits<int64_t>::min()), static_cast<double>(std::numeric_limits<int64_t>::max())};
    case DType::UInt8: return {0, 255};
    case DType::Bool: return {0, 1};
    case DType::Float16: return {-65504, 65504};
    case DType::BFloat16: return {-3.38953139e38, 3.38953139e38};
    case DType::Float32: return {-std::numeric_limits<float>::max(), std::numeric_limits<float>::max()};
    case DType::Float64: return {-std::numeric_limits<double>::max(), std::numeric_limits<double>::max()};
  }
  return {0, 0};
}

/// clip(x) → cast → … → cast: the casts to a dtype that holds every clipped value dropped, and one
/// cast to the result's dtype added when the last one left has another (TVM's
/// SimplifyClipAndConsecutiveCast): cast(cast(clip(x, 0, 255), uint8), int32) of an int32 x is the clip.
RewriteCallback simplifyClipAndConsecutiveCast() {
  return {callOp("cast", {wildcard()}), [](const Expr& pre, const Expr& post, const PatternNodeMap&) -> Result<Expr> {
            // The casts from the root down, read on `pre` for their types and on `post` to rebuild.
            std::vector<std::pair<const CallNode*, DType>> casts;
            Expr before = pre, after = post;
            for (const CallNode* call = before->as<CallNode>(); call && call->opDef() && call->opDef()->name == "cast";
                 call = before->as<CallNode>()) {
              const auto* rebuilt = after->as<CallNode>();
              const TensorTypeNode* type = tensorTypeOf(before);
              if (!rebuilt || rebuilt->callee != call->callee || !type) return post;
              casts.push_back({rebuilt, type->dtype});
              before = call->args[0];
              after = rebuilt->args[0];
            }
            const auto* clip = after->as<CallNode>();
            const TensorTypeNode* clipType = tensorTypeOf(before);
            if (!clip || !clip->opDef() || clip->opDef()->name != "clip" || !clipType) return post;
            BYOC_ASSIGN_OR_RETURN(const ops::ClipAttrs bounds, ops::readClipAttrs("clip", clip->attrs));
            const auto [low, high] = bounds;
            std::vector<std::pair<const CallNode*, DType>> kept;
            for (const auto& cast : casts) {
              const auto [least, most] = dtypeRange(cast.second);
              if (!(high <= most && low >= least)) kept.push_back(cast);
            }
            if (kept.size() == casts.size()) return post;
            Expr result = after;
            for (auto cast = kept.rbegin(); cast != kept.rend(); ++cast) {
              BYOC_ASSIGN_OR_RETURN(result, op("cast", {result}, cast->first->attrs, pre));
            }
            const DType last = kept.empty() ? clipType->dtype : kept.front().second;
            if (last != casts.front().second) {
              BYOC_ASSIGN_OR_RETURN(result, op("cast", {result}, {{"dtype", std::string(dtypeName(casts.front().second))}}, pre));
            }
            // Dropping the one cast and adding it back gives what was there: no change.
            return structuralEqual(result, post) ? post : result;
          }, true};
}

/// clip(x) whose bounds hold every value of x's dtype → x (TVM's SimplifyClip); not after a
/// qnn.requantize or qnn.add, whose clip the dnnl legalization reads.
RewriteCallback simplifyClip() {
  Pattern x = wildcard();
  return {callOp("clip", {x}), [x](const Expr& pre, const Expr& post, const PatternNodeMap& nodes) -> Result<Expr> {
            const TensorTypeNode* type = tensorTypeOf(pre);
            const auto* clip = post->as<CallNode>();
            const auto* child = clip->args[0]->as<CallNode>();
            const std::string childOp = child && child->opDef() ? child->opDef()->name : "";
            if (!type || childOp == "qnn.requantize" || childOp == "qnn.add") return post;
            BYOC_ASSIGN_OR_RETURN(const ops::ClipAttrs bounds, ops::readClipAttrs("clip", clip->attrs));
            const auto [low, high] = bounds;
            const auto [least, most] = dtypeRange(type->dtype);
            return high >= most && low <= least ? nodes.at(x)[0] : post;
          }, true};
}

/// The first value of a constant (TVM reads int32, float32 and float64 ones), else 1.
double firstValueOr1(const PatternNodeMap& nodes, const Pattern& constant, DType dtype) {
  auto found = nodes.find(constant);
  if (found == nodes.end() || found->second.empty()) return 1;
  if (dtype != DType::Int32 && dtype != DType::Float32 && dtype != DType::Float64) return 1;
  const auto* data = found->second[0]->as<ConstantNode>();
  return data && data->data.numElements() > 0 ? data->data.elementAsDouble(0) : 1;
}

/// a·x·x + b·x·y + c·y·y, in any order and association → a·(x + p·y)·(x + q·y) with p, q the roots
/// of a·t² − b·t + c; unchanged when they are complex (TVM's SimplifyBinomial).
RewriteCallback simplifyBinomial() {
  Pattern x = wildcard(), y = wildcard(), a = isConstant(), b = isConstant(), c = isConstant();
  auto mul = [](Pattern l, Pattern r) { return callOp("multiply", {std::move(l), std::move(r)}); };
  auto add = [](Pattern l, Pattern r) { return callOp("add", {std::move(l), std::move(r)}); };
  Pattern xx = alt(alt(mul(a, mul(x, x)), mul(x, mul(a, x))), mul(x, x));
  Pattern xy = alt(alt(alt(mul(b, mul(x, y)), mul(x, mul(b, y))), mul(y, mul(b, x))), mul(x, y));
  Pattern yy = alt(alt(mul(c, mul(y, y)), mul(y, mul(c, y))), mul(y, y));
  Pattern root = alt(alt(add(add(xy, xx), yy), add(add(xy, yy), xx)), add(add(xx, yy), xy));
  return {root, [x, y, a, b, c](const Expr& pre, const Expr&, const PatternNodeMap& nodes) -> Result<Expr> {
            const TensorTypeNode* type = tensorTypeOf(pre);
            if (!type) return pre;
            Expr first = nodes.at(x)[0], second = nodes.at(y)[0];
            double av = firstValueOr1(nodes, a, type->dtype), bv = firstValueOr1(nodes, b, type->dtype),
                   cv = firstValueOr1(nodes, c, type->dtype);
            if (cv == 1 && av > 1) {
              std::swap(first, second);
              std::swap(av, cv);
            }
            const double square = bv * bv - 4 * av * cv;
            if (square < 0) return pre;  // as TVM's, which returns the matched expression as it was
            const bool same = square < 1e-4;
            const double root = std::sqrt(square);
            auto factor = [&](double value) -> Result<Expr> {
              BYOC_ASSIGN_OR_RETURN(Expr scaled, op("multiply", {second, scalarConstant(type->dtype, value, pre)}, {}, pre));
              return op("add", {first, scaled}, {}, pre);
            };
            BYOC_ASSIGN_OR_RETURN(Expr p, factor((bv + root) / (2 * av)));
            Expr q = p;
            if (!same) {
              BYOC_ASSIGN_OR_RETURN(q, factor((bv - root) / (2 * av)));
            }
            BYOC_ASSIGN_OR_RETURN(Expr product, op("multiply", {p, q}, {}, pre));
            return op("multiply", {scalarConstant(type->dtype, av, pre), product}, {}, pre);
          }, true};
}

std::vector<RewriteCallback> rules() {
  return {concretizeLike("zeros_like", "zeros"),
          concretizeLike("ones_like", "ones"),
          simplifyAdd(),
          simplifyRSqrt(),
          eliminateIdentity(),
          simplifyReshape(),
          simplifyTranspose(),
          simplifyNoOpTranspose(),
          simplifySameCast(),
          simplifyConsecutiveCast(),
          fullElementwise(),
          switchAddMultiply(),
          simplifyAdjacentMultiplyOrAdd(),
          simplifyDequantizedArg("argmax"),
          simplifyDequantizedArg("argmin"),
          simplifyClipAndConsecutiveCast(),
          simplifyClip(),
          simplifyBinomial()};
}

PassInfo simplifyExprInfo() {
  return {"SimplifyExpr", "TVM's algebraic simplifications: identities, reshape and transpose pairs, casts, constants", 0,
          {"InferType"},
          "Rewrites, in TVM's order and to a fixed point: zeros_like/ones_like of a static type into zeros/ones; x+x "
          "into x*2; n/sqrt(x) into n*rsqrt(x); x+0, x-0, x*1, x/1 into x when no broadcast is lost; consecutive "
          "reshapes into one; consecutive transposes or layout_transforms into one transpose or nothing; a transpose "
          "that moves no axis into its input; a cast to the same dtype into its input; a widening cast followed by "
          "another cast into one cast; zeros/ones next to a value of the result's type in a broadcasting op into a "
          "scalar 0/1; (x+c1)*c2 into x*c2+c1*c2; (x*c1)*c2 and (x+c1)+c2 into one op of x and a folded constant; "
          "argmax/argmin of a qnn.dequantize into argmax/argmin of its input; the casts after a clip to dtypes that "
          "hold the clipped range dropped; a clip whose bounds hold its input's whole dtype removed; "
          "a*x*x+b*x*y+c*y*y factored into a*(x+p*y)*(x+q*y) when the roots are real. As TVM's SimplifyExpr, "
          "without the rules of ops this tool lacks (full_like, reshape_like, collapse_sum_like, broadcast_to_like, "
          "cast_like, argsort); needs types.",
          {}};
}

}  // namespace

PassPtr createSimplifyExprPass() {
  return makeFunctionPass(simplifyExprInfo(), [](const Function& function, const Module& module, PassContext& context) -> Result<Function> {
    std::string name;
    for (const auto& [entryName, entry] : module.functions())
      if (entry == function) name = entryName;
    // Types the function being rewritten inside its module, so that calls of other functions type.
    ExprTyper typer = [&](const Expr& expr) -> Result<Expr> {
      Function candidate = downcast<FunctionNode>(expr);
      if (!candidate) return makeError("SimplifyExpr: a rule replaced the whole function");
      Module single = module;
      single.set(name, candidate);
      BYOC_ASSIGN_OR_RETURN(Module typed, inferTypes(single, TypeReuse::KeepTypedSubgraphs, &context));
      return Expr(typed.find(name));
    };
    BYOC_ASSIGN_OR_RETURN(Expr rewritten, rewrite(rules(), function, typer));
    Function result = downcast<FunctionNode>(rewritten);
    if (!result) return makeError("SimplifyExpr: a rule replaced the whole function");
    return result;
  });
}

PassRegistration simplifyExprRegistration() {
  return {simplifyExprInfo(), [](const Attrs&) { return Result<PassPtr>(createSimplifyExprPass()); }};
}

}  // namespace byoc
