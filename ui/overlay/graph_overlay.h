#pragma once
/// \file
/// What a pass step adds to the picture of the loaded graph, in terms of that graph's node ids.
///
/// Produced by `overlayForSnapshot` (snapshot_overlay.h), drawn by GraphScene::setOverlay.

#include <QString>
#include <map>
#include <vector>

namespace byoc::ui {

/// A labelled set of nodes drawn as one hull.
struct OverlayHull {
  enum class Kind { Composite, Region, Partition };
  Kind kind = Kind::Composite;
  /// Composite name, `target #n`, or the outlined function's global symbol.
  QString label;
  /// The target the nodes are assigned to (empty for composites).
  QString target;
  /// Nodes of the loaded graph inside the hull, sorted.
  std::vector<int> nodes;
};

/// The decorations of one step.
struct GraphOverlay {
  /// Target assigned to each annotated node of the loaded graph (`default` means unsupported).
  std::map<int, QString> nodeTargets;
  std::vector<OverlayHull> hulls;
  /// A line drawn under a hull's label, keyed by the hull label (a run's time per outlined function).
  std::map<QString, QString> hullNotes;
  /// The order the targets take their colours in when they appear (others follow).
  std::vector<QString> targetOrder;

  /// Targets named in `nodeTargets` or in hulls, other than `default`: those of `targetOrder` in
  /// its order, then the others in first-seen order.
  std::vector<QString> targets() const;
  bool empty() const { return nodeTargets.empty() && hulls.empty(); }
};

/// One match of the edited pattern on the picture (GraphScene::setMatchHighlights).
struct MatchHighlight {
  /// The nodes the pattern matched itself.
  std::vector<int> nodes;
  /// The nodes only its wildcards matched: the match's inputs, drawn apart.
  std::vector<int> inputs;
};

/// Name of the pseudo-target of nodes no target supports.
inline const QString kDefaultTarget = QStringLiteral("default");

}  // namespace byoc::ui
