#include "runtime/dnnl/qnn_ops.h"

#include "ir/ops/op_helpers.h"
#include "runtime/dnnl/anchor_ops.h"
#include "runtime/dnnl/kernel_rules.h"
#include "runtime/dnnl/lowering_helpers.h"
#include "runtime/dnnl/op_lowerings.h"
#include "runtime/kernels/conv_params.h"
#include "runtime/kernels/quantize_math.h"
#include "runtime/ndarray.h"

namespace byoc::dnnl_backend {

namespace {

using dnnl::algorithm;
using dnnl::memory;
using dnnl::prop_kind;
using dt = memory::data_type;
using tag = memory::format_tag;

/// The number attribute `name` of the kernel, as a float.
Result<float> floatAttr(const Kernel& kernel, const char* name) {
  BYOC_ASSIGN_OR_RETURN(const double value, ops::floatAttr(kernel.name, kernel.attrs, name));
  return static_cast<float>(value);
}

/// The output scales (a constant), clip, activation scale and output zero point as primitive attributes.
Result<dnnl::primitive_attr> quantizationAttr(const Kernel& kernel, const Tensor& scale) {
  const auto* values = static_cast<const float*>(scale.memory.get_data_handle());
  const std::size_t count = static_cast<std::size_t>(shapeElements(kernel.inputs[3].shape));
  dnnl::primitive_attr attr;
  attr.set_output_scales(count > 1 ? 1 << 1 : 0, std::vector<float>(values, values + count));
  dnnl::post_ops postOps;
  BYOC_ASSIGN_OR_RETURN(const float low, floatAttr(kernel, "a_min"));
  BYOC_ASSIGN_OR_RETURN(const float high, floatAttr(kernel, "a_max"));
  postOps.append_eltwise(1.0f, algorithm::eltwise_clip, low, high);
  // The clipped value is the requantized integer (less its zero point) the zero point or the sum
  // is added to: rounded before them, as the composite's body rounds it.
  if (const AttrValue* rounded = kernel.attrs.find("round_clipped"); rounded && rounded->asBool())
    postOps.append_eltwise(1.0f, algorithm::eltwise_round, 0.0f, 0.0f);
  BYOC_ASSIGN_OR_RETURN(const float activationScale, floatAttr(kernel, "activation_scale"));
  BYOC_ASSIGN_OR_RETURN(const float zeroPoint, floatAttr(kernel, "output_zero_point"));
  if (activationScale != 1.0f || zeroPoint != 0.0f)
    postOps.append_eltwise(1.0f, algorithm::eltwise_linear, activationScale, zeroPoint);
  // TVM's sum form adds the residual (preloaded into dst) scaled; the zero point, added after it
  // in the pattern, is part of the linear step before (an addition either way).
  if (kernel.attrs.contains("sum_scale")) {
    BYOC_ASSIGN_OR_RETURN(const float sumScale, floatAttr(kernel, "sum_scale"));
    postOps.append_sum(sumScale);
  }
  attr.set_post_ops(postOps);
  return attr;
}

/// The destination of a product: fresh memory in `desc`, or, when the kernel sums a residual
/// (input 4), memory holding it before the product runs: the residual's own when nothing reads it
/// afterwards and it has the destination's format, else a copy. A residual of other dims (a dense
/// result of rank 3) is viewed as the destination's dims first.
Tensor destination(Lowering& lowering, const Kernel& kernel, const std::vector<Tensor>& inputs,
                   const memory::desc& desc, bool residualOverwritable) {
  if (!kernel.attrs.contains("sum_scale")) return lowering.fresh(desc);
  const Tensor residual = inputs[4].desc().dims() == desc.dims()
                              ? inputs[4]
                              : lowering.view(lowering.plain(inputs[4]), plainDesc(desc.dims(), desc.data_type()));
  Fusion fusion;
  fusion.sum = &residual;
  fusion.sumInPlace = residualOverwritable;
  return fusedDestination(lowering, fusion, desc);
}

memory::desc anyOf(const memory::dims& dims, dt type) { return {dims, type, tag::any}; }

Result<std::vector<Tensor>> lowerConv(Lowering& lowering, const Kernel& kernel, const std::vector<Tensor>& inputs,
                                      const dnnl::primitive_attr& attr, dt srcType, dt dstType, bool residualOverwritable) {
  const char* op = "qnn.conv2d";
  BYOC_ASSIGN_OR_RETURN(kernels::ConvGeometry g, kernels::convGeometry(op, kernel.attrs, kernel.inputs[0].shape,
                                                                       kernel.inputs[1].shape, kernel.outputs[0].shape, false));
  if (!g.canonical()) return unsupported(op, "only data_layout NCHW with kernel_layout OIHW is supported");
  const memory::dims srcDims{g.batch, g.inChannels, g.inHeight, g.inWidth};
  const memory::dims dstDims{g.batch, g.outChannels, g.outHeight, g.outWidth};
  const memory::dims weightDims =
      g.groups > 1 ? memory::dims{g.groups, g.outChannels / g.groups, g.inChannels / g.groups, g.kernelHeight, g.kernelWidth}
                   : memory::dims{g.outChannels, g.inChannels, g.kernelHeight, g.kernelWidth};
  const Tensor weights =
      lowering.view(lowering.plain(inputs[1]), memory::desc(weightDims, dt::s8, g.groups > 1 ? tag::goihw : tag::oihw));
  const Tensor bias = lowering.view(lowering.plain(inputs[2]), plainDesc({g.outChannels}));
  const memory::dims padRight{(g.outHeight - 1) * g.strideH + (g.kernelHeight - 1) * g.dilationH + 1 - g.inHeight - g.padTop,
                              (g.outWidth - 1) * g.strideW + (g.kernelWidth - 1) * g.dilationW + 1 - g.inWidth - g.padLeft};
  dnnl::convolution_forward::desc desc(prop_kind::forward_inference, algorithm::convolution_direct, anyOf(srcDims, srcType),
                                       anyOf(weightDims, dt::s8), bias.desc(), anyOf(dstDims, dstType),
                                       {g.strideH, g.strideW}, {g.dilationH - 1, g.dilationW - 1}, {g.padTop, g.padLeft},
                                       padRight);
  dnnl::convolution_forward::primitive_desc pd(desc, attr, lowering.engine);
  const Tensor src = lowering.as(inputs[0], pd.src_desc());
  const Tensor packed = lowering.as(weights, pd.weights_desc());
  const Tensor dst = destination(lowering, kernel, inputs, pd.dst_desc(), residualOverwritable);
  lowering.add(dnnl::convolution_forward(pd), {{DNNL_ARG_SRC, src.memory},
                                               {DNNL_ARG_WEIGHTS, packed.memory},
                                               {DNNL_ARG_BIAS, bias.memory},
                                               {DNNL_ARG_DST, dst.memory}});
  return std::vector<Tensor>{dst};
}

Result<std::vector<Tensor>> lowerDense(Lowering& lowering, const Kernel& kernel, const std::vector<Tensor>& inputs,
                                       const dnnl::primitive_attr& attr, dt srcType, dt dstType, bool residualOverwritable) {
  const Shape& data = kernel.inputs[0].shape;
  const int64_t k = data.back();
  const int64_t m = k ? shapeElements(data) / k : 0;
  const int64_t n = kernel.inputs[1].shape[0];
  const Tensor src = lowering.view(lowering.plain(inputs[0]), plainDesc({m, k}, srcType));
  const Tensor bias = lowering.view(lowering.plain(inputs[2]), plainDesc({n}));
  dnnl::inner_product_forward::desc desc(prop_kind::forward_inference, src.desc(), anyOf({n, k}, dt::s8), bias.desc(),
                                         plainDesc({m, n}, dstType));
  dnnl::inner_product_forward::primitive_desc pd(desc, attr, lowering.engine);
  const Tensor weights = lowering.as(lowering.plain(inputs[1]), pd.weights_desc());
  const Tensor dst = destination(lowering, kernel, inputs, pd.dst_desc(), residualOverwritable);
  lowering.add(dnnl::inner_product_forward(pd), {{DNNL_ARG_SRC, src.memory},
                                                 {DNNL_ARG_WEIGHTS, weights.memory},
                                                 {DNNL_ARG_BIAS, bias.memory},
                                                 {DNNL_ARG_DST, dst.memory}});
  return std::vector<Tensor>{lowering.view(dst, plainDesc(dimsOf(kernel.outputs[0].shape), dstType))};
}

}  // namespace

Result<std::vector<Tensor>> lowerQnnComposite(Lowering& lowering, const Kernel& kernel, const std::vector<Tensor>& inputs,
                                              bool residualOverwritable) {
  if (!inputs[3].constant) return unsupported(kernel.name, "the output scale must be a constant");
  BYOC_ASSIGN_OR_RETURN(const dnnl::primitive_attr attr, quantizationAttr(kernel, lowering.plain(inputs[3])));
  const dt srcType = *dataTypeOf(kernel.inputs[0].dtype);
  const dt dstType = *dataTypeOf(kernel.outputs[0].dtype);
  if (compositeKind(kernel.name)->anchorOp == "qnn.dense") return lowerDense(lowering, kernel, inputs, attr, srcType, dstType, residualOverwritable);
  return lowerConv(lowering, kernel, inputs, attr, srcType, dstType, residualOverwritable);
}

namespace {

/// The constant per-tensor scale (input `scaleIndex`) and zero point (input `zeroPointIndex`) of a
/// qnn call, the scale not yet checked.
Result<std::pair<float, int32_t>> constantParameters(Lowering& lowering, const Kernel& kernel,
                                                     const std::vector<Tensor>& inputs, std::size_t scaleIndex,
                                                     std::size_t zeroPointIndex) {
  if (!inputs[scaleIndex].constant || !inputs[zeroPointIndex].constant ||
      shapeElements(kernel.inputs[scaleIndex].shape) != 1 || shapeElements(kernel.inputs[zeroPointIndex].shape) != 1)
    return unsupported(kernel.name, "only constant per-tensor scales and zero points are supported");
  const float scale = *static_cast<const float*>(lowering.plain(inputs[scaleIndex]).memory.get_data_handle());
  return std::pair{scale, *static_cast<const int32_t*>(lowering.plain(inputs[zeroPointIndex]).memory.get_data_handle())};
}

/// The constant per-tensor scale (input `index`) and zero point (input `index + 1`) of a qnn call.
Result<std::pair<float, int32_t>> perTensorParameters(Lowering& lowering, const Kernel& kernel,
                                                      const std::vector<Tensor>& inputs, std::size_t index) {
  BYOC_ASSIGN_OR_RETURN(auto parameters, constantParameters(lowering, kernel, inputs, index, index + 1));
  BYOC_TRY(kernels::checkScale(kernel.name, index, parameters.first));
  return parameters;
}

/// One reorder of `src` into fresh memory of `dstType` in src's layout (retypedDesc): scale ·
/// (src − srcZeroPoint) + dstZeroPoint, rounded to nearest even and saturated when `dstType` is an
/// integer.
Tensor affineReorder(Lowering& lowering, const Tensor& src, dt dstType, float scale, int32_t srcZeroPoint,
                     int32_t dstZeroPoint) {
  dnnl::primitive_attr attr;
  attr.set_output_scales(0, {scale});
  if (srcZeroPoint != 0) attr.set_zero_points(DNNL_ARG_SRC, 0, {srcZeroPoint});
  if (dstZeroPoint != 0) attr.set_zero_points(DNNL_ARG_DST, 0, {dstZeroPoint});
  const Tensor dst = lowering.fresh(retypedDesc(src.desc(), dstType));
  dnnl::reorder::primitive_desc pd(lowering.engine, src.desc(), lowering.engine, dst.desc(), attr);
  lowering.add(dnnl::reorder(pd), {{DNNL_ARG_FROM, src.memory}, {DNNL_ARG_TO, dst.memory}});
  return dst;
}

/// `src` (f32) quantized into fresh memory of `dstType` in src's layout as qnn.quantize and ONNX's
/// QuantizeLinear state it: round(src / scale) + zeroPoint, rounded to nearest even and saturated.
/// A binary division, not a reorder by 1 / scale, whose product rounds some values near a half the
/// other way; the zero point is added after the rounding for the same reason.
Tensor quantizedByDivision(Lowering& lowering, const Tensor& src, dt dstType, float scale, int32_t zeroPoint) {
  const memory::dims dims = src.desc().dims();
  const Tensor divisor = lowering.constant(&scale, memory::dims(dims.size(), 1));
  dnnl::post_ops postOps;
  if (zeroPoint != 0) {
    postOps.append_eltwise(1.0f, algorithm::eltwise_round, 0.0f, 0.0f);
    postOps.append_eltwise(1.0f, algorithm::eltwise_linear, 1.0f, static_cast<float>(zeroPoint));
  }
  dnnl::primitive_attr attr;
  attr.set_post_ops(postOps);
  const Tensor dst = lowering.fresh(retypedDesc(src.desc(), dstType));
  dnnl::binary::desc desc(algorithm::binary_div, src.desc(), divisor.desc(), dst.desc());
  dnnl::binary::primitive_desc pd(desc, attr, lowering.engine);
  lowering.add(dnnl::binary(pd), {{DNNL_ARG_SRC_0, src.memory}, {DNNL_ARG_SRC_1, divisor.memory}, {DNNL_ARG_DST, dst.memory}});
  return dst;
}

}  // namespace

Result<std::vector<Tensor>> lowerQuantize(Lowering& lowering, const Kernel& kernel, const std::vector<Tensor>& inputs) {
  BYOC_ASSIGN_OR_RETURN(auto parameters, perTensorParameters(lowering, kernel, inputs, 1));
  const auto [scale, zeroPoint] = parameters;
  return std::vector<Tensor>{quantizedByDivision(lowering, inputs[0], *dataTypeOf(kernel.outputs[0].dtype), scale, zeroPoint)};
}

Result<std::vector<Tensor>> lowerDequantize(Lowering& lowering, const Kernel& kernel, const std::vector<Tensor>& inputs) {
  BYOC_ASSIGN_OR_RETURN(auto parameters, perTensorParameters(lowering, kernel, inputs, 1));
  const auto [scale, zeroPoint] = parameters;
  return std::vector<Tensor>{affineReorder(lowering, inputs[0], dt::f32, scale, zeroPoint, 0)};
}

Result<std::vector<Tensor>> lowerQnnAddOrSubtract(Lowering& lowering, const Kernel& kernel,
                                                  const std::vector<Tensor>& inputs) {
  // The operand of the result's shape comes first; the other may broadcast. A sum commutes, so
  // either operand may be the broadcast one; a difference keeps its order.
  const bool subtract = kernel.name == "qnn.subtract";
  const Shape& shape = kernel.outputs[0].shape;
  const std::size_t full = kernel.inputs[0].shape == shape ? 0 : 1;
  if (kernel.inputs[full].shape != shape || (subtract && full != 0))
    return unsupported(kernel.name, "only the second operand may broadcast");
  Shape small = kernel.inputs[1 - full].shape;
  small.insert(small.begin(), shape.size() - small.size(), 1);
  BYOC_ASSIGN_OR_RETURN(auto lhs, perTensorParameters(lowering, kernel, inputs, 2 + 2 * full));
  BYOC_ASSIGN_OR_RETURN(auto rhs, perTensorParameters(lowering, kernel, inputs, 4 - 2 * full));
  BYOC_ASSIGN_OR_RETURN(auto out, perTensorParameters(lowering, kernel, inputs, 6));
  const Tensor a = affineReorder(lowering, inputs[full], dt::f32, lhs.first, lhs.second, 0);
  const Tensor b = lowering.view(affineReorder(lowering, lowering.plain(inputs[1 - full]), dt::f32, rhs.first, rhs.second, 0),
                                 plainDesc(dimsOf(small)));
  const dnnl::algorithm algorithm = subtract ? dnnl::algorithm::binary_sub : dnnl::algorithm::binary_add;
  dnnl::binary::desc desc(algorithm, a.desc(), b.desc(), a.desc());
  dnnl::binary::primitive_desc pd(desc, lowering.engine);
  const Tensor sum = lowering.fresh(pd.dst_desc());
  lowering.add(dnnl::binary(pd), {{DNNL_ARG_SRC_0, a.memory}, {DNNL_ARG_SRC_1, b.memory}, {DNNL_ARG_DST, sum.memory}});
  return std::vector<Tensor>{quantizedByDivision(lowering, sum, *dataTypeOf(kernel.outputs[0].dtype), out.first, out.second)};
}

Result<std::vector<Tensor>> lowerQnnConcatenate(Lowering& lowering, const Kernel& kernel,
                                                const std::vector<Tensor>& inputs) {
  // Inputs: the tensors, their scales, their zero points, the output's scale and zero point.
  const std::size_t count = (inputs.size() - 2) / 3;
  BYOC_ASSIGN_OR_RETURN(auto out, constantParameters(lowering, kernel, inputs, 3 * count, 3 * count + 1));
  BYOC_TRY(kernels::checkScale(kernel.name, "output_scale (argument 3)", out.first, std::nullopt));
  const dt type = *dataTypeOf(kernel.outputs[0].dtype);
  std::vector<Tensor> parts;
  for (std::size_t i = 0; i < count; ++i) {
    BYOC_ASSIGN_OR_RETURN(auto in, constantParameters(lowering, kernel, inputs, count + i, 2 * count + i));
    BYOC_TRY(kernels::checkScale(kernel.name, "input_scales (argument 1) field " + std::to_string(i), in.first,
                                 std::nullopt));
    parts.push_back(in == out ? inputs[i] : affineReorder(lowering, inputs[i], type, in.first / out.first, in.second, out.second));
  }
  return lowerConcat(lowering, kernel, parts);
}

}  // namespace byoc::dnnl_backend
