#pragma once
/// \file
/// Two partitionings of the loaded model drawn as one overlay on its graph: every op call tinted
/// by where it is offloaded (on side A only, on side B only, on both alike, or on both but
/// differently: some of its pieces on the host, or on another compiler), exactly as the
/// comparison's table places it, and every composite that differs outlined, labelled with its
/// name on each side.

#include "graph/graph_model.h"
#include "ir/module.h"
#include "overlay/graph_overlay.h"
#include "pass/analysis/partition_diff.h"

namespace byoc::ui {

/// The tints of a comparison, as the legend names them ("runs on A only").
inline const QString kOffloadedOnlyInA = QStringLiteral("A only");
inline const QString kOffloadedOnlyInB = QStringLiteral("B only");
inline const QString kOffloadedOnBoth = QStringLiteral("both");
inline const QString kOffloadedOnBothDifferently = QStringLiteral("both, placed differently");

/// The overlay of `diff`, the comparison of the partitionings `a` and `b` of the model drawn as `loaded`.
GraphOverlay overlayForComparison(const Module& a, const Module& b, const PartitionDiff& diff, const GraphModel& loaded);

/// The nodes of `loaded` drawn for the loaded op calls `calls`, ascending.
std::vector<int> graphNodesOf(const std::vector<NodeId>& calls, const GraphModel& loaded);

}  // namespace byoc::ui
