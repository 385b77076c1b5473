#include "runtime/dnnl/anchor_ops.h"

#include <optional>

#include "runtime/dnnl/lowering_helpers.h"
#include "runtime/kernels/conv_params.h"
#include "runtime/ndarray.h"

namespace byoc::dnnl_backend {

namespace {

using dnnl::algorithm;
using dnnl::memory;
using dnnl::prop_kind;
using dt = memory::data_type;
using tag = memory::format_tag;

/// Whether a convolution is worth running with the Winograd algorithm: 3×3, stride 1, undilated,
/// ungrouped, with 64 or more channels in and out, on images of 14×14 or more. On such ResNet
/// and VGG shapes oneDNN 2.6's Winograd kernels (F(2×2, 3×3), else F(4×4, 3×3)) took a third to
/// a half of the direct kernel's time on AVX-512; on 7×7 images F(2×2, 3×3) was slower than it.
bool suitsWinograd(const kernels::ConvGeometry& g) {
  return g.kernelHeight == 3 && g.kernelWidth == 3 && g.strideH == 1 && g.strideW == 1 && g.dilationH == 1 &&
         g.dilationW == 1 && g.groups == 1 && g.inChannels >= 64 && g.outChannels >= 64 && g.outHeight >= 14 &&
         g.outWidth >= 14;
}

}  // namespace

Result<Tensor> fusedBias(Lowering& lowering, const std::string& op, const Tensor& bias, int64_t channels) {
  const memory::dims dims = bias.desc().dims();
  int64_t count = 1;
  for (auto d : dims) count *= d;
  if (count != channels)
    return unsupported(op, "the bias has " + std::to_string(count) + " elements, expected one per output channel (" +
                               std::to_string(channels) + ")");
  return lowering.view(lowering.plain(bias), plainDesc({channels}));
}

Tensor fusedDestination(Lowering& lowering, const Fusion& fusion, const memory::desc& wanted) {
  if (fusion.sum && fusion.sumInPlace && fusion.sum->input < 0 && !fusion.sum->constant && !fusion.sum->view && !fusion.sum->preset &&
      fusion.sum->desc() == wanted)
    return *fusion.sum;
  Tensor dst = lowering.fresh(wanted);
  if (fusion.sum)
    lowering.add(dnnl::reorder(fusion.sum->memory, dst.memory), {{DNNL_ARG_FROM, fusion.sum->memory}, {DNNL_ARG_TO, dst.memory}});
  return dst;
}

Result<std::vector<Tensor>> lowerConvolution(Lowering& lowering, const std::string& op, const Kernel& kernel, bool transposed,
                                             const std::vector<Tensor>& inputs, const Fusion& fusion) {
  BYOC_ASSIGN_OR_RETURN(kernels::ConvGeometry g,
                        kernels::convGeometry(op, kernel.attrs, kernel.inputs[0].shape, kernel.inputs[1].shape,
                                              kernel.outputs[0].shape, transposed));
  if (!g.canonical())
    return unsupported(op, std::string("only data_layout NCHW with kernel_layout ") + (transposed ? "IOHW" : "OIHW") +
                               " is supported");
  const int64_t groups = g.groups;
  const memory::dims srcDims{g.batch, g.inChannels, g.inHeight, g.inWidth};
  const memory::dims dstDims{g.batch, g.outChannels, g.outHeight, g.outWidth};
  const memory::dims weightDims =
      groups > 1 ? memory::dims{groups, g.outChannels / groups, g.inChannels / groups, g.kernelHeight, g.kernelWidth}
                 : memory::dims{g.outChannels, g.inChannels, g.kernelHeight, g.kernelWidth};
  // How the IR stores the weights: OIHW for convolution, IOHW for deconvolution (per group).
  const tag weightTag = transposed ? (groups > 1 ? tag::acbde : tag::iohw) : (groups > 1 ? tag::goihw : tag::oihw);
  Tensor weights = lowering.view(lowering.plain(inputs[1]), memory::desc(weightDims, dt::f32, weightTag));
  const memory::dims strides{g.strideH, g.strideW};
  const memory::dims dilation{g.dilationH - 1, g.dilationW - 1};
  const memory::dims padLeft{g.padTop, g.padLeft};
  // The right padding that yields exactly the output size the type relation computed.
  const memory::dims padRight =
      transposed ? memory::dims{(g.inHeight - 1) * g.strideH + (g.kernelHeight - 1) * g.dilationH + 1 - g.padTop - g.outHeight,
                                (g.inWidth - 1) * g.strideW + (g.kernelWidth - 1) * g.dilationW + 1 - g.padLeft - g.outWidth}
                 : memory::dims{(g.outHeight - 1) * g.strideH + (g.kernelHeight - 1) * g.dilationH + 1 - g.inHeight - g.padTop,
                                (g.outWidth - 1) * g.strideW + (g.kernelWidth - 1) * g.dilationW + 1 - g.inWidth - g.padLeft};
  std::optional<Tensor> bias;
  if (fusion.bias) {
    BYOC_ASSIGN_OR_RETURN(bias, fusedBias(lowering, op, *fusion.bias, g.outChannels));
  }
  const memory::desc biasDesc = bias ? bias->desc() : memory::desc();
  dnnl::primitive_attr attr;
  attr.set_post_ops(fusion.postOps);
  memory::desc srcWanted, weightsWanted, dstWanted;
  dnnl::primitive primitive;
  if (transposed) {
    dnnl::deconvolution_forward::desc desc(prop_kind::forward_inference, algorithm::deconvolution_direct,
                                           anyDesc(srcDims), anyDesc(weightDims), biasDesc, anyDesc(dstDims), strides,
                                           dilation, padLeft, padRight);
    dnnl::deconvolution_forward::primitive_desc pd(desc, attr, lowering.engine);
    srcWanted = pd.src_desc();
    weightsWanted = pd.weights_desc();
    dstWanted = pd.dst_desc();
    primitive = dnnl::deconvolution_forward(pd);
  } else {
    auto describe = [&](algorithm algo) {
      dnnl::convolution_forward::desc desc(prop_kind::forward_inference, algo, anyDesc(srcDims), anyDesc(weightDims),
                                           biasDesc, anyDesc(dstDims), strides, dilation, padLeft, padRight);
      return dnnl::convolution_forward::primitive_desc(desc, attr, lowering.engine);
    };
    // The first Winograd implementation oneDNN offers is taken as it is: asking oneDNN 2.6 for
    // the next one (next_impl) crashed it now and then inside another implementation's set-up.
    std::optional<dnnl::convolution_forward::primitive_desc> winograd;
    if (suitsWinograd(g)) {
      try {
        winograd = describe(algorithm::convolution_winograd);
      } catch (const dnnl::error&) {
        // No Winograd kernel for this machine, shape or post-op chain: the direct algorithm runs it.
      }
    }
    const dnnl::convolution_forward::primitive_desc pd = winograd ? *winograd : describe(algorithm::convolution_direct);
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

Result<std::vector<Tensor>> lowerDense(Lowering& lowering, const Kernel& kernel, const std::vector<Tensor>& inputs,
                                       const Fusion& fusion) {
  const Shape& data = kernel.inputs[0].shape;
  const Shape& weightShape = kernel.inputs[1].shape;
  const int64_t k = data.back();
  const int64_t m = k ? shapeElements(data) / k : 0;
  const int64_t n = weightShape[0];
  Tensor src = lowering.view(lowering.plain(inputs[0]), plainDesc({m, k}));
  std::optional<Tensor> bias;
  if (fusion.bias) {
    BYOC_ASSIGN_OR_RETURN(bias, fusedBias(lowering, "nn.dense", *fusion.bias, n));
  }
  dnnl::primitive_attr attr;
  attr.set_post_ops(fusion.postOps);
  dnnl::inner_product_forward::desc desc(prop_kind::forward_inference, src.desc(), anyDesc({n, k}),
                                         bias ? bias->desc() : memory::desc(), plainDesc({m, n}));
  dnnl::inner_product_forward::primitive_desc pd(desc, attr, lowering.engine);
  Tensor weights = lowering.as(lowering.plain(inputs[1]), pd.weights_desc());
  Tensor dst = fusedDestination(lowering, fusion, pd.dst_desc());
  std::unordered_map<int, memory> args = {{DNNL_ARG_SRC, src.memory}, {DNNL_ARG_WEIGHTS, weights.memory}, {DNNL_ARG_DST, dst.memory}};
  if (bias) args[DNNL_ARG_BIAS] = bias->memory;
  lowering.add(dnnl::inner_product_forward(pd), std::move(args));
  return std::vector<Tensor>{lowering.view(dst, plainDesc(dimsOf(kernel.outputs[0].shape)))};
}

}  // namespace byoc::dnnl_backend
