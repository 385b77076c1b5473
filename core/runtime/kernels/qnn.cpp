/// \file
/// The qnn ops with TVM's integer semantics: quantize rounds half to even and saturates,
/// requantize multiplies in fixed point (runtime/kernels/quantize_math.h), the integer
/// convolution and dense accumulate (x - zero_point) * (w - zero_point) in int32 with padding
/// at the input's zero point, and qnn.add, qnn.subtract, qnn.mul and qnn.concatenate requantize
/// to the output parameters.

#include <algorithm>
#include <cmath>

#include "ir/ops/attr_views.h"
#include "ir/ops/op_helpers.h"
#include "runtime/kernels/axis_blocks.h"
#include "runtime/kernels/broadcast_loop.h"
#include "runtime/kernels/conv_params.h"
#include "runtime/kernels/dispatch.h"
#include "runtime/kernels/kernel_families.h"
#include "runtime/kernels/permute.h"
#include "runtime/kernels/quantize_math.h"

namespace byoc::kernels {

namespace {

/// Calls `f(T{})` with T the C++ type of an integer `dtype`.
template <typename F>
Status dispatchInt(std::string_view op, DType dtype, F&& f) {
  switch (dtype) {
    case DType::Int8: f(int8_t{}); return Status::ok();
    case DType::UInt8: f(uint8_t{}); return Status::ok();
    case DType::Int16: f(int16_t{}); return Status::ok();
    case DType::Int32: f(int32_t{}); return Status::ok();
    case DType::Int64: f(int64_t{}); return Status::ok();
    default: return unsupportedDType(op, dtype);
  }
}

/// A tensor's elements widened to int64.
Result<std::vector<int64_t>> widened(std::string_view op, const NDArray& array) {
  std::vector<int64_t> values(static_cast<std::size_t>(array.numElements()));
  BYOC_TRY(dispatchInt(op, array.dtype(), [&](auto tag) {
    const auto* in = array.data<decltype(tag)>();
    std::copy(in, in + values.size(), values.begin());
  }));
  return values;
}

/// Writes int64 `values` into the integer array `out`, saturating to its dtype.
Status saturateInto(std::string_view op, const std::vector<int64_t>& values, const NDArray& out) {
  const IntRange range = intRange(out.dtype());
  return dispatchInt(op, out.dtype(), [&](auto tag) {
    using T = decltype(tag);
    T* dst = out.data<T>();
    for (std::size_t i = 0; i < values.size(); ++i) dst[i] = static_cast<T>(std::clamp(values[i], range.min, range.max));
  });
}

/// Quantization parameters, one per channel or a single one.
struct QuantParams {
  std::vector<float> scales;
  std::vector<int32_t> zeroPoints;
  float scale(int64_t channel) const { return scales.size() == 1 ? scales[0] : scales[static_cast<std::size_t>(channel)]; }
  int32_t zeroPoint(int64_t channel) const {
    return zeroPoints.size() == 1 ? zeroPoints[0] : zeroPoints[static_cast<std::size_t>(channel)];
  }
};


/// The scales of input `index`, refused unless every one is finite and positive: a fixed-point
/// multiplier (and any division by the scale) is meaningless for the others.
Result<std::vector<float>> scalesOf(const KernelArgs& args, std::size_t index) {
  const NDArray& scale = args.inputs[index];
  std::vector<float> scales(scale.data<float>(), scale.data<float>() + scale.numElements());
  for (std::size_t i = 0; i < scales.size(); ++i)
    BYOC_TRY(checkScale(args.op, index, scales[i], scales.size() > 1 ? std::optional<std::size_t>(i) : std::nullopt));
  return scales;
}

/// The scale(s) of input `scaleIndex` and the zero point(s) of `zeroPointIndex`.
Result<QuantParams> quantParams(const KernelArgs& args, std::size_t scaleIndex, std::size_t zeroPointIndex) {
  QuantParams params;
  BYOC_ASSIGN_OR_RETURN(params.scales, scalesOf(args, scaleIndex));
  const NDArray& zeroPoint = args.inputs[zeroPointIndex];
  params.zeroPoints.assign(zeroPoint.data<int32_t>(), zeroPoint.data<int32_t>() + zeroPoint.numElements());
  return params;
}

/// Calls `f(index, channel)` for every element of `shape`, `channel` being its index along the
/// attribute `axis` (0 for a scalar).
template <typename F>
void forEachWithChannel(const Shape& shape, const Attrs& attrs, F f) {
  const AttrValue* axisValue = attrs.find("axis");
  const int64_t axis = axisValue && axisValue->isInt() ? axisValue->asInt() : -1;
  if (shape.empty()) {
    f(int64_t{0}, int64_t{0});
    return;
  }
  const std::size_t a = axisIndex(axis, shape.size());
  const int64_t channels = shape[a];
  const int64_t inner = extent(shape, a + 1, shape.size());
  const int64_t total = shapeElements(shape);
  for (int64_t i = 0; i < total; ++i) f(i, inner ? (i / inner) % channels : 0);
}

Status quantize(const KernelArgs& args) {
  const NDArray& data = args.inputs[0];
  const NDArray& out = args.outputs[0];
  if (data.dtype() != DType::Float32) return unsupportedDType(args.op, data.dtype());
  BYOC_ASSIGN_OR_RETURN(const QuantParams params, quantParams(args, 1, 2));
  const float* x = data.data<float>();
  const IntRange range = intRange(out.dtype());
  // round(x / scale) + zero_point, rounding half to even as ONNX and TVM's nearbyint do, saturated.
  auto quantized = [&](int64_t i, int64_t c) {
    const double rounded = std::nearbyint(x[i] / params.scale(c)) + params.zeroPoint(c);
    return static_cast<int64_t>(std::isnan(rounded) ? params.zeroPoint(c)
                                                    : std::clamp(rounded, double(range.min), double(range.max)));
  };
  return dispatchInt(args.op, out.dtype(), [&](auto tag) {
    using T = decltype(tag);
    T* y = out.data<T>();
    if (params.scales.size() == 1 && params.zeroPoints.size() == 1) {  // per-tensor: no channel to find
      for (int64_t i = 0; i < data.numElements(); ++i) y[i] = static_cast<T>(quantized(i, 0));
      return;
    }
    forEachWithChannel(data.shape(), args.attrs, [&](int64_t i, int64_t c) { y[i] = static_cast<T>(quantized(i, c)); });
  });
}

Status dequantize(const KernelArgs& args) {
  const NDArray& out = args.outputs[0];
  BYOC_ASSIGN_OR_RETURN(std::vector<int64_t> q, widened(args.op, args.inputs[0]));
  BYOC_ASSIGN_OR_RETURN(const QuantParams params, quantParams(args, 1, 2));
  float* y = out.data<float>();
  forEachWithChannel(out.shape(), args.attrs, [&](int64_t i, int64_t c) {
    y[i] = static_cast<float>(static_cast<int32_t>(q[static_cast<std::size_t>(i)] - params.zeroPoint(c))) *
           params.scale(c);
  });
  return Status::ok();
}

/// Requantizes `q` (parameters `in`, per channel of the attribute axis) to the per-tensor
/// scale and zero point `outScale`, `outZeroPoint`, in int64 and before saturation.
std::vector<int64_t> requantized(std::vector<int64_t> q, const Shape& shape, const Attrs& attrs, const QuantParams& in,
                                 float outScale, int32_t outZeroPoint, QnnRounding rounding) {
  std::vector<FixedPoint> multipliers;
  for (float scale : in.scales) multipliers.push_back(fixedPointOf(double(scale) / double(outScale)));
  forEachWithChannel(shape, attrs, [&](int64_t i, int64_t c) {
    int64_t& value = q[static_cast<std::size_t>(i)];
    const FixedPoint& m = multipliers.size() == 1 ? multipliers[0] : multipliers[static_cast<std::size_t>(c)];
    value = fixedPointMultiply(value - in.zeroPoint(c), m, rounding) + outZeroPoint;
  });
  return q;
}

Status requantize(const KernelArgs& args) {
  BYOC_ASSIGN_OR_RETURN(std::vector<int64_t> q, widened(args.op, args.inputs[0]));
  BYOC_ASSIGN_OR_RETURN(const QuantParams in, quantParams(args, 1, 2));
  BYOC_ASSIGN_OR_RETURN(const QuantParams out, quantParams(args, 3, 4));
  const QnnRounding rounding = parseRounding(ops::stringAttr(args.attrs, "rounding"));
  q = requantized(std::move(q), args.inputs[0].shape(), args.attrs, in, out.scale(0), out.zeroPoint(0), rounding);
  return saturateInto(args.op, q, args.outputs[0]);
}

/// The int32 values of `array` minus its zero point(s); `channelOf(i)` picks a zero point.
template <typename ChannelOf>
Result<std::vector<int32_t>> centered(std::string_view op, const NDArray& array, const NDArray& zeroPoint,
                                      ChannelOf channelOf) {
  BYOC_ASSIGN_OR_RETURN(std::vector<int64_t> values, widened(op, array));
  const int32_t* zp = zeroPoint.data<int32_t>();
  const bool perChannel = zeroPoint.numElements() > 1;
  std::vector<int32_t> result(values.size());
  for (std::size_t i = 0; i < values.size(); ++i)
    result[i] = static_cast<int32_t>(values[i] - zp[perChannel ? channelOf(static_cast<int64_t>(i)) : 0]);
  return result;
}

/// Refuses bad input and kernel scales of qnn.conv2d / qnn.dense: the product does not use them,
/// but every requantize derived from it does.
Status checkProductScales(const KernelArgs& args) {
  for (std::size_t index : {std::size_t{4}, std::size_t{5}})
    if (Result<std::vector<float>> scales = scalesOf(args, index); !scales) return scales.error();
  return Status::ok();
}

/// Direct NCHW/OIHW grouped convolution of centred operands; padded taps contribute zero.
void conv2dCentered(const ConvGeometry& g, const int32_t* x, const int32_t* w, int32_t* y) {
  const int64_t inPerGroup = g.inChannels / g.groups;
  const int64_t outPerGroup = g.outChannels / g.groups;
  const int64_t outPlane = g.outHeight * g.outWidth;
  for (int64_t n = 0; n < g.batch; ++n) {
    for (int64_t oc = 0; oc < g.outChannels; ++oc) {
      int32_t* out = y + (n * g.outChannels + oc) * outPlane;
      std::fill(out, out + outPlane, 0);
      const int64_t firstIn = oc / outPerGroup * inPerGroup;
      for (int64_t ic = 0; ic < inPerGroup; ++ic) {
        const int32_t* plane = x + (n * g.inChannels + firstIn + ic) * g.inHeight * g.inWidth;
        for (int64_t kh = 0; kh < g.kernelHeight; ++kh) {
          for (int64_t kw = 0; kw < g.kernelWidth; ++kw) {
            const int32_t tap = w[((oc * inPerGroup + ic) * g.kernelHeight + kh) * g.kernelWidth + kw];
            if (tap == 0) continue;
            for (int64_t oh = 0; oh < g.outHeight; ++oh) {
              const int64_t ih = oh * g.strideH - g.padTop + kh * g.dilationH;
              if (ih < 0 || ih >= g.inHeight) continue;
              const int32_t* row = plane + ih * g.inWidth;
              int32_t* outRow = out + oh * g.outWidth;
              for (int64_t ow = 0; ow < g.outWidth; ++ow) {
                const int64_t iw = ow * g.strideW - g.padLeft + kw * g.dilationW;
                if (iw >= 0 && iw < g.inWidth) outRow[ow] += row[iw] * tap;
              }
            }
          }
        }
      }
    }
  }
}

Status qnnConv2d(const KernelArgs& args) {
  const NDArray& out = args.outputs[0];
  if (out.dtype() != DType::Int32) return unsupportedDType(args.op, out.dtype());
  BYOC_TRY(checkProductScales(args));
  BYOC_ASSIGN_OR_RETURN(ConvGeometry g, convGeometry(args.op, args.attrs, args.inputs[0].shape(),
                                                     args.inputs[1].shape(), out.shape(), false));
  const NDArray data = g.canonical() ? args.inputs[0] : permuted(args.inputs[0], g.dataToNchw);
  const NDArray weight = g.canonical() ? args.inputs[1] : permuted(args.inputs[1], g.kernelToCanonical);
  const int64_t perOut = g.kernelHeight * g.kernelWidth * (g.inChannels / g.groups);
  BYOC_ASSIGN_OR_RETURN(std::vector<int32_t> x, centered(args.op, data, args.inputs[2], [](int64_t) { return 0; }));
  BYOC_ASSIGN_OR_RETURN(std::vector<int32_t> w,
                        centered(args.op, weight, args.inputs[3], [perOut](int64_t i) { return i / perOut; }));
  if (g.canonical()) {
    conv2dCentered(g, x.data(), w.data(), out.data<int32_t>());
    return Status::ok();
  }
  NDArray y = NDArray::empty(DType::Int32, {g.batch, g.outChannels, g.outHeight, g.outWidth});
  conv2dCentered(g, x.data(), w.data(), y.data<int32_t>());
  permuteInto(y, inversePermutation(g.dataToNchw), out);
  return Status::ok();
}

/// data [..., k] x weight [units, k]^T on centred operands.
Status qnnDense(const KernelArgs& args) {
  const NDArray& out = args.outputs[0];
  if (out.dtype() != DType::Int32) return unsupportedDType(args.op, out.dtype());
  BYOC_TRY(checkProductScales(args));
  const int64_t k = args.inputs[1].shape()[1];
  BYOC_ASSIGN_OR_RETURN(std::vector<int32_t> x,
                        centered(args.op, args.inputs[0], args.inputs[2], [](int64_t) { return 0; }));
  BYOC_ASSIGN_OR_RETURN(std::vector<int32_t> w,
                        centered(args.op, args.inputs[1], args.inputs[3], [k](int64_t i) { return i / k; }));
  const int64_t units = args.inputs[1].shape()[0];
  const int64_t rows = k ? static_cast<int64_t>(x.size()) / k : 0;
  int32_t* y = out.data<int32_t>();
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t u = 0; u < units; ++u) {
      int32_t sum = 0;
      for (int64_t i = 0; i < k; ++i) sum += x[static_cast<std::size_t>(r * k + i)] * w[static_cast<std::size_t>(u * k + i)];
      y[r * units + u] = sum;
    }
  return Status::ok();
}

/// A scalar parameter of a binary op.
struct ScalarParams {
  float scale;
  int32_t zeroPoint;
};

Result<ScalarParams> scalarParams(const KernelArgs& args, std::size_t scaleIndex) {
  BYOC_ASSIGN_OR_RETURN(QuantParams params, quantParams(args, scaleIndex, scaleIndex + 1));
  return ScalarParams{params.scale(0), params.zeroPoint(0)};
}

/// Combines the int64 operands `lhs` and `rhs` elementwise with broadcasting.
template <typename Combine>
std::vector<int64_t> broadcastCombine(const std::vector<int64_t>& lhs, const Shape& lhsShape,
                                      const std::vector<int64_t>& rhs, const Shape& rhsShape, const Shape& outShape,
                                      Combine combine) {
  std::vector<int64_t> result(static_cast<std::size_t>(shapeElements(outShape)));
  int64_t done = 0;
  forEachBroadcastRow<2>(outShape, {&lhsShape, &rhsShape}, [&](const auto& offsets, int64_t inner, const auto& strides) {
    for (int64_t i = 0; i < inner; ++i)
      result[static_cast<std::size_t>(done + i)] =
          combine(lhs[static_cast<std::size_t>(offsets[0] + i * strides[0])],
                  rhs[static_cast<std::size_t>(offsets[1] + i * strides[1])]);
    done += inner;
  });
  return result;
}

/// qnn.add and qnn.subtract: both operands requantized to the output parameters (TVM's
/// RequantizeOrUpcast) and combined; the output zero point, which a sum counts twice and a
/// difference not at all, is corrected.
template <bool Subtract>
Status qnnAddOrSubtract(const KernelArgs& args) {
  BYOC_ASSIGN_OR_RETURN(const ScalarParams lhsParams, scalarParams(args, 2));
  BYOC_ASSIGN_OR_RETURN(const ScalarParams rhsParams, scalarParams(args, 4));
  BYOC_ASSIGN_OR_RETURN(const ScalarParams outParams, scalarParams(args, 6));
  auto toOutput = [&](std::size_t index, ScalarParams params) -> Result<std::vector<int64_t>> {
    BYOC_ASSIGN_OR_RETURN(std::vector<int64_t> q, widened(args.op, args.inputs[index]));
    if (params.scale == outParams.scale && params.zeroPoint == outParams.zeroPoint) return q;
    return requantized(std::move(q), args.inputs[index].shape(), {}, {{params.scale}, {params.zeroPoint}},
                       outParams.scale, outParams.zeroPoint, QnnRounding::Upward);
  };
  BYOC_ASSIGN_OR_RETURN(std::vector<int64_t> lhs, toOutput(0, lhsParams));
  BYOC_ASSIGN_OR_RETURN(std::vector<int64_t> rhs, toOutput(1, rhsParams));
  // The requantized operands are int32 in TVM's lowering.
  const IntRange int32Range = intRange(DType::Int32);
  for (auto* values : {&lhs, &rhs})
    for (int64_t& v : *values) v = std::clamp(v, int32Range.min, int32Range.max);
  const int64_t zp = outParams.zeroPoint;
  std::vector<int64_t> result =
      broadcastCombine(lhs, args.inputs[0].shape(), rhs, args.inputs[1].shape(), args.outputs[0].shape(),
                       [zp](int64_t a, int64_t b) { return Subtract ? a - b + zp : a + b - zp; });
  return saturateInto(args.op, result, args.outputs[0]);
}

/// qnn.mul: the centred product requantized from scale lhs_scale * rhs_scale (in float32, as TVM
/// computes it) to the output parameters.
Status qnnMul(const KernelArgs& args) {
  BYOC_ASSIGN_OR_RETURN(const ScalarParams lhsParams, scalarParams(args, 2));
  BYOC_ASSIGN_OR_RETURN(const ScalarParams rhsParams, scalarParams(args, 4));
  BYOC_ASSIGN_OR_RETURN(const ScalarParams outParams, scalarParams(args, 6));
  BYOC_ASSIGN_OR_RETURN(std::vector<int64_t> lhs, widened(args.op, args.inputs[0]));
  BYOC_ASSIGN_OR_RETURN(std::vector<int64_t> rhs, widened(args.op, args.inputs[1]));
  const int64_t lzp = lhsParams.zeroPoint;
  const int64_t rzp = rhsParams.zeroPoint;
  std::vector<int64_t> product =
      broadcastCombine(lhs, args.inputs[0].shape(), rhs, args.inputs[1].shape(), args.outputs[0].shape(),
                       [lzp, rzp](int64_t a, int64_t b) { return static_cast<int32_t>((a - lzp) * (b - rzp)); });
  const float productScale = lhsParams.scale * rhsParams.scale;
  product = requantized(std::move(product), args.outputs[0].shape(), {}, {{productScale}, {0}}, outParams.scale,
                        outParams.zeroPoint, QnnRounding::Upward);
  return saturateInto(args.op, product, args.outputs[0]);
}

/// The per-tensor parameters at inputs `scaleIndex` and `zeroPointIndex`, named `what` in errors:
/// qnn.concatenate's inputs are its tuples flattened, so an input's index is not its argument's.
Result<ScalarParams> namedScalarParams(const KernelArgs& args, std::size_t scaleIndex, std::size_t zeroPointIndex,
                                       const std::string& what) {
  const float scale = args.inputs[scaleIndex].data<float>()[0];
  BYOC_TRY(checkScale(args.op, what, scale, std::nullopt));
  return ScalarParams{scale, args.inputs[zeroPointIndex].data<int32_t>()[0]};
}

/// qnn.concatenate: each tensor requantized to the output parameters unless it has them (TVM's
/// canonical form), then joined along the axis.
Status qnnConcatenate(const KernelArgs& args) {
  // Inputs: the tensors, their scales, their zero points, the output's scale and zero point.
  const std::size_t count = (args.inputs.size() - 2) / 3;
  const NDArray& out = args.outputs[0];
  BYOC_ASSIGN_OR_RETURN(const std::size_t axis, ops::axisAttr("qnn.concatenate", args.attrs, out.rank()));
  BYOC_ASSIGN_OR_RETURN(const ScalarParams outParams,
                        namedScalarParams(args, 3 * count, 3 * count + 1, "output_scale (argument 3)"));
  std::vector<NDArray> parts;
  for (std::size_t i = 0; i < count; ++i) {
    const NDArray& part = args.inputs[i];
    BYOC_ASSIGN_OR_RETURN(const ScalarParams in, namedScalarParams(args, count + i, 2 * count + i,
                                                                   "input_scales (argument 1) field " + std::to_string(i)));
    if (in.scale == outParams.scale && in.zeroPoint == outParams.zeroPoint) {
      parts.push_back(part);
      continue;
    }
    BYOC_ASSIGN_OR_RETURN(std::vector<int64_t> q, widened(args.op, part));
    q = requantized(std::move(q), part.shape(), {}, {{in.scale}, {in.zeroPoint}}, outParams.scale,
                    outParams.zeroPoint, QnnRounding::Upward);
    NDArray converted = NDArray::empty(part.dtype(), part.shape());
    BYOC_TRY(saturateInto(args.op, q, converted));
    parts.push_back(std::move(converted));
  }
  moveAlongAxis(out, parts, axis, true);
  return Status::ok();
}

}  // namespace

void addQnnKernels(KernelTable& table) {
  table["qnn.quantize"] = quantize;
  table["qnn.dequantize"] = dequantize;
  table["qnn.requantize"] = requantize;
  table["qnn.conv2d"] = qnnConv2d;
  table["qnn.dense"] = qnnDense;
  table["qnn.add"] = qnnAddOrSubtract<false>;
  table["qnn.subtract"] = qnnAddOrSubtract<true>;
  table["qnn.mul"] = qnnMul;
  table["qnn.concatenate"] = qnnConcatenate;
}

}  // namespace byoc::kernels
