#include "runtime/dnnl/ops.h"

#include <algorithm>
#include <map>

#include "ir/op_attr_map.h"
#include "ir/ops/attr_views.h"
#include "ir/ops/op_helpers.h"
#include "runtime/dnnl/anchor_ops.h"
#include "runtime/dnnl/lowering_helpers.h"
#include "runtime/dnnl/op_lowerings.h"
#include "runtime/dnnl/qnn_ops.h"

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
      {"nn.gelu", {algorithm::eltwise_gelu_erf, 0, 0}},
  };
  return fixed;
}

/// A unary op with a fixed algorithm, nn.leaky_relu (alpha) or clip (a_min, a_max).
Result<std::vector<Tensor>> lowerEltwiseOp(Lowering& lowering, const Kernel& kernel, const std::vector<Tensor>& inputs) {
  auto found = fixedEltwise().find(kernel.name);
  if (found != fixedEltwise().end()) return lowerEltwise(lowering, found->second.algo, inputs[0], found->second.alpha, found->second.beta);
  if (kernel.name == "nn.leaky_relu") {
    BYOC_ASSIGN_OR_RETURN(const double alpha, ops::floatAttr(kernel.name, kernel.attrs, "alpha"));
    return lowerEltwise(lowering, algorithm::eltwise_relu, inputs[0], static_cast<float>(alpha));
  }
  BYOC_ASSIGN_OR_RETURN(const ops::ClipAttrs clip, ops::readClipAttrs(kernel.name, kernel.attrs));
  return lowerEltwise(lowering, algorithm::eltwise_clip, inputs[0], static_cast<float>(clip.low), static_cast<float>(clip.high));
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
  // The broadcast operand, with leading 1s up to the output's rank: a view of it when its rank is
  // lower (a reorder only converts between layouts of one rank).
  Shape small = kernel.inputs[other].shape;
  const bool lowerRank = small.size() < out.size();
  small.insert(small.begin(), out.size() - small.size(), 1);
  const Tensor& src0 = inputs[full];
  Tensor src1 = lowerRank || small != out ? lowering.view(lowering.plain(inputs[other]), plainDesc(dimsOf(small))) : inputs[other];
  if (small == out) src1 = lowering.as(src1, src0.desc());
  dnnl::binary::desc desc(algo, src0.desc(), src1.desc(), src0.desc());
  dnnl::binary::primitive_desc pd(desc, lowering.engine);
  Tensor dst = lowering.fresh(pd.dst_desc());
  lowering.add(dnnl::binary(pd), {{DNNL_ARG_SRC_0, src0.memory}, {DNNL_ARG_SRC_1, src1.memory}, {DNNL_ARG_DST, dst.memory}});
  return std::vector<Tensor>{dst};
}

/// nn.bias_add: a binary add with the bias broadcast along `axis`.
Result<std::vector<Tensor>> lowerBiasAdd(Lowering& lowering, const Kernel& kernel, const std::vector<Tensor>& inputs) {
  const Shape& data = kernel.inputs[0].shape;
  BYOC_ASSIGN_OR_RETURN(const std::size_t axis, ops::axisAttr("nn.bias_add", kernel.attrs, data.size()));
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

/// The lowering of an op kernel.
using OpLowering = Result<std::vector<Tensor>> (*)(Lowering&, const Kernel&, const std::vector<Tensor>&);

/// The lowerings attached to the op definitions: `map["op.name"] = lowering;`.
const OpAttrMap<OpLowering>& opLowerings() {
  static const OpAttrMap<OpLowering> table = [] {
    OpAttrMap<OpLowering> map;
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
    for (const char* op : {"nn.conv1d", "nn.conv3d", "nn.conv3d_transpose", "nn.conv1d_transpose"}) map[op] = lowerSpatialConv;
    for (const char* op : {"nn.max_pool1d", "nn.avg_pool1d", "nn.max_pool3d", "nn.avg_pool3d"}) map[op] = lowerSpatialPool;
    for (const char* op : {"nn.adaptive_avg_pool1d", "nn.adaptive_avg_pool3d", "nn.adaptive_max_pool1d", "nn.adaptive_max_pool3d"})
      map[op] = lowerSpatialGlobalPool;
    map["nn.batch_norm"] = lowerBatchNorm;
    map["nn.layer_norm"] = lowerLayerNorm;
    for (const char* op : {"nn.softmax", "nn.log_softmax"}) map[op] = lowerSoftmax;
    map["concatenate"] = lowerConcat;
    map["nn.pad"] = lowerPad;
    map["qnn.quantize"] = lowerQuantize;
    map["qnn.dequantize"] = lowerDequantize;
    for (const char* op : {"qnn.add", "qnn.subtract"}) map[op] = lowerQnnAddOrSubtract;
    map["qnn.concatenate"] = lowerQnnConcatenate;
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

bool isLoweredOp(const OpDef& op) { return opLowerings().find(op) != nullptr; }

Result<std::vector<Tensor>> lowerOpCall(Lowering& lowering, const OpDef& op, const Kernel& kernel,
                                        const std::vector<Tensor>& inputs) {
  const OpLowering* lower = opLowerings().find(op);
  if (!lower) return makeError("unsupported op " + op.name);
  return guarded(kernel.name, [&] { return (*lower)(lowering, kernel, inputs); });
}

}  // namespace byoc::dnnl_backend
