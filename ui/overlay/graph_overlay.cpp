/// \file
/// GraphOverlay helpers.

#include "overlay/graph_overlay.h"

#include <algorithm>

namespace byoc::ui {

std::vector<QString> GraphOverlay::targets() const {
  std::vector<QString> seen;
  auto add = [&seen](const QString& target) {
    if (!target.isEmpty() && target != kDefaultTarget && std::find(seen.begin(), seen.end(), target) == seen.end())
      seen.push_back(target);
  };
  for (const auto& [node, target] : nodeTargets) add(target);
  for (const OverlayHull& hull : hulls) add(hull.target);
  std::vector<QString> result;
  for (const QString& target : targetOrder)
    if (std::find(seen.begin(), seen.end(), target) != seen.end()) result.push_back(target);
  for (const QString& target : seen)
    if (std::find(result.begin(), result.end(), target) == result.end()) result.push_back(target);
  return result;
}

}  // namespace byoc::ui
