/// \file
/// Composite calls: the anchor found in the composite's body, lowered with the bias, residual
/// and post-ops the composite's name asks for (the order of TVM's DNNL runtime).

#include "ir/op.h"
#include "ir/traversal.h"
#include "runtime/dnnl/anchor_ops.h"
#include "runtime/dnnl/lowering_helpers.h"
#include "runtime/dnnl/ops.h"

namespace byoc::dnnl_backend {

using dnnl::algorithm;

Result<std::vector<Tensor>> lowerCompositeCall(Lowering& lowering, const CallNode& call, const FunctionNode& composite,
                                               const std::vector<Tensor>& inputs, bool lastUseOfResidual) {
  const std::string name = composite.attrs.find("Composite")->asString();
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
  Fusion fusion;
  const std::size_t needed = 2 + (has("_bias") ? 1 : 0) + (has("_sum") ? 1 : 0);
  if (inputs.size() != needed || call.args.size() != inputs.size())
    return makeError("composite \"" + name + "\" takes " + std::to_string(needed) + " inputs, found " +
                     std::to_string(inputs.size()));
  if (has("_bias")) fusion.bias = &inputs[2];
  if (has("_sum")) {
    fusion.sum = &inputs.back();
    fusion.sumInPlace = lastUseOfResidual;
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
    if (dense) return lowerDense(lowering, *anchor, inputs, fusion);
    return lowerConvolution(lowering, *anchor, deconv, inputs, fusion);
  });
}

}  // namespace byoc::dnnl_backend
