#include "overlay/comparison_overlay.h"

#include <set>

namespace byoc::ui {

namespace {

bool offloaded(const PlacementMap& placements, NodeId id) {
  auto pieces = placements.find(id);
  if (pieces == placements.end()) return false;
  for (const Placement& piece : pieces->second)
    if (piece.offloaded()) return true;
  return false;
}

QString names(const std::vector<std::string>& composites) {
  if (composites.empty()) return QStringLiteral("-");
  QStringList list;
  for (const std::string& name : composites) list << QString::fromStdString(name);
  return list.join(QStringLiteral(" + "));
}

}  // namespace

std::vector<int> graphNodesOf(const std::vector<NodeId>& calls, const GraphModel& loaded) {
  std::set<int> nodes;
  for (NodeId id : calls)
    for (int node : loaded.nodesWithOrigin(id)) nodes.insert(node);
  return {nodes.begin(), nodes.end()};
}

GraphOverlay overlayForComparison(const Module& a, const Module& b, const PartitionDiff& diff, const GraphModel& loaded) {
  GraphOverlay overlay;
  overlay.targetOrder = {kOffloadedOnlyInA, kOffloadedOnlyInB, kOffloadedOnBoth, kOffloadedOnBothDifferently};
  const PlacementMap placedA = placeOpCalls(a);
  const PlacementMap placedB = placeOpCalls(b);
  std::set<NodeId> ids, placedDifferently;
  for (const auto& [id, pieces] : placedA) ids.insert(id);
  for (const auto& [id, pieces] : placedB) ids.insert(id);
  for (const OffloadDifference& row : diff.offload) placedDifferently.insert(row.id);  // what the table lists
  for (NodeId id : ids) {
    const bool inA = offloaded(placedA, id), inB = offloaded(placedB, id);
    if (!inA && !inB) continue;
    const QString& tint = !(inA && inB)                 ? (inA ? kOffloadedOnlyInA : kOffloadedOnlyInB)
                          : placedDifferently.count(id) ? kOffloadedOnBothDifferently
                                                        : kOffloadedOnBoth;
    for (int node : loaded.nodesWithOrigin(id)) overlay.nodeTargets.emplace(node, tint);
  }
  for (const CompositeDifference& composite : diff.composites) {
    std::vector<int> nodes = graphNodesOf(composite.calls, loaded);
    if (nodes.empty()) continue;
    overlay.hulls.push_back({OverlayHull::Kind::Composite,
                             QStringLiteral("A: %1 · B: %2").arg(names(composite.a), names(composite.b)), {}, std::move(nodes)});
  }
  return overlay;
}

}  // namespace byoc::ui
