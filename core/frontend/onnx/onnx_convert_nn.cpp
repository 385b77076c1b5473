/// \file
/// Converters of the neural-network ONNX ops: convolution, Gemm and MatMul, normalisations,
/// pooling, softmax, PRelu, ArgMax and ArgMin. Conv takes 1-D, 2-D and 3-D inputs (NCW, NCHW, NCDHW),
/// ConvTranspose and the window pools 2-D and 3-D; global pools 2-D.
///
/// Conv's bias becomes `nn.bias_add` (axis 1), as TVM's importer writes it, so that the
/// `conv2d → bias_add → relu` chains read like TVM's; the DNNL flow canonicalises it to `add`.
/// Gemm's bias becomes `add`, also as TVM writes it, which is what the dense patterns match.

#include <algorithm>
#include <array>
#include <cstring>

#include "frontend/onnx/onnx_converters.h"
#include "frontend/onnx/onnx_tensor.h"
#include "support/limits.h"

namespace byoc::onnx_import {

namespace {

DType dtypeOf(const OnnxValue& value) { return value.tensor() ? value.tensor()->dtype : DType::Float32; }

/// The Relay op for an input of x's rank: `ops` lists the op for rank 3 (1-D), 4 and 5; an empty
/// name is a rank the import does not support.
Result<std::string> opForRank(const OnnxValue& x, const std::string& what, const std::array<const char*, 3>& ops) {
  const int64_t rank = x.rank();
  if (rank >= 3 && rank <= 5 && *ops[static_cast<std::size_t>(rank - 3)]) return std::string(ops[static_cast<std::size_t>(rank - 3)]);
  std::string supported;
  for (std::size_t i = 0; i < ops.size(); ++i)
    if (*ops[i]) supported += (supported.empty() ? "" : ", ") + std::to_string(i + 1) + "-D (rank " + std::to_string(i + 3) + ")";
  return makeError(what + " on an input of rank " + std::to_string(rank) + " is not supported; expected " + supported);
}

/// The window attributes shared by Conv and the pools, resolved to Relay's form.
struct Window {
  std::vector<int64_t> kernel;
  std::vector<int64_t> strides;
  std::vector<int64_t> dilations;
  std::vector<int64_t> padding;  ///< the begins, then the ends (2-D: top, left, bottom, right), as ONNX's pads.
};

/// "kernel_shape (3, 3), strides (1, 1), dilations (1, 1), pads (0, 0, 0, 0)", for errors.
std::string describeWindow(const Window& window) {
  return "kernel_shape " + listString(window.kernel) + ", strides " + listString(window.strides) + ", dilations " +
         listString(window.dilations) + ", pads " + listString(window.padding);
}

/// The sum of `terms`, or nullopt when a term is missing or the sum overflows int64_t.
std::optional<int64_t> checkedSum(std::initializer_list<std::optional<int64_t>> terms) {
  int64_t total = 0;
  for (const std::optional<int64_t>& term : terms) {
    std::optional<int64_t> next = term ? limits::checkedAdd(total, *term) : std::nullopt;
    if (!next) return std::nullopt;
    total = *next;
  }
  return total;
}

/// Checks a window before the op's relation computes output sizes from it: kernel, strides and
/// dilations positive, pads not negative, and every size derived from them, the input's spatial
/// sizes and `extra` (ConvTranspose's output padding) within int64_t.
Status checkWindow(const Window& window, const OnnxValue& x, int64_t extra) {
  const std::size_t dims = window.kernel.size();
  for (std::size_t i = 0; i < dims; ++i) {
    int64_t kernel = window.kernel[i], stride = window.strides[i], dilation = window.dilations[i];
    if (kernel < 1 || stride < 1 || dilation < 1 || window.padding[i] < 0 || window.padding[i + dims] < 0)
      return makeError(describeWindow(window) + ": expected a positive kernel_shape, strides and dilations, and pads of 0 or more");
    int64_t in = std::max<int64_t>(x.shape()[2 + i], 0);
    if (!checkedSum({in, window.padding[i], window.padding[i + dims], stride, extra, 1,
                     limits::checkedMul(kernel - 1, dilation), limits::checkedMul(std::max<int64_t>(in, 1), stride)}))
      return makeError(describeWindow(window) + ": the window is too large for an input of size " + std::to_string(in));
  }
  return Status::ok();
}

/// Checks that the weight has the rank of the data.
Status requireWeightRank(const OnnxValue& w, const OnnxValue& x) {
  if (w.rank() != x.rank())
    return makeError("the weight must have rank " + std::to_string(x.rank()) + ", as the input, found " + std::to_string(w.rank()));
  return Status::ok();
}

/// Checks a group count against the weight's second dimension (they multiply to the channels).
Status checkGroups(int64_t group, const OnnxValue& w) {
  if (group < 1 || !limits::checkedMul(w.shape()[1], group))
    return makeError("group " + std::to_string(group) + " is not supported; expected a positive number of groups");
  return Status::ok();
}

/// Reads the window of a node over x's spatial axes (rank - 2 of them).
Result<Window> readWindow(const OnnxNodeContext& c, const OnnxValue& x, std::vector<int64_t> kernel) {
  const std::size_t dims = static_cast<std::size_t>(x.rank()) - 2;
  const std::string count = std::to_string(dims);
  Window window;
  BYOC_ASSIGN_OR_RETURN(window.kernel, c.attrs.getInts("kernel_shape", kernel));
  if (window.kernel.size() != dims)
    return makeError("kernel_shape must have " + count + " values, found " + std::to_string(window.kernel.size()));
  BYOC_ASSIGN_OR_RETURN(window.strides, c.attrs.getInts("strides", std::vector<int64_t>(dims, 1)));
  BYOC_ASSIGN_OR_RETURN(window.dilations, c.attrs.getInts("dilations", std::vector<int64_t>(dims, 1)));
  BYOC_ASSIGN_OR_RETURN(window.padding, c.attrs.getInts("pads", std::vector<int64_t>(2 * dims, 0)));
  if (window.strides.size() != dims || window.dilations.size() != dims || window.padding.size() != 2 * dims)
    return makeError("strides and dilations must have " + count + " values and pads " + std::to_string(2 * dims));
  BYOC_TRY(checkWindow(window, x, 0));
  BYOC_ASSIGN_OR_RETURN(std::string autoPad, c.attrs.getString("auto_pad", "NOTSET"));
  if (autoPad == "VALID") {
    window.padding.assign(2 * dims, 0);
  } else if (autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER") {
    for (std::size_t i = 0; i < dims; ++i) {
      int64_t in = x.shape()[2 + i];
      int64_t out = (in + window.strides[i] - 1) / window.strides[i];
      int64_t effective = (window.kernel[i] - 1) * window.dilations[i] + 1;
      int64_t total = std::max<int64_t>((out - 1) * window.strides[i] + effective - in, 0);
      int64_t small = total / 2;
      window.padding[i] = autoPad == "SAME_UPPER" ? small : total - small;
      window.padding[i + dims] = total - window.padding[i];
    }
  } else if (autoPad != "NOTSET") {
    return makeError("auto_pad \"" + autoPad + "\" is not supported; expected NOTSET, SAME_UPPER, SAME_LOWER or VALID");
  }
  return window;
}

Result<OnnxOutputs> conv(const OnnxNodeContext& c) {
  BYOC_ASSIGN_OR_RETURN(OnnxValue x, c.input(0));
  BYOC_ASSIGN_OR_RETURN(OnnxValue w, c.input(1));
  BYOC_ASSIGN_OR_RETURN(std::string op, opForRank(x, "Conv", {"nn.conv1d", "nn.conv2d", "nn.conv3d"}));
  BYOC_TRY(requireWeightRank(w, x));
  std::vector<int64_t> kernel(w.shape().begin() + 2, w.shape().end());
  BYOC_ASSIGN_OR_RETURN(Window window, readWindow(c, x, kernel));
  BYOC_ASSIGN_OR_RETURN(int64_t group, c.attrs.getInt("group", 1));
  BYOC_TRY(checkGroups(group, w));
  BYOC_ASSIGN_OR_RETURN(OnnxValue out, c.call(op, {x, w},
                                               {{"strides", AttrValue::ints(window.strides)},
                                                {"padding", AttrValue::ints(window.padding)},
                                                {"dilation", AttrValue::ints(window.dilations)},
                                                {"groups", group},
                                                {"channels", w.shape()[0]},
                                                {"kernel_size", AttrValue::ints(window.kernel)}}));
  if (!c.hasInput(2)) return OnnxOutputs{out};
  BYOC_ASSIGN_OR_RETURN(OnnxValue bias, c.input(2));
  return single(c.call("nn.bias_add", {out, bias}, {{"axis", 1}}));
}

/// `value` reshaped to `shape` (Relay reshape codes allowed).
Result<OnnxValue> reshape(const OnnxNodeContext& c, const OnnxValue& value, const std::vector<int64_t>& shape) {
  return c.call("reshape", {value}, {{"newshape", AttrValue::ints(shape)}});
}

/// ConvTranspose: the ONNX weight [C_in, C_out / group, kH, kW] is Relay's IOHW layout (IOW in 1-D,
/// IODHW in 3-D).
Result<OnnxOutputs> convTranspose(const OnnxNodeContext& c) {
  BYOC_ASSIGN_OR_RETURN(OnnxValue x, c.input(0));
  BYOC_ASSIGN_OR_RETURN(OnnxValue w, c.input(1));
  BYOC_ASSIGN_OR_RETURN(std::string op, opForRank(x, "ConvTranspose", {"nn.conv1d_transpose", "nn.conv2d_transpose", "nn.conv3d_transpose"}));
  BYOC_TRY(requireWeightRank(w, x));
  if (c.attrs.has("output_shape")) return makeError("ConvTranspose with output_shape is not supported; give pads");
  BYOC_ASSIGN_OR_RETURN(std::string autoPad, c.attrs.getString("auto_pad", "NOTSET"));
  if (autoPad != "NOTSET") return makeError("ConvTranspose with auto_pad \"" + autoPad + "\" is not supported");
  std::vector<int64_t> kernel(w.shape().begin() + 2, w.shape().end());
  BYOC_ASSIGN_OR_RETURN(Window window, readWindow(c, x, kernel));
  BYOC_ASSIGN_OR_RETURN(int64_t group, c.attrs.getInt("group", 1));
  const std::size_t dims = window.kernel.size();
  BYOC_ASSIGN_OR_RETURN(std::vector<int64_t> outputPadding, c.attrs.getInts("output_padding", std::vector<int64_t>(dims, 0)));
  BYOC_TRY(checkGroups(group, w));
  if (outputPadding.size() != dims || *std::min_element(outputPadding.begin(), outputPadding.end()) < 0)
    return makeError("output_padding must hold " + std::to_string(dims) + " values of 0 or more");
  BYOC_TRY(checkWindow(window, x, *std::max_element(outputPadding.begin(), outputPadding.end())));
  BYOC_ASSIGN_OR_RETURN(OnnxValue out, c.call(op, {x, w},
                                               {{"strides", AttrValue::ints(window.strides)},
                                                {"padding", AttrValue::ints(window.padding)},
                                                {"output_padding", AttrValue::ints(outputPadding)},
                                                {"dilation", AttrValue::ints(window.dilations)},
                                                {"groups", group},
                                                {"channels", w.shape()[1] * group},
                                                {"kernel_size", AttrValue::ints(window.kernel)}}));
  if (!c.hasInput(2)) return OnnxOutputs{out};
  BYOC_ASSIGN_OR_RETURN(OnnxValue bias, c.input(2));
  return single(c.call("nn.bias_add", {out, bias}, {{"axis", 1}}));
}

/// PRelu: a slope of one value per channel (any shape holding C values) becomes nn.prelu's vector.
Result<OnnxOutputs> prelu(const OnnxNodeContext& c) {
  BYOC_ASSIGN_OR_RETURN(OnnxValue x, c.input(0));
  BYOC_ASSIGN_OR_RETURN(OnnxValue slope, c.input(1));
  if (x.rank() < 2) return makeError("PRelu needs an input of rank 2 or more, found rank " + std::to_string(x.rank()));
  if (slope.rank() != 1) {
    BYOC_ASSIGN_OR_RETURN(slope, reshape(c, slope, {-1}));
  }
  return single(c.call("nn.prelu", {x, slope}, {{"axis", 1}}));
}

/// ArgMax and ArgMin (`op`: argmax or argmin): Relay's yield int32; ONNX's int64, hence a cast.
OnnxConverter argReduce(const char* op) {
  return [op](const OnnxNodeContext& c) -> Result<OnnxOutputs> {
    BYOC_ASSIGN_OR_RETURN(OnnxValue x, c.input(0));
    BYOC_ASSIGN_OR_RETURN(int64_t axis, c.attrs.getInt("axis", 0));
    BYOC_ASSIGN_OR_RETURN(int64_t keepdims, c.attrs.getInt("keepdims", 1));
    BYOC_ASSIGN_OR_RETURN(int64_t selectLast, c.attrs.getInt("select_last_index", 0));
    BYOC_ASSIGN_OR_RETURN(OnnxValue index, c.call(op, {x},
                                                   {{"axis", AttrValue::ints({axis})},
                                                    {"keepdims", keepdims != 0},
                                                    {"select_last_index", selectLast != 0}}));
    return single(c.call("cast", {index}, {{"dtype", "int64"}}));
  };
}

/// A 2-D matrix [k, n] as the [n, k] weight of nn.dense: transposed at import when constant.
/// A constant keeps its initializer's name, so the weight reads as the parameter it is.
Result<OnnxValue> denseWeight(const OnnxNodeContext& c, const OnnxValue& b) {
  const TensorData* data = b.constant();
  if (!data) return c.call("transpose", {b}, {{"axes", AttrValue::ints({1, 0})}});
  auto rows = static_cast<std::size_t>(data->shape()[0]);
  auto cols = static_cast<std::size_t>(data->shape()[1]);
  std::size_t size = dtypeSize(data->dtype());
  std::vector<std::byte> bytes(data->bytes().size());
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t col = 0; col < cols; ++col)
      std::memcpy(bytes.data() + (col * rows + r) * size, data->bytes().data() + (r * cols + col) * size, size);
  TensorData transposed(data->dtype(), {data->shape()[1], data->shape()[0]},
                        std::make_shared<const std::vector<std::byte>>(std::move(bytes)));
  return c.constant(std::move(transposed), b.expr->as<ConstantNode>()->name);
}

Result<OnnxOutputs> gemm(const OnnxNodeContext& c) {
  BYOC_ASSIGN_OR_RETURN(OnnxValue a, c.input(0));
  BYOC_ASSIGN_OR_RETURN(OnnxValue b, c.input(1));
  if (a.rank() != 2 || b.rank() != 2) return makeError("Gemm operands must have rank 2");
  BYOC_ASSIGN_OR_RETURN(double alpha, c.attrs.getFloat("alpha", 1.0f));
  BYOC_ASSIGN_OR_RETURN(double beta, c.attrs.getFloat("beta", 1.0f));
  BYOC_ASSIGN_OR_RETURN(int64_t transA, c.attrs.getInt("transA", 0));
  BYOC_ASSIGN_OR_RETURN(int64_t transB, c.attrs.getInt("transB", 0));
  if (transA) {
    BYOC_ASSIGN_OR_RETURN(a, c.call("transpose", {a}, {{"axes", AttrValue::ints({1, 0})}}));
  }
  if (!transB) {
    BYOC_ASSIGN_OR_RETURN(b, denseWeight(c, b));
  }
  BYOC_ASSIGN_OR_RETURN(OnnxValue out, c.call("nn.dense", {a, b}, {{"units", b.shape()[0]}}));
  if (alpha != 1.0f) {
    BYOC_ASSIGN_OR_RETURN(out, c.call("multiply", {out, c.scalar(dtypeOf(out), alpha)}));
  }
  if (!c.hasInput(2)) return OnnxOutputs{out};
  BYOC_ASSIGN_OR_RETURN(OnnxValue bias, c.input(2));
  if (beta != 1.0f) {
    BYOC_ASSIGN_OR_RETURN(bias, c.call("multiply", {bias, c.scalar(dtypeOf(bias), beta)}));
  }
  return single(c.call("add", {out, bias}));
}

/// MatMul as TVM imports it: a 2-D right operand gives nn.dense (the left operand flattened to
/// 2-D and the result reshaped back); otherwise both are brought to rank 3 for nn.batch_matmul.
Result<OnnxOutputs> matmul(const OnnxNodeContext& c) {
  BYOC_ASSIGN_OR_RETURN(OnnxValue a, c.input(0));
  BYOC_ASSIGN_OR_RETURN(OnnxValue b, c.input(1));
  if (a.rank() < 2 || b.rank() < 2) return makeError("MatMul operands of rank 1 are not supported");
  Shape aShape = a.shape();
  Shape bShape = b.shape();
  int64_t m = aShape[aShape.size() - 2];
  int64_t n = bShape.back();
  if (b.rank() == 2) {
    BYOC_ASSIGN_OR_RETURN(OnnxValue weight, denseWeight(c, b));
    if (a.rank() == 2) return single(c.call("nn.dense", {a, weight}, {{"units", n}}));
    BYOC_ASSIGN_OR_RETURN(OnnxValue flat, reshape(c, a, {-1, aShape.back()}));
    BYOC_ASSIGN_OR_RETURN(OnnxValue product, c.call("nn.dense", {flat, weight}, {{"units", n}}));
    Shape outShape(aShape.begin(), aShape.end() - 1);
    outShape.push_back(n);
    return single(reshape(c, product, outShape));
  }
  // Batch dimensions broadcast as numpy does; the output keeps the longer batch shape.
  Shape aBatch(aShape.begin(), aShape.end() - 2);
  Shape bBatch(bShape.begin(), bShape.end() - 2);
  Shape batch = aBatch.size() >= bBatch.size() ? aBatch : bBatch;
  if (a.rank() != 3) {
    BYOC_ASSIGN_OR_RETURN(a, reshape(c, a, {-1, m, aShape.back()}));
  }
  if (b.rank() != 3) {
    BYOC_ASSIGN_OR_RETURN(b, reshape(c, b, {-1, bShape[bShape.size() - 2], n}));
  }
  BYOC_ASSIGN_OR_RETURN(OnnxValue product, c.call("nn.batch_matmul", {a, b}, {{"transpose_b", false}}));
  if (batch.size() == 1) return OnnxOutputs{product};
  Shape outShape = batch;
  outShape.push_back(m);
  outShape.push_back(n);
  return single(reshape(c, product, outShape));
}

Result<OnnxOutputs> batchNorm(const OnnxNodeContext& c) {
  std::vector<OnnxValue> args;
  for (std::size_t i = 0; i < 5; ++i) {
    BYOC_ASSIGN_OR_RETURN(OnnxValue arg, c.input(i));
    args.push_back(arg);
  }
  BYOC_ASSIGN_OR_RETURN(double epsilon, c.attrs.getFloat("epsilon", 1e-5f));
  BYOC_ASSIGN_OR_RETURN(OnnxValue norm, c.call("nn.batch_norm", args, {{"axis", 1}, {"epsilon", epsilon}}));
  return single(c.getItem(norm, 0));
}

/// LayerNormalization (opset 17) over the last axis; Relay's nn.layer_norm normalises one axis.
Result<OnnxOutputs> layerNorm(const OnnxNodeContext& c) {
  BYOC_ASSIGN_OR_RETURN(OnnxValue x, c.input(0));
  BYOC_ASSIGN_OR_RETURN(OnnxValue scale, c.input(1));
  BYOC_ASSIGN_OR_RETURN(int64_t axis, c.attrs.getInt("axis", -1));
  BYOC_ASSIGN_OR_RETURN(axis, onnxAxis(axis, x.rank()));
  if (axis != static_cast<int64_t>(x.rank()) - 1)
    return makeError("LayerNormalization over axes " + std::to_string(axis) + ".." + std::to_string(x.rank() - 1) +
                     " is not supported; only the last axis");
  BYOC_ASSIGN_OR_RETURN(double epsilon, c.attrs.getFloat("epsilon", 1e-5f));
  OnnxValue bias = c.hasInput(2) ? *c.input(2) : c.constant(TensorData::zeros(dtypeOf(x), scale.shape()));
  return single(c.call("nn.layer_norm", {x, scale, bias}, {{"axis", -1}, {"epsilon", epsilon}}));
}

/// MaxPool and AveragePool: `ops` are the 1-D, 2-D and 3-D ops.
OnnxConverter windowPool(std::string name, std::array<const char*, 3> ops, bool isAverage) {
  return [name, ops, isAverage](const OnnxNodeContext& c) -> Result<OnnxOutputs> {
    BYOC_ASSIGN_OR_RETURN(OnnxValue x, c.input(0));
    BYOC_ASSIGN_OR_RETURN(std::string op, opForRank(x, name, ops));
    if (c.node.output_size() > 1 && !c.node.output(1).empty())
      return makeError("the Indices output of MaxPool is not supported");
    BYOC_ASSIGN_OR_RETURN(Window window, readWindow(c, x, {}));
    BYOC_ASSIGN_OR_RETURN(int64_t ceilMode, c.attrs.getInt("ceil_mode", 0));
    Attrs attrs{{"pool_size", AttrValue::ints(window.kernel)},
                {"strides", AttrValue::ints(window.strides)},
                {"dilation", AttrValue::ints(window.dilations)},
                {"padding", AttrValue::ints(window.padding)},
                {"ceil_mode", ceilMode != 0}};
    if (isAverage) {
      BYOC_ASSIGN_OR_RETURN(int64_t countIncludePad, c.attrs.getInt("count_include_pad", 0));
      attrs.set("count_include_pad", countIncludePad != 0);
    }
    return single(c.call(op, {x}, attrs));
  };
}

/// GlobalAveragePool and GlobalMaxPool as TVM's importer maps them by rank: global_avg_pool1d/3d
/// (global_max_pool1d/3d) are adaptive pools to an output size of all 1, the 2-D ones ops of their own.
OnnxConverter globalPool(std::string kind) {
  return [kind](const OnnxNodeContext& c) -> Result<OnnxOutputs> {
    BYOC_ASSIGN_OR_RETURN(OnnxValue x, c.input(0));
    const std::string what = kind == "avg" ? "GlobalAveragePool" : "GlobalMaxPool";
    BYOC_ASSIGN_OR_RETURN(std::string op, opForRank(x, what, {"1d", "2d", "3d"}));
    if (op == "2d") return single(c.call("nn.global_" + kind + "_pool2d", {x}));
    const std::vector<int64_t> ones(op == "1d" ? 1 : 3, 1);
    return single(c.call("nn.adaptive_" + kind + "_pool" + op, {x}, {{"output_size", AttrValue::ints(ones)}}));
  };
}

/// Softmax and LogSoftmax. From opset 13 they work along one axis (default -1); before, along the
/// input flattened to 2-D at `axis` (default 1), which is the same when `axis` is the last one.
OnnxConverter softmax(std::string op) {
  return [op](const OnnxNodeContext& c) -> Result<OnnxOutputs> {
    BYOC_ASSIGN_OR_RETURN(OnnxValue x, c.input(0));
    BYOC_ASSIGN_OR_RETURN(int64_t axis, c.attrs.getInt("axis", c.opset >= 13 ? -1 : 1));
    BYOC_ASSIGN_OR_RETURN(axis, onnxAxis(axis, x.rank()));
    if (c.opset >= 13 || axis == static_cast<int64_t>(x.rank()) - 1)
      return single(c.call(op, {x}, {{"axis", axis}}));
    int64_t inner = 1;
    for (std::size_t i = static_cast<std::size_t>(axis); i < x.rank(); ++i) {
      if (x.shape()[i] == kAnyDim)
        return makeError("softmax before opset 13 along axis " + std::to_string(axis) + " of shape " +
                         shapeString(x.shape()) + " needs the sizes from that axis on; dimension " + std::to_string(i) +
                         " is unknown");
      inner *= x.shape()[i];
    }
    BYOC_ASSIGN_OR_RETURN(OnnxValue flat, reshape(c, x, {-1, inner}));
    BYOC_ASSIGN_OR_RETURN(OnnxValue result, c.call(op, {flat}, {{"axis", 1}}));
    return single(reshape(c, result, x.shape()));
  };
}

}  // namespace

void addNeuralNetConverters(OnnxConverterTable& table) {
  table["Conv"] = conv;
  table["ConvTranspose"] = convTranspose;
  table["PRelu"] = prelu;
  table["ArgMax"] = argReduce("argmax");
  table["ArgMin"] = argReduce("argmin");
  table["Gemm"] = gemm;
  table["MatMul"] = matmul;
  table["BatchNormalization"] = batchNorm;
  table["LayerNormalization"] = layerNorm;
  table["MaxPool"] = windowPool("MaxPool", {"nn.max_pool1d", "nn.max_pool2d", "nn.max_pool3d"}, false);
  table["AveragePool"] = windowPool("AveragePool", {"nn.avg_pool1d", "nn.avg_pool2d", "nn.avg_pool3d"}, true);
  table["GlobalAveragePool"] = globalPool("avg");
  table["GlobalMaxPool"] = globalPool("max");
  table["Softmax"] = softmax("nn.softmax");
  table["LogSoftmax"] = softmax("nn.log_softmax");
}

}  // namespace byoc::onnx_import
