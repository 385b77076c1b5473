#include "runtime/dnnl/ops.h"

#include <algorithm>
#include <map>

#include "ir/ops/op_helpers.h"
#include "runtime/dnnl/anchor_ops.h"
#include "runtime/dnnl/lowering_helpers.h"
#include "runtime/kernels/dispatch.h"
#include "runtime/ndarray.h"

namespace byoc::dnnl_backend {

namespace {

using dnnl::algorithm;
using dnnl::memory;
using dnnl::prop_kind;
using dt = memory::data_type;
using tag = memory::format_tag;

/// Unary ops that map onto one eltwise algorithm with fixed alpha and beta.
struct EltwiseSpec {
  algorithm algo;
  float alpha, beta;
};

const std::map<std::string, EltwiseSpec, std::less<>>& fixedEltwise() {
  static const std::map<std::string, EltwiseSpec, std::less<>> fixed = {
      {"nn.relu", {algorithm::eltwise_relu, 0, 0}},      {"tanh", {algorithm::eltwise_tanh, 0, 0}},
      {"sigmoid", {algorithm::eltwise_logistic, 0, 0}},  {"abs", {algorithm::eltwise_abs, 0, 0}},
      {"exp", {algorithm::eltwise_exp, 0, 0}},           {"log", {algorithm::eltwise_log, 0, 0}},
      {"sqrt", {algorithm::eltwise_sqrt, 0, 0}},         {"round", {algorithm::eltwise_round, 0, 0}},
      {"negative", {algorithm::eltwise_linear, -1, 0}}, {"copy", {algorithm::eltwise_linear, 1, 0}},
  };
  return fixed;
}

/// A unary op with a fixed algorithm, nn.leaky_relu (alpha) or clip (a_min, a_max).
Result<std::vector<Tensor>> lowerEltwiseOp(Lowering& lowering, const Kernel& kernel, const std::vector<Tensor>& inputs) {
  auto found = fixedEltwise().find(kernel.name);
  if (found != fixedEltwise().end()) return lowerEltwise(lowering, found->second.algo, inputs[0], found->second.alpha, found->second.beta);
  if (kernel.name == "nn.leaky_relu")
    return lowerEltwise(lowering, algorithm::eltwise_relu, inputs[0], static_cast<float>(kernel.attrs.find("alpha")->asFloat()));
  return lowerEltwise(lowering, algorithm::eltwise_clip, inputs[0], static_cast<float>(kernel.attrs.find("a_min")->asFloat()),
                      static_cast<float>(kernel.attrs.find("a_max")->asFloat()));
}

/// Binary ops: their algorithm, and whether the operands may swap (to broadcast the first).
const std::map<std::string, std::pair<algorithm, bool>, std::less<>>& binaryAlgorithms() {
  static const std::map<std::string, std::pair<algorithm, bool>, std::less<>> algorithms = {
      {"add", {algorithm::binary_add, true}},      {"multiply", {algorithm::binary_mul, true}},
      {"subtract", {algorithm::binary_sub, false}}, {"divide", {algorithm::binary_div, false}},
      {"maximum", {algorithm::binary_max, true}},   {"minimum", {algorithm::binary_min, true}},
  };
  return algorithms;
}

Result<std::vector<Tensor>> lowerBinary(Lowering& lowering, const Kernel& kernel, const std::vector<Tensor>& inputs) {
  const std::string& op = kernel.name;
  const auto& [algo, commutative] = binaryAlgorithms().find(op)->second;
  const Shape& out = kernel.outputs[0].shape;
  std::size_t full = 0, other = 1;
  if (kernel.inputs[0].shape != out) {
    if (!commutative || kernel.inputs[1].shape != out)
      return unsupported(op, "broadcasting the first operand is not supported; only the second may broadcast");
    full = 1;
    other = 0;
  }
  // The broadcast operand, with leading 1s up to the output's rank.
  Shape small = kernel.inputs[other].shape;
  small.insert(small.begin(), out.size() - small.size(), 1);
  const Tensor& src0 = inputs[full];
  Tensor src1 = small == out ? lowering.as(inputs[other], src0.desc())
                             : lowering.view(lowering.plain(inputs[other]), plainDesc(dimsOf(small)));
  dnnl::binary::desc desc(algo, src0.desc(), src1.desc(), src0.desc());
  dnnl::binary::primitive_desc pd(desc, lowering.engine);
  Tensor dst = lowering.fresh(pd.dst_desc());
  lowering.add(dnnl::binary(pd), {{DNNL_ARG_SRC_0, src0.memory}, {DNNL_ARG_SRC_1, src1.memory}, {DNNL_ARG_DST, dst.memory}});
  return std::vector<Tensor>{dst};
}

/// nn.bias_add: a binary add with the bias broadcast along `axis`.
Result<std::vector<Tensor>> lowerBiasAdd(Lowering& lowering, const Kernel& kernel, const std::vector<Tensor>& inputs) {
  const Shape& data = kernel.inputs[0].shape;
  const std::size_t axis =
      static_cast<std::size_t>(ops::normalizeAxis("nn.bias_add", kernel.attrs.find("axis")->asInt(), data.size()).value());
  memory::dims biasDims(data.size(), 1);
  biasDims[axis] = data[axis];
  const Tensor& src = inputs[0];
  Tensor bias = lowering.view(lowering.plain(inputs[1]), plainDesc(biasDims));
  dnnl::binary::desc desc(algorithm::binary_add, src.desc(), bias.desc(), src.desc());
  dnnl::binary::primitive_desc pd(desc, lowering.engine);
  Tensor dst = lowering.fresh(pd.dst_desc());
  lowering.add(dnnl::binary(pd), {{DNNL_ARG_SRC_0, src.memory}, {DNNL_ARG_SRC_1, bias.memory}, {DNNL_ARG_DST, dst.memory}});
  return std::vector<Tensor>{dst};
}

/// Ops that only change the shape: a view of the plain data, no copy.
Result<std::vector<Tensor>> lowerReshape(Lowering& lowering, const Kernel& kernel, const std::vector<Tensor>& inputs) {
  const Tensor& input = inputs[0];
  return std::vector<Tensor>{
      lowering.view(lowering.plain(input), plainDesc(dimsOf(kernel.outputs[0].shape)))};
}

/// transpose: the input read through permuted strides, reordered into plain layout.
Result<std::vector<Tensor>> lowerTranspose(Lowering& lowering, const Kernel& kernel, const std::vector<Tensor>& inputs) {
  const Tensor& input = inputs[0];
  const Shape& in = kernel.inputs[0].shape;
  if (in.empty()) return std::vector<Tensor>{input};
  const Shape& out = kernel.outputs[0].shape;
  const AttrValue* axes = kernel.attrs.find("axes");
  memory::dims inStrides(in.size(), 1);
  for (std::size_t i = in.size(); i-- > 1;) inStrides[i - 1] = inStrides[i] * in[i];
  memory::dims strides(in.size());
  for (std::size_t i = 0; i < in.size(); ++i) {
    const std::size_t from = axes && !axes->isNone() ? kernels::axisIndex((*axes->asInts())[i], in.size()) : in.size() - 1 - i;
    strides[i] = inStrides[from];
  }
  Tensor permuted = lowering.view(lowering.plain(input), memory::desc(dimsOf(out), dt::f32, strides));
  Tensor dst = lowering.fresh(plainDesc(dimsOf(out)));
  lowering.add(dnnl::reorder(permuted.memory, dst.memory), {{DNNL_ARG_FROM, permuted.memory}, {DNNL_ARG_TO, dst.memory}});
  return std::vector<Tensor>{dst};
}

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
    auto list = [&](const char* name) { return *kernel.attrs.find(name)->asInts(); };
    std::vector<int64_t> size = list("pool_size"), step = list("strides"), dil = list("dilation"), pad = list("padding");
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
  dnnl::pooling_v2_forward::desc desc(prop_kind::forward_inference, algo, src.desc(), anyDesc(dimsOf(out)), strides,
                                      window, dilation, padLeft, padRight);
  dnnl::pooling_v2_forward::primitive_desc pd(desc, lowering.engine);
  Tensor dst = lowering.fresh(pd.dst_desc());
  lowering.add(dnnl::pooling_v2_forward(pd), {{DNNL_ARG_SRC, src.memory}, {DNNL_ARG_DST, dst.memory}});
  return std::vector<Tensor>{dst};
}

/// A constant vector of `count` copies of `value`.
Tensor filled(Lowering& lowering, int64_t count, float value) {
  std::vector<float> values(static_cast<std::size_t>(count), value);
  return lowering.constant(values.data(), {count});
}

Result<std::vector<Tensor>> lowerBatchNorm(Lowering& lowering, const Kernel& kernel, const std::vector<Tensor>& inputs) {
  const Shape& in = kernel.inputs[0].shape;
  if (ops::normalizeAxis("nn.batch_norm", kernel.attrs.find("axis")->asInt(), in.size()).value() != 1 || in.size() < 2)
    return unsupported("nn.batch_norm", "only axis 1 is supported");
  const int64_t channels = in[1];
  const float epsilon = static_cast<float>(kernel.attrs.find("epsilon")->asFloat());
  Tensor scale = ops::boolAttr(kernel.attrs, "scale") ? lowering.plain(inputs[1]) : filled(lowering, channels, 1);
  Tensor shift = ops::boolAttr(kernel.attrs, "center") ? lowering.plain(inputs[2]) : filled(lowering, channels, 0);
  Tensor src = inputs[0];
  dnnl::batch_normalization_forward::desc desc(
      prop_kind::forward_inference, src.desc(), epsilon,
      dnnl::normalization_flags::use_global_stats | dnnl::normalization_flags::use_scale | dnnl::normalization_flags::use_shift);
  dnnl::batch_normalization_forward::primitive_desc pd(desc, lowering.engine);
  Tensor dst = lowering.fresh(pd.dst_desc());
  lowering.add(dnnl::batch_normalization_forward(pd),
               {{DNNL_ARG_SRC, src.memory}, {DNNL_ARG_MEAN, lowering.plain(inputs[3]).memory},
                {DNNL_ARG_VARIANCE, lowering.plain(inputs[4]).memory}, {DNNL_ARG_SCALE, scale.memory},
                {DNNL_ARG_SHIFT, shift.memory}, {DNNL_ARG_DST, dst.memory}});
  return std::vector<Tensor>{dst, inputs[3], inputs[4]};
}

Result<std::vector<Tensor>> lowerLayerNorm(Lowering& lowering, const Kernel& kernel, const std::vector<Tensor>& inputs) {
  const Shape& in = kernel.inputs[0].shape;
  if (ops::normalizeAxis("nn.layer_norm", kernel.attrs.find("axis")->asInt(), in.size()).value() + 1 !=
      static_cast<int64_t>(in.size()))
    return unsupported("nn.layer_norm", "only the last axis is supported");
  const int64_t channels = in.back();
  const float epsilon = static_cast<float>(kernel.attrs.find("epsilon")->asFloat());
  Tensor scale = ops::boolAttr(kernel.attrs, "scale") ? lowering.plain(inputs[1]) : filled(lowering, channels, 1);
  Tensor shift = ops::boolAttr(kernel.attrs, "center") ? lowering.plain(inputs[2]) : filled(lowering, channels, 0);
  Tensor src = lowering.plain(inputs[0]);
  dnnl::layer_normalization_forward::desc desc(prop_kind::forward_inference, src.desc(), epsilon,
                                               dnnl::normalization_flags::use_scale | dnnl::normalization_flags::use_shift);
  dnnl::layer_normalization_forward::primitive_desc pd(desc, lowering.engine);
  Tensor dst = lowering.fresh(pd.dst_desc());
  lowering.add(dnnl::layer_normalization_forward(pd),
               {{DNNL_ARG_SRC, src.memory}, {DNNL_ARG_SCALE, scale.memory}, {DNNL_ARG_SHIFT, shift.memory},
                {DNNL_ARG_MEAN, lowering.fresh(pd.mean_desc()).memory},
                {DNNL_ARG_VARIANCE, lowering.fresh(pd.variance_desc()).memory}, {DNNL_ARG_DST, dst.memory}});
  return std::vector<Tensor>{dst};
}

Result<std::vector<Tensor>> lowerSoftmax(Lowering& lowering, const Kernel& kernel, const std::vector<Tensor>& inputs) {
  const Tensor& input = inputs[0];
  const std::string& op = kernel.name;
  const Shape& in = kernel.inputs[0].shape;
  const int axis = static_cast<int>(ops::normalizeAxis(op, kernel.attrs.find("axis")->asInt(), in.size()).value());
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

Result<std::vector<Tensor>> lowerConcat(Lowering& lowering, const Kernel& kernel, const std::vector<Tensor>& inputs) {
  const Shape& out = kernel.outputs[0].shape;
  const int axis = static_cast<int>(ops::normalizeAxis("concatenate", kernel.attrs.find("axis")->asInt(), out.size()).value());
  std::vector<memory::desc> descs;
  for (const Tensor& input : inputs) descs.push_back(input.desc());
  dnnl::concat::primitive_desc pd(axis, descs, lowering.engine);
  Tensor dst = lowering.fresh(pd.dst_desc());
  std::unordered_map<int, memory> args = {{DNNL_ARG_DST, dst.memory}};
  for (std::size_t i = 0; i < inputs.size(); ++i) args[DNNL_ARG_MULTIPLE_SRC + static_cast<int>(i)] = inputs[i].memory;
  lowering.add(dnnl::concat(pd), std::move(args));
  return std::vector<Tensor>{dst};
}

/// nn.pad in constant mode: a buffer filled with the pad value once, at load, whose interior a
/// reorder overwrites at each run; the border is never written again.
Result<std::vector<Tensor>> lowerPad(Lowering& lowering, const Kernel& kernel, const std::vector<Tensor>& inputs) {
  if (ops::stringAttr(kernel.attrs, "pad_mode") != "constant")
    return unsupported("nn.pad", "only pad_mode \"constant\" is supported");
  if (!inputs[1].constant) return unsupported("nn.pad", "the pad value must be a constant");
  const Shape& in = kernel.inputs[0].shape;
  const Shape& out = kernel.outputs[0].shape;
  const AttrValue::List& width = kernel.attrs.find("pad_width")->asList();
  memory::dims offsets;
  for (std::size_t i = 0; i < in.size(); ++i) {
    const std::vector<int64_t> pair = *width[i].asInts();
    if (pair[0] < 0 || pair[1] < 0) return unsupported("nn.pad", "negative pad widths are not supported");
    offsets.push_back(pair[0]);
  }
  if (in.empty() || out == in) return std::vector<Tensor>{inputs[0]};
  Tensor dst = lowering.fresh(plainDesc(dimsOf(out)));
  dst.preset = true;
  const float value = *static_cast<const float*>(inputs[1].memory.get_data_handle());
  std::fill_n(static_cast<float*>(dst.memory.get_data_handle()), shapeElements(out), value);
  memory interior(dst.desc().submemory_desc(dimsOf(in), offsets), lowering.engine, dst.memory.get_data_handle());
  lowering.add(dnnl::reorder(inputs[0].memory, interior), {{DNNL_ARG_FROM, inputs[0].memory}, {DNNL_ARG_TO, interior}});
  return std::vector<Tensor>{dst};
}

/// nn.batch_matmul ([b, m, k] · [b, k, n]) and nn.matmul (2-d), transposes read through strides.
Result<std::vector<Tensor>> lowerMatmul(Lowering& lowering, const Kernel& kernel, const std::vector<Tensor>& inputs) {
  const bool batched = kernel.name == "nn.batch_matmul";
  const bool ta = ops::boolAttr(kernel.attrs, "transpose_a");
  const bool tb = ops::boolAttr(kernel.attrs, "transpose_b");
  const Shape& x = kernel.inputs[0].shape;
  const Shape& y = kernel.inputs[1].shape;
  const Shape& out = kernel.outputs[0].shape;
  const std::size_t r = batched ? 1 : 0;
  const int64_t m = out[r], n = out[r + 1], k = ta ? x[r] : x[r + 1];
  const memory::dims srcDims = batched ? memory::dims{x[0], m, k} : memory::dims{m, k};
  const memory::dims weightDims = batched ? memory::dims{y[0], k, n} : memory::dims{k, n};
  const tag normal = batched ? tag::abc : tag::ab;
  const tag swapped = batched ? tag::acb : tag::ba;
  Tensor src = lowering.view(lowering.plain(inputs[0]), memory::desc(srcDims, dt::f32, ta ? swapped : normal));
  Tensor weights = lowering.view(lowering.plain(inputs[1]), memory::desc(weightDims, dt::f32, tb ? swapped : normal));
  dnnl::matmul::desc desc(src.desc(), weights.desc(), plainDesc(dimsOf(out)));
  dnnl::matmul::primitive_desc pd(desc, lowering.engine);
  Tensor dst = lowering.fresh(pd.dst_desc());
  lowering.add(dnnl::matmul(pd), {{DNNL_ARG_SRC, src.memory}, {DNNL_ARG_WEIGHTS, weights.memory}, {DNNL_ARG_DST, dst.memory}});
  return std::vector<Tensor>{dst};
}

/// strided_slice with unit strides: the plain input read through a sub-memory, reordered to plain.
Result<std::vector<Tensor>> lowerStridedSlice(Lowering& lowering, const Kernel& kernel, const std::vector<Tensor>& inputs) {
  const Tensor& input = inputs[0];
  const Shape& in = kernel.inputs[0].shape;
  const Shape& out = kernel.outputs[0].shape;
  const AttrValue* strides = kernel.attrs.find("strides");
  const std::vector<int64_t> steps = strides && !strides->isNone() ? *strides->asInts() : std::vector<int64_t>{};
  for (int64_t step : steps)
    if (step != 1) return unsupported("strided_slice", "only unit strides are supported");
  const std::vector<int64_t> begin = *kernel.attrs.find("begin")->asInts();
  const AttrValue* axes = kernel.attrs.find("axes");
  memory::dims offsets(in.size(), 0);
  for (std::size_t i = 0; i < begin.size(); ++i) {
    const std::size_t axis = axes && !axes->isNone() ? kernels::axisIndex((*axes->asInts())[i], in.size()) : i;
    const int64_t first = begin[i] < 0 ? begin[i] + in[axis] : begin[i];
    offsets[axis] = std::clamp<int64_t>(first, 0, in[axis]);
  }
  if (in.empty() || out == in) return std::vector<Tensor>{input};
  if (shapeElements(out) == 0) return unsupported("strided_slice", "an empty slice is not supported");
  Tensor whole = lowering.plain(input);
  Tensor part = lowering.view(whole, whole.desc().submemory_desc(dimsOf(out), offsets));
  Tensor dst = lowering.fresh(plainDesc(dimsOf(out)));
  lowering.add(dnnl::reorder(part.memory, dst.memory), {{DNNL_ARG_FROM, part.memory}, {DNNL_ARG_TO, dst.memory}});
  return std::vector<Tensor>{dst};
}

/// The lowering of each op, by name.
using OpLowering = Result<std::vector<Tensor>> (*)(Lowering&, const Kernel&, const std::vector<Tensor>&);

const std::map<std::string, OpLowering, std::less<>>& opLowerings() {
  static const std::map<std::string, OpLowering, std::less<>> table = [] {
    std::map<std::string, OpLowering, std::less<>> map;
    map["nn.conv2d"] = [](Lowering& l, const Kernel& k, const std::vector<Tensor>& in) { return lowerConvolution(l, k.name, k, false, in, {}); };
    map["nn.conv2d_transpose"] = [](Lowering& l, const Kernel& k, const std::vector<Tensor>& in) { return lowerConvolution(l, k.name, k, true, in, {}); };
    map["nn.dense"] = [](Lowering& l, const Kernel& k, const std::vector<Tensor>& in) { return lowerDense(l, k, in, {}); };
    for (const auto& [op, spec] : fixedEltwise()) map[op] = lowerEltwiseOp;
    for (const char* op : {"nn.leaky_relu", "clip"}) map[op] = lowerEltwiseOp;
    for (const auto& [op, algo] : binaryAlgorithms()) map[op] = lowerBinary;
    map["nn.bias_add"] = lowerBiasAdd;
    for (const char* op : {"reshape", "squeeze", "expand_dims", "nn.batch_flatten"}) map[op] = lowerReshape;
    map["transpose"] = lowerTranspose;
    for (const char* op : {"nn.max_pool2d", "nn.avg_pool2d", "nn.global_avg_pool2d", "nn.global_max_pool2d", "nn.adaptive_avg_pool2d"})
      map[op] = lowerPool;
    map["nn.batch_norm"] = lowerBatchNorm;
    map["nn.layer_norm"] = lowerLayerNorm;
    for (const char* op : {"nn.softmax", "nn.log_softmax"}) map[op] = lowerSoftmax;
    map["concatenate"] = lowerConcat;
    map["nn.pad"] = lowerPad;
    map["strided_slice"] = lowerStridedSlice;
    for (const char* op : {"nn.batch_matmul", "nn.matmul"}) map[op] = lowerMatmul;
    return map;
  }();
  return table;
}

}  // namespace

Result<std::vector<Tensor>> lowerEltwise(Lowering& lowering, dnnl::algorithm algo, const Tensor& src, float alpha, float beta) {
  dnnl::eltwise_forward::desc desc(prop_kind::forward_inference, algo, src.desc(), alpha, beta);
  dnnl::eltwise_forward::primitive_desc pd(desc, lowering.engine);
  Tensor dst = lowering.fresh(pd.dst_desc());
  lowering.add(dnnl::eltwise_forward(pd), {{DNNL_ARG_SRC, src.memory}, {DNNL_ARG_DST, dst.memory}});
  return std::vector<Tensor>{dst};
}

bool isLoweredOp(std::string_view op) { return opLowerings().count(op) != 0; }

Result<std::vector<Tensor>> lowerOpCall(Lowering& lowering, const Kernel& kernel, const std::vector<Tensor>& inputs) {
  auto found = opLowerings().find(kernel.name);
  if (found == opLowerings().end()) return makeError("unsupported op " + kernel.name);
  return guarded(kernel.name, [&] { return found->second(lowering, kernel, inputs); });
}

}  // namespace byoc::dnnl_backend
