#include "pass/transforms/canonicalize_ops.h"

#include "ir/op.h"
#include "ir/traversal.h"
#include "pass/pass.h"

namespace byoc {

namespace canonicalize_ops {

class BiasAddToAdd final : public ExprMutator {
 protected:
  Expr rewrite(const Expr& pre, const Expr& post) override {
    const auto* call = post->as<CallNode>();
    if (!call || !call->opDef() || call->opDef()->name != "nn.bias_add") return post;
    const auto* dataType = pre->as<CallNode>()->args[0]->type().get();
    const auto* tensor = dataType ? dataType->as<TensorTypeNode>() : nullptr;
    if (!tensor) return post;  // untyped: leave it for InferType to report
    int64_t rank = static_cast<int64_t>(tensor->shape.size());
    int64_t axis = call->attrs.find("axis")->asInt();
    if (axis < 0) axis += rank;
    Expr bias = call->args[1];
    if (int64_t newAxes = rank - axis - 1; newAxes > 0)
      bias = makeOpCall("expand_dims", {bias}, Attrs{{"axis", 1}, {"num_newaxis", newAxes}}, call->args[1]->origin()).value();
    return makeOpCall("add", {call->args[0], bias}, {}, post->origin()).value();
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
  return makeFunctionPass(std::move(info), [](const Function& function, const Module&, PassContext&) {
    canonicalize_ops::BiasAddToAdd mutator;
    return Result<Function>(downcast<FunctionNode>(mutator.mutate(function)));
  });
}

}  // namespace byoc
