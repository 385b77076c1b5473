#pragma once
/// \file
/// The outline of a set of nodes that hugs them: each member's box, padded and rounded, joined
/// to the boxes of its member inputs by a band along the line between them. Unlike a convex
/// hull it covers no canvas the members do not use, so regions that wind through a graph stay
/// narrow and neighbours stay apart.

#include <QPainterPath>
#include <functional>
#include <vector>

#include "graph/graph_model.h"

namespace byoc::ui {

/// The outline around `members` (node ids of `model`); `boxOf` gives the scene box drawing a node
/// (a null rectangle when it is not drawn; several nodes may share the box of a collapsed group).
QPainterPath memberOutline(const GraphModel& model, const std::vector<int>& members,
                           const std::function<QRectF(int node)>& boxOf, qreal pad);

/// The member boxes of `members` as `boxOf` gives them, each once, in the order first met.
std::vector<QRectF> memberBoxes(const std::vector<int>& members, const std::function<QRectF(int node)>& boxOf);

}  // namespace byoc::ui
