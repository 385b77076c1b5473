/// \file
/// Kernels of the detection ops: vision.all_class_non_max_suppression (non_max_suppression.cpp) and
/// vision.roi_align, as TVM's topi computes it (NCHW): each region, scaled by
/// spatial_scale and at least 1x1, is split into pooled bins; each bin averages (or takes the
/// maximum of) bilinear samples on a grid of sample_ratio points per axis, or of
/// ceil(region / pooled) points when sample_ratio is not positive. A sample more than one pixel
/// outside the data counts as 0.

#include <algorithm>
#include <cmath>
#include <string>

#include "ir/ops/op_helpers.h"
#include "runtime/kernels/dispatch.h"
#include "runtime/kernels/kernel_families.h"
#include "runtime/kernels/non_max_suppression.h"
#include "support/limits.h"
#include "support/number_text.h"

namespace byoc::kernels {

namespace {

/// One region: its batch entry, scaled start, bin size and sampling grid.
struct Region {
  int64_t batch;
  double startY, startX;
  double binH, binW;
  int64_t gridH, gridW;
};

/// Reads region `r` of `rois` (batch index, x1, y1, x2, y2) and checks what the data gives.
template <typename T>
Result<Region> readRegion(const NDArray& rois, int64_t r, const Shape& data, const std::vector<int64_t>& pooled,
                          double scale, int64_t sampleRatio) {
  const T* roi = rois.data<T>() + r * 5;
  for (int i = 0; i < 5; ++i)
    if (!std::isfinite(static_cast<double>(roi[i])))
      return makeError("vision.roi_align: region " + std::to_string(r) + " has a non-finite coordinate");
  const double batch = static_cast<double>(roi[0]);
  if (batch < 0 || batch >= static_cast<double>(data[0]))
    return makeError("vision.roi_align: region " + std::to_string(r) + " names batch entry " + numberText(batch) +
                     "; expected 0 to " + std::to_string(data[0] - 1));
  Region region{};
  region.batch = static_cast<int64_t>(batch);
  region.startX = static_cast<double>(roi[1]) * scale;
  region.startY = static_cast<double>(roi[2]) * scale;
  const double height = std::max(static_cast<double>(roi[4]) * scale - region.startY, 1.0);
  const double width = std::max(static_cast<double>(roi[3]) * scale - region.startX, 1.0);
  region.binH = height / static_cast<double>(pooled[0]);
  region.binW = width / static_cast<double>(pooled[1]);
  const double gridH = sampleRatio > 0 ? static_cast<double>(sampleRatio) : std::ceil(region.binH);
  const double gridW = sampleRatio > 0 ? static_cast<double>(sampleRatio) : std::ceil(region.binW);
  if (!(gridH * gridW <= static_cast<double>(limits::kMaxRoiSamples)))
    return makeError("vision.roi_align: region " + std::to_string(r) + " spans " + numberText(height) + " x " +
                     numberText(width) + " pixels: more than " + std::to_string(limits::kMaxRoiSamples) +
                     " samples per output element; expected a smaller region or a positive sample_ratio");
  region.gridH = static_cast<int64_t>(gridH);
  region.gridW = static_cast<int64_t>(gridW);
  return region;
}

/// Bilinear sample of one channel plane at (y, x), 0 more than a pixel outside it.
template <typename T>
double sample(const T* plane, int64_t height, int64_t width, double y, double x) {
  if (y < -1.0 || x < -1.0 || y > static_cast<double>(height) || x > static_cast<double>(width)) return 0.0;
  y = std::min(std::max(y, 0.0), static_cast<double>(height - 1));
  x = std::min(std::max(x, 0.0), static_cast<double>(width - 1));
  const auto y0 = static_cast<int64_t>(std::floor(y));
  const auto x0 = static_cast<int64_t>(std::floor(x));
  const int64_t y1 = std::min(static_cast<int64_t>(std::ceil(y)), height - 1);
  const int64_t x1 = std::min(static_cast<int64_t>(std::ceil(x)), width - 1);
  const double ly = y - static_cast<double>(y0);
  const double lx = x - static_cast<double>(x0);
  auto at = [&](int64_t row, int64_t column) { return static_cast<double>(plane[row * width + column]); };
  const double top = (1 - lx) * at(y0, x0) + lx * at(y0, x1);
  const double bottom = (1 - lx) * at(y1, x0) + lx * at(y1, x1);
  return (1 - ly) * top + ly * bottom;
}

template <typename T>
Status roiAlignTyped(const KernelArgs& args, const std::vector<int64_t>& pooled, double scale, int64_t sampleRatio,
                     bool average) {
  const NDArray& data = args.inputs[0];
  const NDArray& rois = args.inputs[1];
  const Shape& shape = data.shape();
  const int64_t channels = shape[1], height = shape[2], width = shape[3];
  T* out = args.outputs[0].data<T>();
  for (int64_t r = 0; r < rois.shape()[0]; ++r) {
    BYOC_ASSIGN_OR_RETURN(Region region, readRegion<T>(rois, r, shape, pooled, scale, sampleRatio));
    const auto count = static_cast<double>(region.gridH * region.gridW);
    for (int64_t c = 0; c < channels; ++c) {
      const T* plane = data.data<T>() + (region.batch * channels + c) * height * width;
      for (int64_t ph = 0; ph < pooled[0]; ++ph)
        for (int64_t pw = 0; pw < pooled[1]; ++pw) {
          const double y0 = region.startY + static_cast<double>(ph) * region.binH;
          const double x0 = region.startX + static_cast<double>(pw) * region.binW;
          double result = average ? 0.0 : -INFINITY;
          for (int64_t iy = 0; iy < region.gridH; ++iy)
            for (int64_t ix = 0; ix < region.gridW; ++ix) {
              const double y = y0 + (static_cast<double>(iy) + 0.5) * region.binH / static_cast<double>(region.gridH);
              const double x = x0 + (static_cast<double>(ix) + 0.5) * region.binW / static_cast<double>(region.gridW);
              const double value = sample(plane, height, width, y, x);
              result = average ? result + value / count : std::max(result, value);
            }
          *out++ = static_cast<T>(result);
        }
    }
  }
  return Status::ok();
}

Status roiAlign(const KernelArgs& args) {
  BYOC_ASSIGN_OR_RETURN(std::vector<int64_t> pooled, ops::intsAttr("vision.roi_align", args.attrs, "pooled_size"));
  if (pooled.size() == 1) pooled.push_back(pooled[0]);
  BYOC_ASSIGN_OR_RETURN(int64_t sampleRatio, ops::intAttr("vision.roi_align", args.attrs, "sample_ratio"));
  BYOC_ASSIGN_OR_RETURN(double scale, ops::floatAttr("vision.roi_align", args.attrs, "spatial_scale"));
  const bool average = ops::stringAttr(args.attrs, "mode") == "avg";
  Status done = Status::ok();
  BYOC_TRY(dispatchFloat("vision.roi_align", args.inputs[0].dtype(), [&](auto zero) {
    done = roiAlignTyped<decltype(zero)>(args, pooled, scale, sampleRatio, average);
  }));
  return done;
}

}  // namespace

void addVisionKernels(KernelTable& table) {
  table["vision.roi_align"] = roiAlign;
  table["vision.all_class_non_max_suppression"] = allClassNonMaxSuppression;
}

}  // namespace byoc::kernels
