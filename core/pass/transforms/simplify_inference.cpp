/// \file
/// SimplifyInference (contract in the header).

#include "pass/transforms/simplify_inference.h"

#include "ir/op.h"
#include "ir/ops/attr_views.h"
#include "pass/analysis/function_utils.h"

namespace byoc {

namespace simplify_inference {

class Simplifier final : public OpaqueFunctionSkippingMutator {
 protected:
  Result<Expr> rewriteTupleGetItem(const TupleGetItem& pre, const TupleGetItem& item) override {
    const auto* call = item->tuple->as<CallNode>();
    const OpDef* def = call ? call->opDef() : nullptr;
    if (!def || item->index != 0) return Expr(item);
    Origin origin = Origin::unite({item->origin(), call->origin()});
    if (def->name == "nn.dropout") return call->args[0];
    if (def->name != "nn.batch_norm") return Expr(item);
    return batchNorm(*call, pre->tuple->as<CallNode>()->args[0]->type(), origin);
  }

 private:
  Result<Expr> batchNorm(const CallNode& call, const Type& dataType, const Origin& origin) {
    const auto* tensor = dataType ? dataType->as<TensorTypeNode>() : nullptr;
    if (!tensor) return makeError("SimplifyInference: nn.batch_norm needs a typed tensor input; run InferType first");
    const Expr& data = call.args[0];
    const Expr& gamma = call.args[1];
    const Expr& beta = call.args[2];
    const Expr& mean = call.args[3];
    const Expr& variance = call.args[4];
    auto op = [&origin](const char* name, std::vector<Expr> args, const Attrs& attrs = {}) -> Result<Expr> {
      BYOC_ASSIGN_OR_RETURN(Call built, makeOpCall(name, std::move(args), attrs, origin));
      return Expr(built);
    };
    auto scalar = [&](double value) { return Expr(ConstantNode::make(TensorData::scalar(tensor->dtype, value), origin)); };

    BYOC_ASSIGN_OR_RETURN(const ops::NormAttrs norm, ops::readNormAttrs("nn.batch_norm", call.attrs, tensor->shape.size()));
    const auto rank = static_cast<int64_t>(tensor->shape.size());
    const auto axis = static_cast<int64_t>(norm.axis);
    BYOC_ASSIGN_OR_RETURN(Expr shifted, op("add", {variance, scalar(norm.epsilon)}));
    BYOC_ASSIGN_OR_RETURN(Expr deviation, op("sqrt", {shifted}));
    BYOC_ASSIGN_OR_RETURN(Expr scale, op("divide", {scalar(1.0), deviation}));
    if (norm.scale) {
      BYOC_ASSIGN_OR_RETURN(scale, op("multiply", {scale, gamma}));
    }
    BYOC_ASSIGN_OR_RETURN(Expr negated, op("negative", {mean}));
    BYOC_ASSIGN_OR_RETURN(Expr shift, op("multiply", {negated, scale}));
    if (norm.center) {
      BYOC_ASSIGN_OR_RETURN(shift, op("add", {shift, beta}));
    }
    if (axis + 1 < rank) {
      Attrs expand{{"axis", AttrValue(1)}, {"num_newaxis", AttrValue(rank - axis - 1)}};
      BYOC_ASSIGN_OR_RETURN(scale, op("expand_dims", {scale}, expand));
      BYOC_ASSIGN_OR_RETURN(shift, op("expand_dims", {shift}, expand));
    }
    BYOC_ASSIGN_OR_RETURN(Expr scaled, op("multiply", {data, scale}));
    return op("add", {scaled, shift});
  }
};

}  // namespace simplify_inference

Result<Function> simplifyInference(const Function& function) {
  simplify_inference::Simplifier simplifier;
  BYOC_ASSIGN_OR_RETURN(Expr body, simplifier.mutate(function->body));
  return withBody(function, body);
}

namespace {

PassInfo simplifyInferenceInfo() {
  return {"SimplifyInference", "rewrites batch_norm into multiply/add and removes dropout", 0, {"InferType"},
          "Replaces the output of nn.batch_norm by data * scale + shift computed from its statistics, and the "
          "output of nn.dropout by its input. nn.layer_norm stays. Needs types; InferType runs after it.",
          {}};
}

}  // namespace

PassPtr createSimplifyInferencePass() {
  return makeFunctionPass(simplifyInferenceInfo(), [](const Function& function, const Module&, PassContext&) {
    return simplifyInference(function);
  });
}

PassRegistration simplifyInferenceRegistration() {
  return {simplifyInferenceInfo(), [](const Attrs&) { return Result<PassPtr>(createSimplifyInferencePass()); }};
}

}  // namespace byoc
