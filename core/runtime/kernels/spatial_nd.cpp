/// \file
/// Direct kernels of the 1-D and 3-D convolutions and pools (ir/ops/spatial_nd.cpp), in their
/// canonical layouts NCW / OIW and NCDHW / OIDHW (IODHW transposed). A 1-D operand is read as
/// a 3-D one of depth and height 1, so one loop nest serves both.

#include <algorithm>
#include <array>
#include <limits>

#include "ir/ops/op_helpers.h"
#include "runtime/kernels/dispatch.h"
#include "runtime/kernels/kernel_families.h"

namespace byoc::kernels {

namespace {

using Extent3 = std::array<int64_t, 3>;

/// The geometry of a call, its spatial axes widened to three (leading axes of size 1).
struct Geometry {
  int64_t batch = 0, inChannels = 0, outChannels = 0, groups = 1;
  Extent3 in{1, 1, 1}, out{1, 1, 1}, kernel{1, 1, 1}, stride{1, 1, 1}, dilation{1, 1, 1};
  Extent3 padBegin{0, 0, 0}, padEnd{0, 0, 0};
  bool countIncludePad = false;
};

/// The last `values.size()` entries of a 3-array of `fill`s hold `values`.
Extent3 widen(const std::vector<int64_t>& values, int64_t fill) {
  Extent3 extent{fill, fill, fill};
  std::copy(values.begin(), values.end(), extent.end() - static_cast<std::ptrdiff_t>(values.size()));
  return extent;
}

std::vector<int64_t> spatial(const Shape& shape) { return {shape.begin() + 2, shape.end()}; }

/// Reads the geometry; `kernel` is the window (the weight's spatial axes, or pool_size).
Result<Geometry> geometryOf(const KernelArgs& args, const std::vector<int64_t>& kernel) {
  const Shape& x = args.inputs[0].shape();
  const Shape& y = args.outputs[0].shape();
  const std::size_t dims = x.size() - 2;
  Geometry g;
  g.batch = x[0];
  g.inChannels = x[1];
  g.outChannels = y[1];
  g.in = widen(spatial(x), 1);
  g.out = widen(spatial(y), 1);
  g.kernel = widen(kernel, 1);
  BYOC_ASSIGN_OR_RETURN(std::vector<int64_t> strides, ops::intsAttr(std::string(args.op), args.attrs, "strides"));
  BYOC_ASSIGN_OR_RETURN(std::vector<int64_t> dilation, ops::intsAttr(std::string(args.op), args.attrs, "dilation"));
  BYOC_ASSIGN_OR_RETURN(std::vector<int64_t> padding, ops::intsAttr(std::string(args.op), args.attrs, "padding"));
  g.stride = widen(strides, 1);
  g.dilation = widen(dilation, 1);
  g.padBegin = widen({padding.begin(), padding.begin() + static_cast<std::ptrdiff_t>(dims)}, 0);
  g.padEnd = widen({padding.begin() + static_cast<std::ptrdiff_t>(dims), padding.end()}, 0);
  if (const AttrValue* groups = args.attrs.find("groups"); groups && groups->isInt()) g.groups = groups->asInt();
  g.countIncludePad = ops::boolAttr(args.attrs, "count_include_pad");
  return g;
}

/// Offset of (c, d, h, w) in a [channels, D, H, W] block.
inline int64_t at(const Extent3& extent, int64_t c, int64_t d, int64_t h, int64_t w) {
  return ((c * extent[0] + d) * extent[1] + h) * extent[2] + w;
}

/// The input position a window tap reads along axis `a`, or -1 when it falls in the padding.
inline int64_t source(const Geometry& g, std::size_t a, int64_t o, int64_t k) {
  const int64_t i = o * g.stride[a] - g.padBegin[a] + k * g.dilation[a];
  return i >= 0 && i < g.in[a] ? i : -1;
}

/// Calls `visit(kd, kh, kw, id, ih, iw)` for each tap of the window at output position
/// (od, oh, ow) that reads the input (taps in the padding are skipped), in kernel order.
template <typename Visit>
void forEachTap(const Geometry& g, int64_t od, int64_t oh, int64_t ow, Visit&& visit) {
  for (int64_t kd = 0; kd < g.kernel[0]; ++kd) {
    const int64_t id = source(g, 0, od, kd);
    if (id < 0) continue;
    for (int64_t kh = 0; kh < g.kernel[1]; ++kh) {
      const int64_t ih = source(g, 1, oh, kh);
      if (ih < 0) continue;
      for (int64_t kw = 0; kw < g.kernel[2]; ++kw) {
        const int64_t iw = source(g, 2, ow, kw);
        if (iw >= 0) visit(kd, kh, kw, id, ih, iw);
      }
    }
  }
}

template <typename T>
void convolve(const Geometry& g, const T* x, const T* w, T* y) {
  const int64_t inPerGroup = g.inChannels / g.groups, outPerGroup = g.outChannels / g.groups;
  const Extent3 weightBlock = g.kernel;
  for (int64_t n = 0; n < g.batch; ++n) {
    const T* image = x + n * g.inChannels * g.in[0] * g.in[1] * g.in[2];
    T* result = y + n * g.outChannels * g.out[0] * g.out[1] * g.out[2];
    for (int64_t oc = 0; oc < g.outChannels; ++oc) {
      const int64_t firstIn = oc / outPerGroup * inPerGroup;
      const T* filter = w + oc * inPerGroup * g.kernel[0] * g.kernel[1] * g.kernel[2];
      for (int64_t od = 0; od < g.out[0]; ++od)
        for (int64_t oh = 0; oh < g.out[1]; ++oh)
          for (int64_t ow = 0; ow < g.out[2]; ++ow) {
            double acc = 0.0;
            for (int64_t ic = 0; ic < inPerGroup; ++ic)
              forEachTap(g, od, oh, ow, [&](int64_t kd, int64_t kh, int64_t kw, int64_t id, int64_t ih, int64_t iw) {
                acc += static_cast<double>(image[at(g.in, firstIn + ic, id, ih, iw)]) *
                       static_cast<double>(filter[at(weightBlock, ic, kd, kh, kw)]);
              });
            result[at(g.out, oc, od, oh, ow)] = static_cast<T>(acc);
          }
    }
  }
}

/// The transposed convolution scatters every input element through the kernel into the output.
template <typename T>
void convolveTransposed(const Geometry& g, const T* x, const T* w, T* y) {
  const int64_t inPerGroup = g.inChannels / g.groups, outPerGroup = g.outChannels / g.groups;
  const int64_t taps = g.kernel[0] * g.kernel[1] * g.kernel[2];
  std::fill(y, y + g.batch * g.outChannels * g.out[0] * g.out[1] * g.out[2], T{0});
  for (int64_t n = 0; n < g.batch; ++n) {
    const T* image = x + n * g.inChannels * g.in[0] * g.in[1] * g.in[2];
    T* result = y + n * g.outChannels * g.out[0] * g.out[1] * g.out[2];
    for (int64_t ic = 0; ic < g.inChannels; ++ic) {
      const int64_t firstOut = ic / inPerGroup * outPerGroup;
      for (int64_t id = 0; id < g.in[0]; ++id)
        for (int64_t ih = 0; ih < g.in[1]; ++ih)
          for (int64_t iw = 0; iw < g.in[2]; ++iw) {
            const T value = image[at(g.in, ic, id, ih, iw)];
            for (int64_t oc = 0; oc < outPerGroup; ++oc) {
              const T* filter = w + (ic * outPerGroup + oc) * taps;
              for (int64_t kd = 0; kd < g.kernel[0]; ++kd) {
                const int64_t od = id * g.stride[0] - g.padBegin[0] + kd * g.dilation[0];
                if (od < 0 || od >= g.out[0]) continue;
                for (int64_t kh = 0; kh < g.kernel[1]; ++kh) {
                  const int64_t oh = ih * g.stride[1] - g.padBegin[1] + kh * g.dilation[1];
                  if (oh < 0 || oh >= g.out[1]) continue;
                  for (int64_t kw = 0; kw < g.kernel[2]; ++kw) {
                    const int64_t ow = iw * g.stride[2] - g.padBegin[2] + kw * g.dilation[2];
                    if (ow < 0 || ow >= g.out[2]) continue;
                    result[at(g.out, firstOut + oc, od, oh, ow)] += value * filter[(kd * g.kernel[1] + kh) * g.kernel[2] + kw];
                  }
                }
              }
            }
          }
    }
  }
}

/// The taps of a window along axis `a` that lie in the padded input, as Relay counts them for
/// count_include_pad.
inline int64_t paddedTaps(const Geometry& g, std::size_t a, int64_t o) {
  const int64_t begin = o * g.stride[a] - g.padBegin[a];
  const int64_t end = begin + (g.kernel[a] - 1) * g.dilation[a] + 1;
  const int64_t span = std::min(end, g.in[a] + g.padEnd[a]) - std::max(begin, -g.padBegin[a]);
  return std::max<int64_t>(0, (span + g.dilation[a] - 1) / g.dilation[a]);
}

template <typename T>
void pool(const Geometry& g, bool isMax, const T* x, T* y) {
  const int64_t planes = g.batch * g.inChannels;
  for (int64_t p = 0; p < planes; ++p)
    for (int64_t od = 0; od < g.out[0]; ++od)
      for (int64_t oh = 0; oh < g.out[1]; ++oh)
        for (int64_t ow = 0; ow < g.out[2]; ++ow) {
          double acc = isMax ? -std::numeric_limits<double>::infinity() : 0.0;
          int64_t count = 0;
          forEachTap(g, od, oh, ow, [&](int64_t, int64_t, int64_t, int64_t id, int64_t ih, int64_t iw) {
            const double value = x[at(g.in, p, id, ih, iw)];
            acc = isMax ? std::max(acc, value) : acc + value;
            ++count;
          });
          if (!isMax && g.countIncludePad)
            count = std::max<int64_t>(1, paddedTaps(g, 0, od) * paddedTaps(g, 1, oh) * paddedTaps(g, 2, ow));
          y[at(g.out, p, od, oh, ow)] = static_cast<T>(isMax ? acc : (count ? acc / static_cast<double>(count) : 0.0));
        }
}

Status runConv(const KernelArgs& args, bool transposed) {
  BYOC_ASSIGN_OR_RETURN(Geometry g, geometryOf(args, spatial(args.inputs[1].shape())));
  const DType dtype = args.inputs[0].dtype();
  if (args.inputs[1].dtype() != dtype || args.outputs[0].dtype() != dtype) return unsupportedDType(args.op, args.outputs[0].dtype());
  return dispatchFloat(args.op, dtype, [&](auto tag) {
    using T = decltype(tag);
    const T* x = args.inputs[0].data<T>();
    const T* w = args.inputs[1].data<T>();
    T* y = args.outputs[0].data<T>();
    if (transposed) convolveTransposed(g, x, w, y);
    else convolve(g, x, w, y);
  });
}

Status runPool(const KernelArgs& args, bool isMax) {
  BYOC_ASSIGN_OR_RETURN(std::vector<int64_t> size, ops::intsAttr(std::string(args.op), args.attrs, "pool_size"));
  BYOC_ASSIGN_OR_RETURN(Geometry g, geometryOf(args, size));
  return dispatchFloat(args.op, args.inputs[0].dtype(), [&](auto tag) {
    using T = decltype(tag);
    pool(g, isMax, args.inputs[0].data<T>(), args.outputs[0].data<T>());
  });
}

/// The input cells output cell `o` of `out` pools along an axis of `in` cells: [begin, end), as
/// Relay's adaptive pools split them.
inline std::pair<int64_t, int64_t> adaptiveRange(int64_t o, int64_t in, int64_t out) {
  return {o * in / out, ((o + 1) * in + out - 1) / out};
}

template <typename T>
void adaptivePool(const Extent3& in, const Extent3& out, int64_t planes, bool isMax, const T* x, T* y) {
  for (int64_t p = 0; p < planes; ++p)
    for (int64_t od = 0; od < out[0]; ++od)
      for (int64_t oh = 0; oh < out[1]; ++oh)
        for (int64_t ow = 0; ow < out[2]; ++ow) {
          const auto [d0, d1] = adaptiveRange(od, in[0], out[0]);
          const auto [h0, h1] = adaptiveRange(oh, in[1], out[1]);
          const auto [w0, w1] = adaptiveRange(ow, in[2], out[2]);
          double acc = isMax ? -std::numeric_limits<double>::infinity() : 0.0;
          for (int64_t id = d0; id < d1; ++id)
            for (int64_t ih = h0; ih < h1; ++ih)
              for (int64_t iw = w0; iw < w1; ++iw) {
                const double value = x[at(in, p, id, ih, iw)];
                acc = isMax ? std::max(acc, value) : acc + value;
              }
          const double count = static_cast<double>((d1 - d0) * (h1 - h0) * (w1 - w0));
          y[at(out, p, od, oh, ow)] = static_cast<T>(isMax ? acc : acc / count);
        }
}

Status runAdaptivePool(const KernelArgs& args, bool isMax) {
  const Shape& x = args.inputs[0].shape();
  const Extent3 in = widen(spatial(x), 1), out = widen(spatial(args.outputs[0].shape()), 1);
  return dispatchFloat(args.op, args.inputs[0].dtype(), [&](auto tag) {
    using T = decltype(tag);
    adaptivePool(in, out, x[0] * x[1], isMax, args.inputs[0].data<T>(), args.outputs[0].data<T>());
  });
}

}  // namespace

void addSpatialNdKernels(KernelTable& table) {
  table["nn.conv1d"] = [](const KernelArgs& a) { return runConv(a, false); };
  table["nn.conv3d"] = [](const KernelArgs& a) { return runConv(a, false); };
  table["nn.conv3d_transpose"] = [](const KernelArgs& a) { return runConv(a, true); };
  table["nn.conv1d_transpose"] = [](const KernelArgs& a) { return runConv(a, true); };
  for (const char* op : {"nn.max_pool1d", "nn.max_pool3d"}) table[op] = [](const KernelArgs& a) { return runPool(a, true); };
  for (const char* op : {"nn.avg_pool1d", "nn.avg_pool3d"}) table[op] = [](const KernelArgs& a) { return runPool(a, false); };
  for (const char* op : {"nn.adaptive_avg_pool1d", "nn.adaptive_avg_pool3d"})
    table[op] = [](const KernelArgs& a) { return runAdaptivePool(a, false); };
  for (const char* op : {"nn.adaptive_max_pool1d", "nn.adaptive_max_pool3d"})
    table[op] = [](const KernelArgs& a) { return runAdaptivePool(a, true); };
}

}  // namespace byoc::kernels
