/// \file
/// Per-channel and per-axis kernels: bias_add, batch_norm, layer_norm, softmax, log_softmax,
/// prelu, dropout (float32 and float64; bias_add also the integer dtypes, for the int32 products of
/// quantized convolutions). Each views its data as [outer, axis, inner].

#include <algorithm>
#include <cmath>

#include "ir/ops/attr_views.h"
#include "runtime/kernels/dispatch.h"
#include "runtime/kernels/kernel_families.h"

namespace byoc::kernels {

namespace {

/// The data viewed as [outer, channels, inner] around `axis`.
struct AxisView {
  int64_t outer, channels, inner;
};

AxisView axisView(const NDArray& data, std::size_t axis) {
  return {extent(data.shape(), 0, axis), data.shape()[axis], extent(data.shape(), axis + 1, data.rank())};
}

/// The data viewed around the op's `axis` attribute.
Result<AxisView> axisView(const KernelArgs& args) {
  BYOC_ASSIGN_OR_RETURN(const std::size_t axis, ops::axisAttr(std::string(args.op), args.attrs, args.inputs[0].rank()));
  return axisView(args.inputs[0], axis);
}

/// y[o, c, i] = fn(x[o, c, i], c).
template <typename T, typename Fn>
void perChannel(const AxisView& v, const T* x, T* y, Fn fn) {
  for (int64_t o = 0; o < v.outer; ++o)
    for (int64_t c = 0; c < v.channels; ++c) {
      const int64_t base = (o * v.channels + c) * v.inner;
      for (int64_t i = 0; i < v.inner; ++i) y[base + i] = fn(x[base + i], c);
    }
}

Status biasAdd(const KernelArgs& args) {
  BYOC_ASSIGN_OR_RETURN(const AxisView view, axisView(args));
  return dispatchDType(args.op, args.inputs[0].dtype(), [&](auto tag) {
    using T = decltype(tag);
    const T* bias = args.inputs[1].data<T>();
    perChannel(view, args.inputs[0].data<T>(), args.outputs[0].data<T>(),
               [bias](T x, int64_t c) { return x + bias[c]; });
  });
}

Status prelu(const KernelArgs& args) {
  BYOC_ASSIGN_OR_RETURN(const AxisView view, axisView(args));
  return dispatchFloat(args.op, args.inputs[0].dtype(), [&](auto tag) {
    using T = decltype(tag);
    const T* alpha = args.inputs[1].data<T>();
    perChannel(view, args.inputs[0].data<T>(), args.outputs[0].data<T>(),
               [alpha](T x, int64_t c) { return x > 0 ? x : alpha[c] * x; });
  });
}

/// out = (x - mean) / sqrt(var + eps) * gamma + beta; also copies mean and var to outputs 1 and 2.
Status batchNorm(const KernelArgs& args) {
  BYOC_ASSIGN_OR_RETURN(const ops::NormAttrs norm, ops::readNormAttrs(std::string(args.op), args.attrs, args.inputs[0].rank()));
  const AxisView view = axisView(args.inputs[0], norm.axis);
  return dispatchFloat(args.op, args.inputs[0].dtype(), [&](auto tag) {
    using T = decltype(tag);
    const int64_t channels = args.inputs[1].numElements();
    std::vector<T> mul(static_cast<std::size_t>(channels));
    std::vector<T> add(static_cast<std::size_t>(channels));
    const T* gamma = args.inputs[1].data<T>();
    const T* beta = args.inputs[2].data<T>();
    const T* mean = args.inputs[3].data<T>();
    const T* var = args.inputs[4].data<T>();
    for (int64_t c = 0; c < channels; ++c) {
      mul[c] = static_cast<T>(1 / std::sqrt(static_cast<double>(var[c]) + norm.epsilon)) * (norm.scale ? gamma[c] : T(1));
      add[c] = (norm.center ? beta[c] : T(0)) - mean[c] * mul[c];
    }
    perChannel(view, args.inputs[0].data<T>(), args.outputs[0].data<T>(),
               [&](T x, int64_t c) { return x * mul[c] + add[c]; });
    args.outputs[1].copyFrom(args.inputs[3]);
    args.outputs[2].copyFrom(args.inputs[4]);
  });
}

/// Calls `fn(line, stride, count)` for every 1-d line along the axis.
template <typename T, typename Fn>
void forEachLine(const AxisView& v, T* base, Fn fn) {
  for (int64_t o = 0; o < v.outer; ++o)
    for (int64_t i = 0; i < v.inner; ++i) fn(base + o * v.channels * v.inner + i, v.inner, v.channels);
}

Status layerNorm(const KernelArgs& args) {
  BYOC_ASSIGN_OR_RETURN(const ops::NormAttrs norm, ops::readNormAttrs(std::string(args.op), args.attrs, args.inputs[0].rank()));
  const AxisView v = axisView(args.inputs[0], norm.axis);
  return dispatchFloat(args.op, args.inputs[0].dtype(), [&](auto tag) {
    using T = decltype(tag);
    const T* gamma = args.inputs[1].data<T>();
    const T* beta = args.inputs[2].data<T>();
    args.outputs[0].copyFrom(args.inputs[0]);
    forEachLine(v, args.outputs[0].data<T>(), [&](T* line, int64_t stride, int64_t count) {
      double sum = 0, squares = 0;
      for (int64_t c = 0; c < count; ++c) sum += line[c * stride];
      const double mean = sum / static_cast<double>(count);
      for (int64_t c = 0; c < count; ++c) squares += (line[c * stride] - mean) * (line[c * stride] - mean);
      const double inv = 1 / std::sqrt(squares / static_cast<double>(count) + norm.epsilon);
      for (int64_t c = 0; c < count; ++c) {
        double value = (line[c * stride] - mean) * inv;
        if (norm.scale) value *= gamma[c];
        if (norm.center) value += beta[c];
        line[c * stride] = static_cast<T>(value);
      }
    });
  });
}

template <bool Log>
Status softmax(const KernelArgs& args) {
  BYOC_ASSIGN_OR_RETURN(const AxisView view, axisView(args));
  return dispatchFloat(args.op, args.inputs[0].dtype(), [&](auto tag) {
    using T = decltype(tag);
    args.outputs[0].copyFrom(args.inputs[0]);
    forEachLine(view, args.outputs[0].data<T>(),
                [](T* line, int64_t stride, int64_t count) {
                  T peak = line[0];
                  for (int64_t c = 1; c < count; ++c) peak = std::max(peak, line[c * stride]);
                  T sum = 0;
                  for (int64_t c = 0; c < count; ++c) sum += std::exp(line[c * stride] - peak);
                  const T logSum = std::log(sum);
                  for (int64_t c = 0; c < count; ++c) {
                    const T shifted = line[c * stride] - peak;
                    line[c * stride] = Log ? shifted - logSum : std::exp(shifted) / sum;
                  }
                });
  });
}

/// Identity at inference; the mask output is all ones.
Status dropout(const KernelArgs& args) {
  args.outputs[0].copyFrom(args.inputs[0]);
  return dispatchFloat(args.op, args.inputs[0].dtype(), [&](auto tag) {
    using T = decltype(tag);
    std::fill_n(args.outputs[1].data<T>(), args.outputs[1].numElements(), T(1));
  });
}

}  // namespace

void addNormalizationKernels(KernelTable& table) {
  table["nn.bias_add"] = biasAdd;
  table["nn.prelu"] = prelu;
  table["nn.batch_norm"] = batchNorm;
  table["nn.layer_norm"] = layerNorm;
  table["nn.softmax"] = softmax<false>;
  table["nn.log_softmax"] = softmax<true>;
  table["nn.dropout"] = dropout;
}

}  // namespace byoc::kernels
