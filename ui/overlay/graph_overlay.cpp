/// \file
/// GraphOverlay helpers.

#include "overlay/graph_overlay.h"

#include <algorithm>

namespace byoc::ui {

std::vector<QString> GraphOverlay::targets() const {
  std::vector<QString> result;
  auto add = [&result](const QString& target) {
    if (!target.isEmpty() && target != kDefaultTarget && std::find(result.begin(), result.end(), target) == result.end())
      result.push_back(target);
  };
  for (const auto& [node, target] : nodeTargets) add(target);
  for (const OverlayHull& hull : hulls) add(hull.target);
  return result;
}

}  // namespace byoc::ui
