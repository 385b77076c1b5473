#pragma once
/// \file
/// An export directory (docs/export-format.md) as the app shows it: which path opens which
/// export, its regions drawn on the host graph, and what the properties of a region call say.
///
/// The host graph is the export's `@main`: every call of an external function there is one region
/// of the partitioned module, drawn as a partition hull labelled with its global symbol and
/// coloured by its compiler, as PartitionGraph's step is on a loaded model.

#include <QString>
#include <optional>
#include <string>
#include <vector>

#include "export/export_reader.h"
#include "models/properties.h"
#include "overlay/graph_overlay.h"

namespace byoc::ui {

class GraphModel;

/// The regions of the partitioned module drawn on `host`, the graph of its `@main`: one partition
/// hull per call of a global function carrying `Compiler` (or `Codegen`), the call assigned to it.
GraphOverlay externalCallOverlay(const Module& module, const GraphModel& host);

/// Rows for the properties of `node` when it calls an external function of `loaded`: its codegen,
/// artifact and, for a kernel graph, its node counts and kernels; empty for any other node.
std::vector<Property> regionProperties(const LoadedExport& loaded, const GraphNode& node);

/// The global function `node` calls, or empty.
std::string calledGlobal(const GraphNode& node);

}  // namespace byoc::ui
