/// \file
/// vision.all_class_non_max_suppression. The greedy selection compares each candidate with the
/// boxes kept so far; kept boxes are bucketed in a grid whose cells are as large as the largest
/// candidate, so a candidate meets only the kept boxes in the cells it touches (a box that
/// overlaps it shares one), not all of them. torchvision offsets each class's boxes far apart and
/// suppresses all classes at once, so tens of thousands of candidates are common.

#include "runtime/kernels/non_max_suppression.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <string>
#include <unordered_map>
#include <vector>

#include "runtime/kernels/dispatch.h"

namespace byoc::kernels {

namespace {

/// A box's corners, each axis ordered (ONNX allows either diagonal).
struct Corners {
  float y0, x0, y1, x1;
  float area() const { return (y1 - y0) * (x1 - x0); }
};

/// ONNX Runtime's SuppressByIOU: whether a and b overlap by more than `threshold`.
bool overlapsTooMuch(const Corners& a, const Corners& b, float threshold) {
  const float height = std::min(a.y1, b.y1) - std::max(a.y0, b.y0);
  const float width = std::min(a.x1, b.x1) - std::max(a.x0, b.x0);
  if (!(height > 0) || !(width > 0)) return false;
  const float intersection = height * width;
  const float unionArea = a.area() + b.area() - intersection;
  if (!(a.area() > 0) || !(b.area() > 0) || !(unionArea > 0)) return false;
  return intersection / unionArea > threshold;
}

/// A grid over the candidates' extent would have more cells per axis than this: one cell is used.
constexpr double kMaxCellsPerAxis = 1 << 20;

/// The boxes kept so far for one class, bucketed by grid cell.
class KeptBoxes {
 public:
  /// A grid fitted to `candidates`' corners; one cell when a corner is not finite or the grid
  /// would be too fine.
  KeptBoxes(const std::vector<Corners>& corners, const std::vector<int64_t>& candidates) {
    float extent = 0;
    bool finite = true;
    for (int64_t i : candidates) {
      const Corners& box = corners[static_cast<std::size_t>(i)];
      finite =
          finite && std::isfinite(box.y0) && std::isfinite(box.x0) && std::isfinite(box.y1) && std::isfinite(box.x1);
      if (!finite) break;
      extent = std::max({extent, box.y1 - box.y0, box.x1 - box.x0});
      originY_ = std::min(originY_, box.y0);
      originX_ = std::min(originX_, box.x0);
      endY_ = std::max(endY_, box.y1);
      endX_ = std::max(endX_, box.x1);
    }
    const double span = std::max(static_cast<double>(endY_) - originY_, static_cast<double>(endX_) - originX_);
    if (finite && extent > 0 && span / extent < kMaxCellsPerAxis) cell_ = static_cast<double>(extent);
  }

  /// Whether a kept box overlaps `box` by more than `threshold`.
  bool suppresses(const Corners& box, float threshold) const {
    bool found = false;
    forEachCell(box, [&](int64_t key) {
      auto bucket = cells_.find(key);
      if (found || bucket == cells_.end()) return;
      found = std::any_of(bucket->second.begin(), bucket->second.end(),
                          [&](const Corners& kept) { return overlapsTooMuch(kept, box, threshold); });
    });
    return found;
  }

  /// Keeps `box`.
  void add(const Corners& box) {
    forEachCell(box, [&](int64_t key) { cells_[key].push_back(box); });
  }

 private:
  /// Calls `visit(key)` for each cell `box` touches (the one cell without a grid).
  template <typename Visit>
  void forEachCell(const Corners& box, Visit visit) const {
    if (cell_ == 0) return visit(0);
    const auto first = [&](float value, float origin) { return static_cast<int64_t>((value - origin) / cell_); };
    const int64_t columns = static_cast<int64_t>((static_cast<double>(endX_) - originX_) / cell_) + 1;
    for (int64_t row = first(box.y0, originY_); row <= first(box.y1, originY_); ++row)
      for (int64_t column = first(box.x0, originX_); column <= first(box.x1, originX_); ++column)
        visit(row * columns + column);
  }

  float originY_ = INFINITY, originX_ = INFINITY, endY_ = -INFINITY, endX_ = -INFINITY;
  /// The cell size, or 0 for one cell.
  double cell_ = 0;
  std::unordered_map<int64_t, std::vector<Corners>> cells_;
};

/// The elements of a float32 or float64 tensor as floats, the precision ONNX Runtime's NMS
/// computes in.
Result<std::vector<float>> asFloats(std::string_view op, const NDArray& array) {
  std::vector<float> values(static_cast<std::size_t>(array.numElements()));
  BYOC_TRY(dispatchFloat(op, array.dtype(), [&](auto zero) {
    const auto* data = array.data<decltype(zero)>();
    std::transform(data, data + array.numElements(), values.begin(), [](auto v) { return static_cast<float>(v); });
  }));
  return values;
}

/// The `count` boxes of batch entry `b` of `boxes` (4 values each), corners ordered.
std::vector<Corners> batchCorners(const std::vector<float>& boxes, int64_t b, int64_t count) {
  std::vector<Corners> corners(static_cast<std::size_t>(count));
  const float* box = boxes.data() + b * count * 4;
  for (Corners& corner : corners) {
    corner = {std::min(box[0], box[2]), std::min(box[1], box[3]), std::max(box[0], box[2]), std::max(box[1], box[3])};
    box += 4;
  }
  return corners;
}

}  // namespace

Status allClassNonMaxSuppression(const KernelArgs& args) {
  const std::string op(args.op);
  const int64_t batches = args.inputs[1].shape()[0], classes = args.inputs[1].shape()[1],
                count = args.inputs[1].shape()[2];
  BYOC_ASSIGN_OR_RETURN(std::vector<float> boxes, asFloats(op, args.inputs[0]));
  BYOC_ASSIGN_OR_RETURN(std::vector<float> scores, asFloats(op, args.inputs[1]));
  // Clamped to the box count as a double first: int64's maximum (what exporters pass for "no
  // limit") does not convert back to int64.
  const auto maxPerClass =
      static_cast<int64_t>(std::clamp(args.inputs[2].elementAsDouble(0), 0.0, static_cast<double>(count)));
  const double iou = args.inputs[3].elementAsDouble(0);
  const double scoreThreshold = args.inputs[4].elementAsDouble(0);
  if (!(iou >= 0 && iou <= 1)) {
    char text[32];
    return makeError(op + ": iou_threshold " + std::string(text, std::to_chars(text, text + sizeof text, iou).ptr) +
                     "; expected 0 to 1");
  }
  int64_t* rows = args.outputs[0].data<int64_t>();
  std::fill(rows, rows + args.outputs[0].numElements(), 0);
  int64_t selected = 0;
  std::vector<int64_t> order;
  for (int64_t b = 0; b < batches; ++b) {
    const std::vector<Corners> corners = batchCorners(boxes, b, count);
    for (int64_t c = 0; c < classes; ++c) {
      const float* score = scores.data() + (b * classes + c) * count;
      order.clear();
      for (int64_t i = 0; i < count; ++i)
        if (score[i] > scoreThreshold) order.push_back(i);
      std::stable_sort(order.begin(), order.end(), [&](int64_t x, int64_t y) { return score[x] > score[y]; });
      KeptBoxes kept(corners, order);
      int64_t keptCount = 0;
      for (int64_t i : order) {
        if (keptCount >= maxPerClass) break;
        const Corners& box = corners[static_cast<std::size_t>(i)];
        if (kept.suppresses(box, static_cast<float>(iou))) continue;
        kept.add(box);
        ++keptCount;
        int64_t* row = rows + 3 * selected++;
        row[0] = b;
        row[1] = c;
        row[2] = i;
      }
    }
  }
  args.outputs[1].data<int64_t>()[0] = selected;
  return Status::ok();
}

}  // namespace byoc::kernels
