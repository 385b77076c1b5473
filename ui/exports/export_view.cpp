/// \file
/// externalCallOverlay and regionProperties.

#include "exports/export_view.h"

#include <QStringList>
#include <map>

#include "graph/graph_model.h"

namespace byoc::ui {

namespace {

/// The `Compiler` (or `Codegen`) attribute of `function`, empty when it has none.
std::string compilerOf(const FunctionNode& function) {
  for (const char* name : {"Compiler", "Codegen"})
    if (const AttrValue* value = function.attrs.find(name); value && value->isString()) return value->asString();
  return {};
}

}  // namespace

std::string calledGlobal(const GraphNode& node) {
  if (node.kind != GraphNodeKind::Call || !node.expr) return {};
  const auto* call = node.expr->as<CallNode>();
  const auto* global = call ? call->callee->as<GlobalVarNode>() : nullptr;
  return global ? global->name : std::string();
}

GraphOverlay externalCallOverlay(const Module& module, const GraphModel& host) {
  GraphOverlay overlay;
  for (const GraphNode& node : host.nodes()) {
    const std::string name = calledGlobal(node);
    const Function function = name.empty() ? Function() : module.find(name);
    const std::string compiler = function ? compilerOf(*function) : std::string();
    if (compiler.empty()) continue;
    const AttrValue* symbol = function->attrs.find("global_symbol");
    const QString label = QString::fromStdString(symbol && symbol->isString() ? symbol->asString() : name);
    const QString target = QString::fromStdString(compiler);
    overlay.hulls.push_back({OverlayHull::Kind::Partition, label, target, {node.id}});
    overlay.nodeTargets[node.id] = target;
  }
  return overlay;
}

std::vector<Property> regionProperties(const LoadedExport& loaded, const GraphNode& node) {
  const std::string name = calledGlobal(node);
  std::vector<Property> rows;
  for (const ManifestFunction& function : loaded.manifest.functions) {
    if (function.name != name) continue;
    rows.emplace_back(QStringLiteral("codegen"), QString::fromStdString(function.codegen));
    rows.emplace_back(QStringLiteral("artifact"), QString::fromStdString(function.artifact));
    if (auto graph = loaded.kernelGraphs.find(name); graph != loaded.kernelGraphs.end())
      rows.emplace_back(QStringLiteral("kernel graph"), QString::fromStdString(graph->second->summary()));
  }
  return rows;
}

}  // namespace byoc::ui
