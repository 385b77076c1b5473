/// \file
/// Pooling, batch and layer normalization, softmax and log-softmax.

#include "runtime/dnnl/op_lowerings.h"

#include "ir/ops/attr_views.h"
#include "ir/ops/op_helpers.h"
#include "runtime/dnnl/lowering_helpers.h"

namespace byoc::dnnl_backend {

using dnnl::algorithm;
using dnnl::memory;
using dnnl::prop_kind;

Result<std::vector<Tensor>> lowerPool(Lowering& lowering, const Kernel& kernel, const std::vector<Tensor>& inputs) {
  const Tensor& src = inputs[0];
  const std::string& op = kernel.name;
  if (ops::stringAttr(kernel.attrs, "layout") != "NCHW") return unsupported(op, "only layout NCHW is supported");
  const Shape& in = kernel.inputs[0].shape;
  const Shape& out = kernel.outputs[0].shape;
  const bool global = op == "nn.global_avg_pool2d" || op == "nn.global_max_pool2d";
  if (op == "nn.adaptive_avg_pool2d" && !(out[2] == 1 && out[3] == 1))
    return unsupported(op, "only an output size of [1, 1] is supported");
  const bool whole = global || op == "nn.adaptive_avg_pool2d";
  memory::dims window{in[2], in[3]}, strides{1, 1}, dilation{0, 0}, padLeft{0, 0}, padRight{0, 0};
  algorithm algo = op.find("max") != std::string::npos ? algorithm::pooling_max : algorithm::pooling_avg_exclude_padding;
  if (!whole) {
    BYOC_ASSIGN_OR_RETURN(const ops::WindowAttrs w, ops::readWindowAttrs(op, kernel.attrs, 2, true));
    const std::vector<int64_t>& size = w.size;
    const std::vector<int64_t>& step = w.strides;
    const std::vector<int64_t>& dil = w.dilation;
    const std::vector<int64_t>& pad = w.padding;
    window = {size[0], size[1]};
    strides = {step[0], step[1]};
    dilation = {dil[0] - 1, dil[1] - 1};
    padLeft = {pad[0], pad[1]};
    // Right padding that yields the output size of the type relation (this also covers ceil_mode).
    padRight = {(out[2] - 1) * step[0] + (size[0] - 1) * dil[0] + 1 - in[2] - pad[0],
                (out[3] - 1) * step[1] + (size[1] - 1) * dil[1] + 1 - in[3] - pad[1]};
    if (algo != algorithm::pooling_max && ops::boolAttr(kernel.attrs, "count_include_pad"))
      algo = algorithm::pooling_avg_include_padding;
  }
  dnnl::pooling_v2_forward::desc desc(prop_kind::forward_inference, algo, src.desc(),
                                      anyDesc(dimsOf(out), src.desc().data_type()), strides,
                                      window, dilation, padLeft, padRight);
  dnnl::pooling_v2_forward::primitive_desc pd(desc, lowering.engine);
  Tensor dst = lowering.fresh(pd.dst_desc());
  lowering.add(dnnl::pooling_v2_forward(pd), {{DNNL_ARG_SRC, src.memory}, {DNNL_ARG_DST, dst.memory}});
  return std::vector<Tensor>{dst};
}

namespace {

/// A constant vector of `count` copies of `value`.
Tensor filled(Lowering& lowering, int64_t count, float value) {
  std::vector<float> values(static_cast<std::size_t>(count), value);
  return lowering.constant(values.data(), {count});
}

}  // namespace

Result<std::vector<Tensor>> lowerBatchNorm(Lowering& lowering, const Kernel& kernel, const std::vector<Tensor>& inputs) {
  const Shape& in = kernel.inputs[0].shape;
  BYOC_ASSIGN_OR_RETURN(const ops::NormAttrs norm, ops::readNormAttrs("nn.batch_norm", kernel.attrs, in.size()));
  if (norm.axis != 1 || in.size() < 2) return unsupported("nn.batch_norm", "only axis 1 is supported");
  const int64_t channels = in[1];
  Tensor scale = norm.scale ? lowering.plain(inputs[1]) : filled(lowering, channels, 1);
  Tensor shift = norm.center ? lowering.plain(inputs[2]) : filled(lowering, channels, 0);
  Tensor src = inputs[0];
  dnnl::batch_normalization_forward::desc desc(
      prop_kind::forward_inference, src.desc(), static_cast<float>(norm.epsilon),
      dnnl::normalization_flags::use_global_stats | dnnl::normalization_flags::use_scale | dnnl::normalization_flags::use_shift);
  dnnl::batch_normalization_forward::primitive_desc pd(desc, lowering.engine);
  Tensor dst = lowering.fresh(pd.dst_desc());
  lowering.add(dnnl::batch_normalization_forward(pd),
               {{DNNL_ARG_SRC, src.memory}, {DNNL_ARG_MEAN, lowering.plain(inputs[3]).memory},
                {DNNL_ARG_VARIANCE, lowering.plain(inputs[4]).memory}, {DNNL_ARG_SCALE, scale.memory},
                {DNNL_ARG_SHIFT, shift.memory}, {DNNL_ARG_DST, dst.memory}});
  return std::vector<Tensor>{dst, inputs[3], inputs[4]};
}

Result<std::vector<Tensor>> lowerLayerNormalization(Lowering& lowering, const Tensor& input, float epsilon,
                                                    const std::optional<std::pair<Tensor, Tensor>>& scaleShift) {
  Tensor src = lowering.plain(input);
  const auto flags = scaleShift ? dnnl::normalization_flags::use_scale | dnnl::normalization_flags::use_shift
                                : dnnl::normalization_flags::none;
  dnnl::layer_normalization_forward::desc desc(prop_kind::forward_inference, src.desc(), epsilon, flags);
  dnnl::layer_normalization_forward::primitive_desc pd(desc, lowering.engine);
  Tensor dst = lowering.fresh(pd.dst_desc());
  std::unordered_map<int, memory> args{{DNNL_ARG_SRC, src.memory},
                                       {DNNL_ARG_MEAN, lowering.fresh(pd.mean_desc()).memory},
                                       {DNNL_ARG_VARIANCE, lowering.fresh(pd.variance_desc()).memory},
                                       {DNNL_ARG_DST, dst.memory}};
  if (scaleShift) {
    args.emplace(DNNL_ARG_SCALE, scaleShift->first.memory);
    args.emplace(DNNL_ARG_SHIFT, scaleShift->second.memory);
  }
  lowering.add(dnnl::layer_normalization_forward(pd), std::move(args));
  return std::vector<Tensor>{dst};
}

Result<std::vector<Tensor>> lowerLayerNorm(Lowering& lowering, const Kernel& kernel, const std::vector<Tensor>& inputs) {
  const Shape& in = kernel.inputs[0].shape;
  BYOC_ASSIGN_OR_RETURN(const ops::NormAttrs norm, ops::readNormAttrs("nn.layer_norm", kernel.attrs, in.size()));
  if (norm.axis + 1 != in.size()) return unsupported("nn.layer_norm", "only the last axis is supported");
  const int64_t channels = in.back();
  Tensor scale = norm.scale ? lowering.plain(inputs[1]) : filled(lowering, channels, 1);
  Tensor shift = norm.center ? lowering.plain(inputs[2]) : filled(lowering, channels, 0);
  return lowerLayerNormalization(lowering, inputs[0], static_cast<float>(norm.epsilon), std::pair{scale, shift});
}

Result<std::vector<Tensor>> lowerSoftmax(Lowering& lowering, const Kernel& kernel, const std::vector<Tensor>& inputs) {
  const Tensor& input = inputs[0];
  const std::string& op = kernel.name;
  const Shape& in = kernel.inputs[0].shape;
  BYOC_ASSIGN_OR_RETURN(const std::size_t softmaxAxis, ops::axisAttr(op, kernel.attrs, in.size()));
  const int axis = static_cast<int>(softmaxAxis);
  Tensor src = lowering.plain(input);
  Tensor dst;
  if (op == "nn.softmax") {
    dnnl::softmax_forward::desc desc(prop_kind::forward_inference, src.desc(), axis);
    dnnl::softmax_forward::primitive_desc pd(desc, lowering.engine);
    dst = lowering.fresh(pd.dst_desc());
    lowering.add(dnnl::softmax_forward(pd), {{DNNL_ARG_SRC, src.memory}, {DNNL_ARG_DST, dst.memory}});
  } else {
    dnnl::logsoftmax_forward::desc desc(prop_kind::forward_inference, src.desc(), axis);
    dnnl::logsoftmax_forward::primitive_desc pd(desc, lowering.engine);
    dst = lowering.fresh(pd.dst_desc());
    lowering.add(dnnl::logsoftmax_forward(pd), {{DNNL_ARG_SRC, src.memory}, {DNNL_ARG_DST, dst.memory}});
  }
  return std::vector<Tensor>{dst};
}

}  // namespace byoc::dnnl_backend
