#pragma once
/// \file
/// Opening a model for the app: load, type-check, and keep the text it was written in. An export
/// directory (or a file it lists) opens as the partitioned module it holds.
///
/// Pure functions run on a worker thread; the result is a value the window takes over, with
/// everything the window needs to show it already computed (printed text, the graph model of the
/// entry function), so that taking it over costs the UI thread little even for large models.

#include <QString>

#include <QStringList>
#include <map>
#include <memory>
#include <vector>

#include "export/export_reader.h"
#include "graph/graph_model.h"
#include "panels/text_links.h"
#include "ir/module.h"
#include "snapshot/snapshot.h"
#include "support/result.h"

namespace byoc::ui {

/// An open model.
struct ModelDocument {
  /// The file it came from; empty for the built-in demo.
  QString path;
  /// Window title part: the file name, or "Demo".
  QString title;
  /// The type-checked module.
  Module module;
  /// The text the IR panel shows at step 0: the Relay source as written when the model is one,
  /// else the module printed; linked to the nodes of `module`.
  std::shared_ptr<const TextLinks> text;
  /// The function the first graph tab shows (see `entryFunction`), its name, and its graph model;
  /// all null or empty when the module has no function.
  Function entry;
  QString entryName;
  std::shared_ptr<const GraphModel> entryGraph;
  /// The export the document was opened from (already partitioned, its regions built by the
  /// codegens it records); null for a model.
  std::shared_ptr<const LoadedExport> exported;
  /// For each dnnl external function of `exported`: its kernel graph as the export writes it.
  std::map<QString, QString> kernelGraphTexts;
};

/// Loads and type-checks the model at `path`, its graph drawn as `options` say; the error is the
/// loader's or the type checker's. An export directory, or any file its manifest lists (the
/// manifest, host.json, host.relay…), opens the export (`exported` set), every checksum checked.
Result<ModelDocument> openModelDocument(const QString& path, GraphOptions options = {});
/// The built-in demo (seed 000's loop), type-checked.
Result<ModelDocument> openDemoDocument(GraphOptions options = {});
/// Saved pass steps: each file (any format `openModelDocument` reads; the JSON form keeps the
/// origins that map a step onto the loaded graph) becomes one snapshot named after the file, in
/// order; a step is "changed" when it differs structurally from the one before it (the first from
/// `loaded`). Saved steps carry no pass times. The error names the file that could not be read.
Result<std::vector<Snapshot>> openStepFiles(const QStringList& paths, const Module& loaded);

/// The function a graph tab shows first: `main`, else the module's first function; null if empty.
Function entryFunction(const Module& module, QString* name);

}  // namespace byoc::ui
