/// \file
/// openModelDocument and openDemoDocument.

#include "window/model_document.h"

#include <QFileInfo>
#include <algorithm>

#include "exports/kernel_graph_view.h"
#include "frontend/loader.h"
#include "ir/structural.h"
#include "pass/infer_type.h"
#include "session/opened_model.h"
#include "support/file_io.h"

namespace byoc::ui {

namespace {

/// What the window needs of `opened`, computed on the worker: its text and the graph of its entry.
Result<ModelDocument> documentOf(OpenedModel opened, QString title, GraphOptions options) {
  ModelDocument document;
  document.path = opened.path.empty() ? QString() : QFileInfo(QString::fromStdString(opened.path)).absoluteFilePath();
  document.title = std::move(title);
  const Module& typed = opened.module;
  // An export's text shows each kernel graph where its module holds only a placeholder for it.
  if (opened.exported) document.text = TextLinks::printed(withKernelGraphBodies(typed, opened.exported->kernelGraphs));
  else document.text = opened.sourceText ? TextLinks::source(*opened.sourceText, typed) : TextLinks::printed(typed);
  document.entry = entryFunction(typed, &document.entryName);
  if (document.entry) {
    document.entryGraph = std::make_shared<const GraphModel>(
        GraphModel::build(document.entry, document.entryName, typed.provenance().get(), options));
  }
  document.module = std::move(opened.module);
  if (opened.exported) {
    const LoadedExport& exported = *opened.exported;
    for (const ManifestFunction& function : exported.manifest.functions) {
      if (!exported.kernelGraphs.count(function.name)) continue;
      BYOC_ASSIGN_OR_RETURN(std::string text, readFile(exported.directory + "/" + function.artifact));  // checked by loadExport
      document.kernelGraphTexts[QString::fromStdString(function.name)] = QString::fromStdString(text);
    }
    document.exported = std::move(opened.exported);
  }
  return document;
}

}  // namespace

Result<ModelDocument> openModelDocument(const QString& path, GraphOptions options) {
  BYOC_ASSIGN_OR_RETURN(OpenedModel opened, openModel(path.toStdString(), {.keepSourceText = true}));
  QString title = QFileInfo(QString::fromStdString(opened.path)).fileName();
  if (opened.exported) title += QStringLiteral(" (export)");
  return documentOf(std::move(opened), std::move(title), options);
}

Result<ModelDocument> openDemoDocument(GraphOptions options) {
  BYOC_ASSIGN_OR_RETURN(OpenedModel opened, openDemo());
  return documentOf(std::move(opened), QStringLiteral("Demo"), options);
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
