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

/// The export directory that opening `path` opens: `path` itself when it is an export directory,
/// else the directory of the export whose manifest lists `path` (its manifest.json, host.json,
/// host.relay, parameters or an artifact); nothing when `path` belongs to no export.
std::optional<std::string> exportDirectoryOf(const std::string& path);

/// The regions of the partitioned module drawn on `host`, the graph of its `@main`: one partition
/// hull per call of a global function carrying `Compiler` (or `Codegen`), the call assigned to it.
GraphOverlay externalCallOverlay(const Module& module, const GraphModel& host);

/// Rows for the properties of `node` when it calls an external function of `loaded`: its codegen,
/// artifact and, for a kernel graph, its node counts and kernels; empty for any other node.
std::vector<Property> regionProperties(const LoadedExport& loaded, const GraphNode& node);

/// The global function `node` calls, or empty.
std::string calledGlobal(const GraphNode& node);

}  // namespace byoc::ui
