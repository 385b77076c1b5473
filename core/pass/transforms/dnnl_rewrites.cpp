/// \file
/// RewriteLayerNorm and RewriteDenseBiasGeluReshapeLast (contracts in the header).

#include "pass/transforms/dnnl_rewrites.h"

#include "ir/op.h"
#include "pass/analysis/function_utils.h"
#include "pattern/rewrite.h"

namespace byoc {

namespace {

Pattern scalar(DType dtype, double value) { return isExpr(ConstantNode::make(TensorData::scalar(dtype, value))); }

/// A call standing for (part of) the replaced `root`, whose origin it takes.
Result<Expr> opCall(const Expr& root, std::string_view name, std::vector<Expr> args, const Attrs& attrs = {}) {
  BYOC_ASSIGN_OR_RETURN(Call call, makeOpCall(name, std::move(args), attrs, root->origin()));
  return Expr(call);
}

RewriteCallback layerNorm() {
  Pattern data = wildcard(), gamma = wildcard(), beta = wildcard();
  Pattern mean = callOp("mean", {data});
  Pattern diff = callOp("subtract", {data, mean});
  Pattern squared = callOp("power", {diff | callOp("cast", {diff}), scalar(DType::Int32, 2) | scalar(DType::Float32, 2.0)});
  Pattern variance = callOp("add", {callOp("mean", {squared}), scalar(DType::Float32, 1e-5)});
  Pattern normalized = callOp("divide", {diff, callOp("sqrt", {variance})});
  return {callOp("add", {callOp("multiply", {normalized, gamma}), beta}),
          [data, gamma, beta](const Expr& pre, const Expr&, const PatternNodeMap& nodes) {
            return opCall(pre, "nn.layer_norm", {nodes.at(data)[0], nodes.at(gamma)[0], nodes.at(beta)[0]});
          }};
}

/// The dense → reshape → bias add rewrite, with the erf gelu after the add or without it.
RewriteCallback denseReshapeBias(bool withGelu) {
  Pattern data = wildcard(), weight = wildcard(), bias = wildcard();
  Pattern c1 = wildcard(), c2 = wildcard(), c3 = wildcard();
  Pattern reshaped = callOp("reshape", {callOp("nn.dense", {data, weight})});
  Pattern added = callOp("add", {bias, reshaped});
  Pattern root = added;
  if (withGelu) {
    Pattern erf = callOp("add", {callOp("erf", {callOp("divide", {added, c1})}), c2});
    root = callOp("multiply", {callOp("multiply", {added, erf}), c3});
  }
  return {root, [=](const Expr& pre, const Expr&, const PatternNodeMap& nodes) -> Result<Expr> {
            BYOC_ASSIGN_OR_RETURN(Expr dense, opCall(pre, "nn.dense", {nodes.at(data)[0], nodes.at(weight)[0]}));
            BYOC_ASSIGN_OR_RETURN(Expr result, opCall(pre, "add", {nodes.at(bias)[0], dense}));
            if (withGelu) {
              BYOC_ASSIGN_OR_RETURN(Expr divided, opCall(pre, "divide", {result, nodes.at(c1)[0]}));
              BYOC_ASSIGN_OR_RETURN(Expr erf, opCall(pre, "erf", {divided}));
              BYOC_ASSIGN_OR_RETURN(Expr shifted, opCall(pre, "add", {erf, nodes.at(c2)[0]}));
              BYOC_ASSIGN_OR_RETURN(Expr product, opCall(pre, "multiply", {result, shifted}));
              BYOC_ASSIGN_OR_RETURN(result, opCall(pre, "multiply", {product, nodes.at(c3)[0]}));
            }
            const auto* reshape = nodes.at(reshaped)[0]->as<CallNode>();
            const AttrValue* newshape = reshape->attrs.find("newshape");
            if (!newshape) return makeError("RewriteDenseBiasGeluReshapeLast: the matched reshape has no newshape");
            return opCall(pre, "reshape", {result}, {{"newshape", *newshape}});
          }};
}

/// A pass applying `callbacks` to each function, to a fixed point.
PassPtr rewritePass(const PassInfo& info, std::vector<RewriteCallback> callbacks) {
  return makeFunctionPass(info, [callbacks = std::move(callbacks)](const Function& function, const Module&,
                                                                   PassContext&) -> Result<Function> {
    BYOC_ASSIGN_OR_RETURN(Expr body, rewrite(callbacks, function->body));
    return withBody(function, body);
  });
}

PassInfo layerNormInfo() {
  return {"RewriteLayerNorm", "replaces a spelled-out layer normalisation by nn.layer_norm, as TVM's dnnl flow does", 0,
          {"InferType"},
          "Replaces add(multiply(divide(d, sqrt(add(mean(power(d, 2)), 1e-05f))), gamma), beta), d = subtract(x, mean(x)), "
          "by nn.layer_norm(x, gamma, beta), as TVM's rewrite_layer_norm does (python/tvm/relay/op/contrib/dnnl.py). "
          "InferType runs after it.",
          {}};
}

PassInfo denseInfo() {
  return {"RewriteDenseBiasGeluReshapeLast",
          "moves the reshape after an nn.dense past its bias add and erf gelu, as TVM's dnnl flow does", 0,
          {"InferType"},
          "Rewrites add(bias, reshape(nn.dense(x, w))), and the erf gelu after it, into the same computation on "
          "nn.dense(x, w) followed by the reshape, as TVM's rewrite_dense_bias_gelu_reshape_last does "
          "(python/tvm/relay/op/contrib/dnnl.py). InferType runs after it.",
          {}};
}

}  // namespace

PassPtr createRewriteLayerNormPass() { return rewritePass(layerNormInfo(), {layerNorm()}); }

PassPtr createRewriteDenseBiasGeluReshapeLastPass() {
  return rewritePass(denseInfo(), {denseReshapeBias(true), denseReshapeBias(false)});
}

PassRegistration rewriteLayerNormRegistration() {
  return {layerNormInfo(), [](const Attrs&) { return Result<PassPtr>(createRewriteLayerNormPass()); }};
}

PassRegistration rewriteDenseBiasGeluReshapeLastRegistration() {
  return {denseInfo(), [](const Attrs&) { return Result<PassPtr>(createRewriteDenseBiasGeluReshapeLastPass()); }};
}

}  // namespace byoc
