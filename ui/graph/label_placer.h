#pragma once
/// \file
/// Placing canvas labels so that none covers another or a node box.
///
/// Labels are placed one at a time, most important first; each takes the first free spot along a
/// line of candidates and keeps it, so later labels go around it or are not drawn (their text
/// stays in a tooltip). Rectangles are bucketed in a grid, so placing n labels costs about n
/// lookups of the few rectangles near each.

#include <QRectF>
#include <unordered_map>
#include <vector>

namespace byoc::ui {

/// Free-spot search among placed rectangles (scene coordinates).
class LabelPlacer {
 public:
  /// Marks `rect` as taken (a node box, or a label placed elsewhere).
  void take(const QRectF& rect);
  /// Whether `rect` overlaps nothing taken.
  bool isFree(const QRectF& rect) const;
  /// The first free spot found by sliding `rect` right past what it overlaps while its right edge
  /// stays at or before `maxRight` (`rect` itself when free), or a null rectangle.
  QRectF findSlidingRight(QRectF rect, qreal maxRight) const;
  /// Takes the spot findSlidingRight finds, and returns it.
  QRectF takeSlidingRight(const QRectF& rect, qreal maxRight);

 private:
  /// The first taken rectangle that `rect` overlaps, or null.
  const QRectF* firstOverlap(const QRectF& rect) const;
  template <typename Visit>
  void forEachCell(const QRectF& rect, Visit visit) const;

  std::vector<QRectF> taken_;
  std::unordered_map<long long, std::vector<int>> cells_;
};

}  // namespace byoc::ui
