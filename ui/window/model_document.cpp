/// \file
/// openModelDocument and openDemoDocument.

#include "window/model_document.h"

#include <QFileInfo>
#include <algorithm>

#include "exports/export_view.h"
#include "exports/kernel_graph_view.h"
#include "frontend/loader.h"
#include "ir/structural.h"
#include "pass/infer_type.h"
#include "support/file_io.h"
#include "text/parser.h"
#include "builtin_resources.h"

namespace byoc::ui {

namespace {

Result<ModelDocument> finish(Module module, QString path, QString title, std::optional<std::string> source,
                             GraphOptions options) {
  BYOC_ASSIGN_OR_RETURN(Module typed, inferTypes(module));
  ModelDocument document;
  document.path = std::move(path);
  document.title = std::move(title);
  document.text = source ? TextLinks::source(*source, typed) : TextLinks::printed(typed);
  document.entry = entryFunction(typed, &document.entryName);
  if (document.entry) {
    document.entryGraph = std::make_shared<const GraphModel>(
        GraphModel::build(document.entry, document.entryName, typed.provenance().get(), options));
  }
  document.module = std::move(typed);
  return document;
}

/// The export in `directory`: its partitioned module, titled after the directory.
Result<ModelDocument> openExportDocument(const std::string& directory, GraphOptions options) {
  BYOC_ASSIGN_OR_RETURN(LoadedExport loaded, loadExport(directory));
  auto exported = std::make_shared<const LoadedExport>(std::move(loaded));
  const QFileInfo info(QString::fromStdString(directory));
  BYOC_ASSIGN_OR_RETURN(ModelDocument document, finish(exported->module, info.absoluteFilePath(),
                                                       info.fileName() + QStringLiteral(" (export)"), std::nullopt, options));
  for (const ManifestFunction& function : exported->manifest.functions) {
    if (!exported->kernelGraphs.count(function.name)) continue;
    BYOC_ASSIGN_OR_RETURN(std::string text, readFile(directory + "/" + function.artifact));  // checked by loadExport
    document.kernelGraphTexts[QString::fromStdString(function.name)] = QString::fromStdString(text);
  }
  // The IR text shows each kernel graph where the module holds only a placeholder for it.
  document.text = TextLinks::printed(withKernelGraphBodies(document.module, exported->kernelGraphs));
  document.exported = std::move(exported);
  return document;
}

}  // namespace

Result<ModelDocument> openModelDocument(const QString& path, GraphOptions options) {
  const std::string file = path.toStdString();
  if (std::optional<std::string> directory = exportDirectoryOf(file)) return openExportDocument(*directory, options);
  if (QFileInfo(path).isDir()) return readExportManifest(file).error();  // says what an export holds
  BYOC_ASSIGN_OR_RETURN(Module module, loadModuleFile(file));
  std::optional<std::string> source;
  const auto& provenance = module.provenance();
  const bool located = provenance && std::any_of(provenance->locations.begin(), provenance->locations.end(),
                                                 [](const auto& entry) { return entry.second.line > 0; });
  if (located) {
    if (Result<std::string> text = readFile(file)) source = *text;
  }
  return finish(std::move(module), QFileInfo(path).absoluteFilePath(), QFileInfo(path).fileName(), std::move(source),
                options);
}

Result<ModelDocument> openDemoDocument(GraphOptions options) {
  std::optional<std::string_view> text = findBuiltinResource(kDemoModelName);
  if (!text) return makeError("the built-in demo model is missing");
  BYOC_ASSIGN_OR_RETURN(Module module, parseModule(*text, "demo.relay"));
  return finish(std::move(module), {}, QStringLiteral("Demo"), std::string(*text), options);
}

Result<std::vector<Snapshot>> openStepFiles(const QStringList& paths, const Module& loaded) {
  std::vector<Snapshot> steps;
  steps.reserve(paths.size());  // `previous` points into it
  const Module* previous = &loaded;
  for (const QString& path : paths) {
    BYOC_ASSIGN_OR_RETURN(Module module, loadModuleFile(path.toStdString()));
    BYOC_ASSIGN_OR_RETURN(Module typed, inferTypes(module));
    if (!typed.provenance()) typed.setProvenance(loaded.provenance());
    const bool changed = !structuralEqual(typed, *previous);
    steps.push_back({QFileInfo(path).completeBaseName(), std::move(typed), changed, 0});
    previous = &steps.back().module;
  }
  return steps;
}

Function entryFunction(const Module& module, QString* name) {
  if (Function main = module.find("main")) {
    *name = QStringLiteral("main");
    return main;
  }
  if (module.functions().empty()) return {};
  *name = QString::fromStdString(module.functions().front().first);
  return module.functions().front().second;
}

}  // namespace byoc::ui
