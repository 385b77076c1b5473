#include "pass/transforms/canonicalize_ops.h"

#include "ir/op.h"
#include "ir/ops/attr_views.h"
#include "ir/traversal.h"
#include "pass/pass.h"

namespace byoc {

namespace canonicalize_ops {

class BiasAddToAdd final : public ExprMutator {
 protected:
  Result<Expr> rewriteCall(const Call& pre, const Call& call) override {
    if (!call->opDef() || call->opDef()->name != "nn.bias_add") return Expr(call);
    const auto* dataType = pre->args[0]->type().get();
    const auto* tensor = dataType ? dataType->as<TensorTypeNode>() : nullptr;
    if (!tensor) return Expr(call);  // untyped: leave it for InferType to report
    const auto rank = static_cast<int64_t>(tensor->shape.size());
    BYOC_ASSIGN_OR_RETURN(const std::size_t normalizedAxis, ops::axisAttr("nn.bias_add", call->attrs, tensor->shape.size()));
    const auto axis = static_cast<int64_t>(normalizedAxis);
    Expr bias = call->args[1];
    if (int64_t newAxes = rank - axis - 1; newAxes > 0) {
      BYOC_ASSIGN_OR_RETURN(bias, makeOpCall("expand_dims", {bias}, Attrs{{"axis", 1}, {"num_newaxis", newAxes}},
                                             call->args[1]->origin()));
    }
    BYOC_ASSIGN_OR_RETURN(Call add, makeOpCall("add", {call->args[0], bias}, {}, call->origin()));
    return Expr(add);
  }
};

}  // namespace canonicalize_ops

PassPtr createCanonicalizeOpsPass() {
  PassInfo info;
  info.name = "CanonicalizeOps";
  info.summary = "rewrites nn.bias_add into add with a broadcast bias";
  info.description = "nn.bias_add(x, b, axis) becomes add(x, expand_dims(b, axis=1, num_newaxis=rank(x)-axis-1)), the "
                     "form the dnnl patterns match. Input and output are typed.";
  info.optLevel = 3;
  info.required = {"InferType"};
  return makeFunctionPass(std::move(info), [](const Function& function, const Module&, PassContext&) -> Result<Function> {
    canonicalize_ops::BiasAddToAdd mutator;
    BYOC_ASSIGN_OR_RETURN(Expr rewritten, mutator.mutate(function));
    return Result<Function>(downcast<FunctionNode>(rewritten));
  });
}

}  // namespace byoc
