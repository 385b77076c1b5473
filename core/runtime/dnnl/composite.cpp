/// \file
/// Composite kernels: the anchor lowered with the bias, residual and post-ops the composite's name
/// asks for (the order of TVM's DNNL runtime); composites without an anchor (gelu, layer norm,
/// scale and shift) as their own primitives. The kernel graph builder has already read the
/// composite's body: the inputs come in role order and the attributes hold what the body fixed.

#include <algorithm>

#include "ir/ops/attr_views.h"
#include "ir/ops/op_helpers.h"
#include "runtime/dnnl/anchor_ops.h"
#include "runtime/dnnl/kernel_rules.h"
#include "runtime/dnnl/lowering_helpers.h"
#include "runtime/dnnl/ops.h"
#include "runtime/dnnl/qnn_ops.h"
#include "runtime/dnnl/swish.h"

namespace byoc::dnnl_backend {

using dnnl::algorithm;

namespace {

/// `dnnl.scale_shift[_relu]` (an inference batch norm after SimplifyInference): data · scale + shift
/// [→ relu] as one binary multiply primitive with a binary add and an optional relu post-op; scale
/// and shift broadcast onto the data.
Result<std::vector<Tensor>> lowerScaleShift(Lowering& lowering, const Kernel& kernel, const std::vector<Tensor>& inputs) {
  const Shape& out = kernel.outputs[0].shape;
  // A broadcast operand as plain memory of the result's rank (leading 1s added).
  const auto broadcast = [&](std::size_t index) {
    Shape dims = kernel.inputs[index].shape;
    dims.insert(dims.begin(), out.size() - std::min(out.size(), dims.size()), 1);
    return lowering.view(lowering.plain(inputs[index]), plainDesc(dimsOf(dims)));
  };
  const Tensor& src = inputs[0];
  const Tensor scale = broadcast(1);
  const Tensor shift = broadcast(2);
  dnnl::post_ops postOps;
  postOps.append_binary(algorithm::binary_add, shift.desc());
  if (kernel.name.ends_with(".scale_shift_relu")) postOps.append_eltwise(1.0f, algorithm::eltwise_relu, 0, 0);
  dnnl::primitive_attr attr;
  attr.set_post_ops(postOps);
  dnnl::binary::desc desc(algorithm::binary_mul, src.desc(), scale.desc(), src.desc());
  dnnl::binary::primitive_desc pd(desc, attr, lowering.engine);
  Tensor dst = lowering.fresh(pd.dst_desc());
  lowering.add(dnnl::binary(pd), {{DNNL_ARG_SRC_0, src.memory},
                                  {DNNL_ARG_SRC_1, scale.memory},
                                  {DNNL_ARG_ATTR_MULTIPLE_POST_OP(0) | DNNL_ARG_SRC_1, shift.memory},
                                  {DNNL_ARG_DST, dst.memory}});
  return std::vector<Tensor>{dst};
}

/// x · sigmoid(x) in place over `tensor`'s whole memory (a blocked format's zero padding stays zero).
void appendSwish(Lowering& lowering, const Tensor& tensor) {
  const dnnl::memory memory = tensor.memory;
  const auto count = static_cast<std::int64_t>(memory.get_desc().get_size() / sizeof(float));
  lowering.addHost([memory, count] { swishInPlace(static_cast<float*>(memory.get_data_handle()), count); },
                   {{DNNL_ARG_SRC, memory}, {DNNL_ARG_DST, memory}});
}

/// A convolution, deconvolution or dense anchor with its bias, residual and eltwise post-ops.
Result<std::vector<Tensor>> lowerAnchored(Lowering& lowering, const CompositeKind& kind, const Kernel& kernel,
                                          const std::vector<Tensor>& inputs, bool residualOverwritable) {
  Fusion fusion;
  const std::vector<Tensor> anchorInputs{inputs[0], inputs[1]};
  if (kind.bias) fusion.bias = &inputs[2];
  if (kind.sum) {
    fusion.sum = &inputs.back();
    fusion.sumInPlace = residualOverwritable;
    fusion.postOps.append_sum(1.0f);
  }
  if (kind.has("_relu")) fusion.postOps.append_eltwise(1.0f, algorithm::eltwise_relu, 0, 0);
  if (kind.has("_tanh")) fusion.postOps.append_eltwise(1.0f, algorithm::eltwise_tanh, 0, 0);
  if (kind.has("_clip")) {
    BYOC_ASSIGN_OR_RETURN(const ops::ClipAttrs clip, ops::readClipAttrs(kernel.name, kernel.attrs));
    fusion.postOps.append_eltwise(1.0f, algorithm::eltwise_clip, static_cast<float>(clip.low), static_cast<float>(clip.high));
  }
  if (kind.has("_sigmoid")) fusion.postOps.append_eltwise(1.0f, algorithm::eltwise_logistic, 0, 0);
  // Swish as the last activation (the usual case) is the host loop on the primitive's result
  // (swish.h); followed by another one it stays oneDNN's post-op, in TVM's order.
  const bool swishOnHost = kind.has("_swish") && !kind.has("_gelu") && !kind.has("_mish");
  if (kind.has("_swish") && !swishOnHost) fusion.postOps.append_eltwise(1.0f, algorithm::eltwise_swish, 1.0f, 0);
  if (kind.has("_gelu")) fusion.postOps.append_eltwise(1.0f, algorithm::eltwise_gelu_erf, 0, 0);
  if (kind.has("_mish")) fusion.postOps.append_eltwise(1.0f, algorithm::eltwise_mish, 0, 0);
  std::vector<Tensor> results;
  if (kind.anchorOp == "nn.dense") {
    BYOC_ASSIGN_OR_RETURN(results, lowerDense(lowering, kernel, anchorInputs, fusion));
  } else if (kind.anchorOp == "nn.conv1d" || kind.anchorOp == "nn.conv3d" || kind.anchorOp == "nn.conv3d_transpose") {
    BYOC_ASSIGN_OR_RETURN(results, lowerSpatialConvolution(lowering, kind.anchorOp, kernel, anchorInputs, fusion));
  } else {
    BYOC_ASSIGN_OR_RETURN(results, lowerConvolution(lowering, kind.anchorOp, kernel, kind.anchorOp == "nn.conv2d_transpose",
                                                    anchorInputs, fusion));
  }
  if (swishOnHost) appendSwish(lowering, results[0]);
  return results;
}

}  // namespace

Result<std::vector<Tensor>> lowerCompositeCall(Lowering& lowering, const Kernel& kernel, const std::vector<Tensor>& inputs,
                                               bool residualOverwritable) {
  const std::optional<CompositeKind> kind = compositeKind(kernel.name);
  if (!kind) return makeError("unsupported composite \"" + kernel.name + "\"");
  return guarded(kernel.name, [&]() -> Result<std::vector<Tensor>> {
    switch (kind->family) {
      case CompositeFamily::Gelu: return lowerEltwise(lowering, algorithm::eltwise_gelu_erf, inputs[0]);
      case CompositeFamily::LayerNorm: {  // over the last axis, without scale and shift
        BYOC_ASSIGN_OR_RETURN(const double epsilon, ops::floatAttr(kernel.name, kernel.attrs, "epsilon"));
        return lowerLayerNormalization(lowering, inputs[0], static_cast<float>(epsilon), std::nullopt);
      }
      case CompositeFamily::ScaleShift: return lowerScaleShift(lowering, kernel, inputs);
      case CompositeFamily::Anchor: return lowerAnchored(lowering, *kind, kernel, inputs, residualOverwritable);
      case CompositeFamily::Qnn: return lowerQnnComposite(lowering, kernel, inputs, residualOverwritable);
    }
    return makeError("unsupported composite \"" + kernel.name + "\"");
  });
}

}  // namespace byoc::dnnl_backend
