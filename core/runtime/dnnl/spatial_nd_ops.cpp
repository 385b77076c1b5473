/// \file
/// The 1-D and 3-D convolutions, the 1-D and 3-D transposed convolutions and the 1-D and 3-D pools, each one oneDNN
/// primitive over the IR's canonical layouts (NCW / OIW, NCDHW / OIDHW, IODHW transposed), which
/// their type relations guarantee. oneDNN picks the formats; reorders bring the operands to them.
/// A convolution takes a composite's bias, residual and post-ops as the 2-D ones do. The 1-D and
/// 3-D adaptive pools run when they are global (output size all 1).

#include "runtime/dnnl/anchor_ops.h"
#include "runtime/dnnl/op_lowerings.h"

#include "ir/ops/attr_views.h"
#include "ir/ops/op_helpers.h"
#include "runtime/dnnl/lowering_helpers.h"

namespace byoc::dnnl_backend {

using dnnl::algorithm;
using dnnl::memory;
using dnnl::prop_kind;
using dt = memory::data_type;

namespace {

/// The window of a call over its spatial axes, in oneDNN's terms.
struct SpatialWindow {
  memory::dims kernel, strides, dilation, padLeft, padRight;
};

/// Reads the window of `op`; `weightSizes` are the weight's spatial sizes, empty for a pool (whose
/// window is pool_size). The right padding is the one that yields the output size of the type
/// relation (this covers ceil_mode).
Result<SpatialWindow> windowOf(const std::string& op, const Kernel& kernel, const std::vector<int64_t>& weightSizes,
                               bool transposed) {
  const Shape& in = kernel.inputs[0].shape;
  const Shape& out = kernel.outputs[0].shape;
  const std::size_t dims = in.size() - 2;
  BYOC_ASSIGN_OR_RETURN(const ops::WindowAttrs attrs, ops::readWindowAttrs(op, kernel.attrs, dims, weightSizes.empty()));
  const std::vector<int64_t>& kernelSizes = weightSizes.empty() ? attrs.size : weightSizes;
  const std::vector<int64_t>& strides = attrs.strides;
  const std::vector<int64_t>& dilation = attrs.dilation;
  const std::vector<int64_t>& padding = attrs.padding;
  SpatialWindow w;
  for (std::size_t i = 0; i < dims; ++i) {
    const int64_t spanned = (kernelSizes[i] - 1) * dilation[i] + 1;
    w.kernel.push_back(kernelSizes[i]);
    w.strides.push_back(strides[i]);
    w.dilation.push_back(dilation[i] - 1);
    w.padLeft.push_back(padding[i]);
    w.padRight.push_back(transposed ? (in[2 + i] - 1) * strides[i] + spanned - padding[i] - out[2 + i]
                                    : (out[2 + i] - 1) * strides[i] + spanned - in[2 + i] - padding[i]);
  }
  return w;
}

/// The weights as the IR stores them: OI… for a convolution, IO… for a transposed one, with a
/// leading group axis when grouped (oneDNN's [G, O/G, I/G, …]).
memory::desc weightsAsStored(const Shape& weight, int64_t groups, bool transposed) {
  const memory::dims spatialDims(weight.begin() + 2, weight.end());
  int64_t taps = 1;
  for (int64_t k : spatialDims) taps *= k;
  memory::dims spatialStrides(spatialDims.size(), 1);
  for (std::size_t i = spatialDims.size(); i-- > 1;) spatialStrides[i - 1] = spatialStrides[i] * spatialDims[i];
  // Output and input channels per group, and their strides in the stored array.
  const int64_t outPerGroup = transposed ? weight[1] : weight[0] / groups;
  const int64_t inPerGroup = transposed ? weight[0] / groups : weight[1];
  const int64_t outStride = transposed ? taps : inPerGroup * taps;
  const int64_t inStride = transposed ? outPerGroup * taps : taps;
  memory::dims dims{outPerGroup, inPerGroup}, strides{outStride, inStride};
  if (groups > 1) {
    dims.insert(dims.begin(), groups);
    strides.insert(strides.begin(), outPerGroup * inPerGroup * taps);
  }
  dims.insert(dims.end(), spatialDims.begin(), spatialDims.end());
  strides.insert(strides.end(), spatialStrides.begin(), spatialStrides.end());
  return memory::desc(dims, dt::f32, strides);
}

}  // namespace

Result<std::vector<Tensor>> lowerSpatialConvolution(Lowering& lowering, const std::string& op, const Kernel& kernel,
                                                    const std::vector<Tensor>& inputs, const Fusion& fusion) {
  const bool transposed = op.ends_with("_transpose");
  const Shape& weight = kernel.inputs[1].shape;
  BYOC_ASSIGN_OR_RETURN(const int64_t groups, ops::intAttr(op, kernel.attrs, "groups"));
  BYOC_ASSIGN_OR_RETURN(const SpatialWindow w, windowOf(op, kernel, {weight.begin() + 2, weight.end()}, transposed));
  const memory::desc stored = weightsAsStored(weight, groups, transposed);
  const memory::dims srcDims = dimsOf(kernel.inputs[0].shape), dstDims = dimsOf(kernel.outputs[0].shape);
  Tensor weights = lowering.view(lowering.plain(inputs[1]), stored);
  std::optional<Tensor> bias;
  if (fusion.bias) {
    BYOC_ASSIGN_OR_RETURN(bias, fusedBias(lowering, op, *fusion.bias, dstDims[1]));
  }
  const memory::desc biasDesc = bias ? bias->desc() : memory::desc();
  dnnl::primitive_attr attr;
  attr.set_post_ops(fusion.postOps);
  memory::desc srcWanted, weightsWanted, dstWanted;
  dnnl::primitive primitive;
  if (transposed) {
    dnnl::deconvolution_forward::desc desc(prop_kind::forward_inference, algorithm::deconvolution_direct, anyDesc(srcDims),
                                           anyDesc(stored.dims()), biasDesc, anyDesc(dstDims), w.strides, w.dilation,
                                           w.padLeft, w.padRight);
    dnnl::deconvolution_forward::primitive_desc pd(desc, attr, lowering.engine);
    srcWanted = pd.src_desc();
    weightsWanted = pd.weights_desc();
    dstWanted = pd.dst_desc();
    primitive = dnnl::deconvolution_forward(pd);
  } else {
    dnnl::convolution_forward::desc desc(prop_kind::forward_inference, algorithm::convolution_direct, anyDesc(srcDims),
                                         anyDesc(stored.dims()), biasDesc, anyDesc(dstDims), w.strides, w.dilation,
                                         w.padLeft, w.padRight);
    dnnl::convolution_forward::primitive_desc pd(desc, attr, lowering.engine);
    srcWanted = pd.src_desc();
    weightsWanted = pd.weights_desc();
    dstWanted = pd.dst_desc();
    primitive = dnnl::convolution_forward(pd);
  }
  Tensor src = lowering.as(inputs[0], srcWanted);
  Tensor packed = lowering.as(weights, weightsWanted);
  Tensor dst = fusedDestination(lowering, fusion, dstWanted);
  std::unordered_map<int, memory> args = {{DNNL_ARG_SRC, src.memory}, {DNNL_ARG_WEIGHTS, packed.memory}, {DNNL_ARG_DST, dst.memory}};
  if (bias) args[DNNL_ARG_BIAS] = bias->memory;
  lowering.add(primitive, std::move(args));
  return std::vector<Tensor>{dst};
}

Result<std::vector<Tensor>> lowerSpatialConv(Lowering& lowering, const Kernel& kernel, const std::vector<Tensor>& inputs) {
  return lowerSpatialConvolution(lowering, kernel.name, kernel, inputs, Fusion{});
}

Result<std::vector<Tensor>> lowerSpatialGlobalPool(Lowering& lowering, const Kernel& kernel, const std::vector<Tensor>& inputs) {
  const memory::dims in = dimsOf(kernel.inputs[0].shape), out = dimsOf(kernel.outputs[0].shape);
  for (std::size_t i = 2; i < out.size(); ++i)
    if (out[i] != 1) return unsupported(kernel.name, "only an output size of all 1 (global pooling) is supported");
  const memory::dims window(in.begin() + 2, in.end()), ones(window.size(), 1), zeros(window.size(), 0);
  const algorithm algo = kernel.name.find("max") != std::string::npos ? algorithm::pooling_max : algorithm::pooling_avg_exclude_padding;
  dnnl::pooling_v2_forward::desc desc(prop_kind::forward_inference, algo, inputs[0].desc(), anyDesc(out), ones, window, zeros,
                                      zeros, zeros);
  dnnl::pooling_v2_forward::primitive_desc pd(desc, lowering.engine);
  Tensor dst = lowering.fresh(pd.dst_desc());
  lowering.add(dnnl::pooling_v2_forward(pd), {{DNNL_ARG_SRC, inputs[0].memory}, {DNNL_ARG_DST, dst.memory}});
  return std::vector<Tensor>{dst};
}

Result<std::vector<Tensor>> lowerSpatialPool(Lowering& lowering, const Kernel& kernel, const std::vector<Tensor>& inputs) {
  BYOC_ASSIGN_OR_RETURN(const SpatialWindow w, windowOf(kernel.name, kernel, {}, false));
  algorithm algo = kernel.name.starts_with("nn.max_pool") ? algorithm::pooling_max
                   : ops::boolAttr(kernel.attrs, "count_include_pad") ? algorithm::pooling_avg_include_padding
                                                                       : algorithm::pooling_avg_exclude_padding;
  dnnl::pooling_v2_forward::desc desc(prop_kind::forward_inference, algo, inputs[0].desc(),
                                      anyDesc(dimsOf(kernel.outputs[0].shape)), w.strides, w.kernel, w.dilation,
                                      w.padLeft, w.padRight);
  dnnl::pooling_v2_forward::primitive_desc pd(desc, lowering.engine);
  Tensor dst = lowering.fresh(pd.dst_desc());
  lowering.add(dnnl::pooling_v2_forward(pd), {{DNNL_ARG_SRC, inputs[0].memory}, {DNNL_ARG_DST, dst.memory}});
  return std::vector<Tensor>{dst};
}

}  // namespace byoc::dnnl_backend
