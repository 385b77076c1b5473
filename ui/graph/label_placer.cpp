/// \file
/// LabelPlacer: a uniform grid of taken rectangles.

#include "graph/label_placer.h"

#include <cmath>

namespace byoc::ui {

namespace {

/// Grid cell size in scene units: about one node box, so a label touches a handful of cells.
constexpr qreal kCell = 96;
/// Space kept between a slid label and what it slid past.
constexpr qreal kGap = 6;

long long cellKey(long long column, long long row) { return (row << 32) ^ (column & 0xffffffffLL); }

}  // namespace

template <typename Visit>
void LabelPlacer::forEachCell(const QRectF& rect, Visit visit) const {
  const auto left = static_cast<long long>(std::floor(rect.left() / kCell));
  const auto right = static_cast<long long>(std::floor(rect.right() / kCell));
  const auto top = static_cast<long long>(std::floor(rect.top() / kCell));
  const auto bottom = static_cast<long long>(std::floor(rect.bottom() / kCell));
  for (long long row = top; row <= bottom; ++row) {
    for (long long column = left; column <= right; ++column) visit(cellKey(column, row));
  }
}

void LabelPlacer::take(const QRectF& rect) {
  if (rect.isEmpty()) return;
  const int index = static_cast<int>(taken_.size());
  taken_.push_back(rect);
  forEachCell(rect, [&](long long key) { cells_[key].push_back(index); });
}

const QRectF* LabelPlacer::firstOverlap(const QRectF& rect) const {
  const QRectF* found = nullptr;
  forEachCell(rect, [&](long long key) {
    if (found) return;
    auto cell = cells_.find(key);
    if (cell == cells_.end()) return;
    for (int index : cell->second) {
      if (taken_[index].intersects(rect)) {
        found = &taken_[index];
        return;
      }
    }
  });
  return found;
}

bool LabelPlacer::isFree(const QRectF& rect) const { return !firstOverlap(rect); }

QRectF LabelPlacer::findSlidingRight(QRectF rect, qreal maxRight) const {
  // Each step moves past one taken rectangle, so the loop ends within the number taken.
  while (rect.right() <= maxRight) {
    const QRectF* overlap = firstOverlap(rect);
    if (!overlap) return rect;
    rect.moveLeft(overlap->right() + kGap);
  }
  return {};
}

QRectF LabelPlacer::takeSlidingRight(const QRectF& rect, qreal maxRight) {
  const QRectF found = findSlidingRight(rect, maxRight);
  take(found);
  return found;
}

}  // namespace byoc::ui
