/// \file
/// `image.resize2d`: nearest, linear and cubic interpolation over NCHW (NHWC is permuted),
/// with the coordinate transformation modes of Relay.

#include <algorithm>
#include <cmath>

#include "ir/ops/op_helpers.h"
#include "runtime/kernels/dispatch.h"
#include "runtime/kernels/kernel_families.h"
#include "runtime/kernels/permute.h"

namespace byoc::kernels {

namespace {

/// The taps (input indices and weights) one output coordinate reads along one axis.
struct Taps {
  int64_t index[4];
  double weight[4];
  int count;
};

struct ResizeMode {
  std::string method, coordinates, rounding;
  double cubicAlpha;
  bool cubicExclude;
};

Result<double> inputCoordinate(const ResizeMode& mode, int64_t out, int64_t inSize, int64_t outSize) {
  const double scale = static_cast<double>(inSize) / static_cast<double>(outSize);
  const double x = static_cast<double>(out);
  if (mode.coordinates == "half_pixel") return (x + 0.5) * scale - 0.5;
  if (mode.coordinates == "pytorch_half_pixel") return outSize > 1 ? (x + 0.5) * scale - 0.5 : 0.0;
  if (mode.coordinates == "align_corners")
    return outSize > 1 ? x * static_cast<double>(inSize - 1) / static_cast<double>(outSize - 1) : 0.0;
  if (mode.coordinates == "asymmetric") return x * scale;
  if (mode.coordinates == "tf_half_pixel_for_nn") return (x + 0.5) * scale;
  return makeError("image.resize2d: unsupported coordinate_transformation_mode \"" + mode.coordinates + "\"");
}

double cubicWeight(double t, double a) {
  t = std::abs(t);
  if (t <= 1) return ((a + 2) * t - (a + 3)) * t * t + 1;
  if (t < 2) return ((a * t - 5 * a) * t + 8 * a) * t - 4 * a;
  return 0;
}

Result<Taps> tapsFor(const ResizeMode& mode, int64_t out, int64_t inSize, int64_t outSize) {
  BYOC_ASSIGN_OR_RETURN(double x, inputCoordinate(mode, out, inSize, outSize));
  auto clampIndex = [inSize](int64_t i) { return std::clamp<int64_t>(i, 0, inSize - 1); };
  Taps taps{};
  if (mode.method == "nearest_neighbor") {
    double rounded;
    if (mode.rounding == "round") rounded = std::round(x);
    else if (mode.rounding == "round_prefer_floor") rounded = std::ceil(x - 0.5);
    else if (mode.rounding == "round_prefer_ceil") rounded = std::floor(x + 0.5);
    else if (mode.rounding == "ceil") rounded = std::ceil(x);
    else rounded = std::floor(x);
    taps.index[0] = clampIndex(static_cast<int64_t>(rounded));
    taps.weight[0] = 1;
    taps.count = 1;
  } else if (mode.method == "linear") {
    const double base = std::floor(x);
    const double t = x - base;
    taps.index[0] = clampIndex(static_cast<int64_t>(base));
    taps.index[1] = clampIndex(static_cast<int64_t>(base) + 1);
    taps.weight[0] = 1 - t;
    taps.weight[1] = t;
    taps.count = 2;
  } else {
    const double base = std::floor(x);
    const double t = x - base;
    double total = 0;
    for (int k = 0; k < 4; ++k) {
      const int64_t i = static_cast<int64_t>(base) - 1 + k;
      double w = cubicWeight(t - (k - 1), mode.cubicAlpha);
      if (mode.cubicExclude && (i < 0 || i >= inSize)) w = 0;
      taps.index[k] = clampIndex(i);
      taps.weight[k] = w;
      total += w;
    }
    if (mode.cubicExclude && total != 0)
      for (double& w : taps.weight) w /= total;
    taps.count = 4;
  }
  return taps;
}

Status resize(const KernelArgs& args) {
  BYOC_ASSIGN_OR_RETURN(const double cubicAlpha, ops::floatAttr(std::string(args.op), args.attrs, "cubic_alpha"));
  BYOC_ASSIGN_OR_RETURN(const double cubicExclude, ops::floatAttr(std::string(args.op), args.attrs, "cubic_exclude"));
  ResizeMode mode{ops::stringAttr(args.attrs, "method"), ops::stringAttr(args.attrs, "coordinate_transformation_mode"),
                  ops::stringAttr(args.attrs, "rounding_method"), cubicAlpha, cubicExclude != 0};
  if (mode.method == "nearest_neighbor" && mode.rounding.empty())
    mode.rounding = mode.coordinates == "align_corners" || mode.coordinates == "tf_half_pixel_for_nn" ? "round" : "floor";
  const bool nhwc = ops::stringAttr(args.attrs, "layout") == "NHWC";
  const std::vector<std::size_t> toNchw = {0, 3, 1, 2};
  NDArray x = nhwc ? permuted(args.inputs[0], toNchw) : args.inputs[0];
  const NDArray& out = args.outputs[0];
  NDArray y = nhwc ? NDArray::empty(out.dtype(), {out.shape()[0], out.shape()[3], out.shape()[1], out.shape()[2]}) : out;
  if (x.dtype() != y.dtype()) return makeError("image.resize2d: out_dtype differing from the input is not supported");
  const int64_t ih = x.shape()[2], iw = x.shape()[3], oh = y.shape()[2], ow = y.shape()[3];
  std::vector<Taps> rows, cols;
  for (int64_t r = 0; r < oh; ++r) {
    BYOC_ASSIGN_OR_RETURN(Taps taps, tapsFor(mode, r, ih, oh));
    rows.push_back(taps);
  }
  for (int64_t c = 0; c < ow; ++c) {
    BYOC_ASSIGN_OR_RETURN(Taps taps, tapsFor(mode, c, iw, ow));
    cols.push_back(taps);
  }
  BYOC_TRY(dispatchFloat(args.op, x.dtype(), [&](auto tag) {
    using T = decltype(tag);
    const int64_t planes = x.shape()[0] * x.shape()[1];
    for (int64_t p = 0; p < planes; ++p) {
      const T* in = x.data<T>() + p * ih * iw;
      T* target = y.data<T>() + p * oh * ow;
      for (int64_t r = 0; r < oh; ++r)
        for (int64_t c = 0; c < ow; ++c) {
          double value = 0;
          for (int i = 0; i < rows[r].count; ++i)
            for (int j = 0; j < cols[c].count; ++j)
              value += rows[r].weight[i] * cols[c].weight[j] * in[rows[r].index[i] * iw + cols[c].index[j]];
          target[r * ow + c] = static_cast<T>(value);
        }
    }
  }));
  if (nhwc) permuteInto(y, inversePermutation(toNchw), out);
  return Status::ok();
}

}  // namespace

void addImageKernels(KernelTable& table) { table["image.resize2d"] = resize; }

}  // namespace byoc::kernels
