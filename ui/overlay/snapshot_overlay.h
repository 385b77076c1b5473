#pragma once
/// \file
/// What a pass step did, drawn on the loaded graph: a pure function from a snapshot module and
/// the loaded graph to a GraphOverlay.
///
/// Read from the snapshot:
/// - every function with a `Composite` attribute is a composite hull labelled with its name;
/// - every call with an `annotation.compiler_begin(…, compiler=t)` input is assigned target `t`
///   (`default` marks unsupported nodes); a call fed directly by a call of the same target (no
///   begin/end boundary between them, as after MergeCompilerRegions) belongs to the same region,
///   and once any two calls share a region every region of a real target is drawn as a hull
///   labelled `t #k`, numbered in post-order of first appearance;
/// - every global function with a `Compiler` attribute is a partition hull labelled with its
///   `global_symbol` (or its name) and coloured by its compiler.
/// Nodes are mapped to the loaded graph through their origins: a snapshot node covers every
/// loaded node whose expression's origin shares an id with it. Annotation calls themselves are
/// never drawn.

#include "graph/graph_model.h"
#include "ir/module.h"
#include "overlay/graph_overlay.h"

namespace byoc::ui {

/// The overlay of `snapshot` on `loaded`, the graph of the loaded model.
GraphOverlay overlayForSnapshot(const Module& snapshot, const GraphModel& loaded);

/// The overlay as text (one line per hull with its nodes' titles and ids, then targets), for tests.
QString describeOverlay(const GraphOverlay& overlay, const GraphModel& loaded);

}  // namespace byoc::ui
