/// \file
/// externalCallOverlay and regionProperties.

#include "exports/export_view.h"

#include <QStringList>
#include <map>

#include "graph/graph_model.h"
#include "ir/function_attrs.h"

namespace byoc::ui {

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
    const std::string compiler = function ? regionCompiler(*function) : std::string();
    if (compiler.empty()) continue;
    const std::string symbol = globalSymbol(*function);
    const QString label = QString::fromStdString(symbol.empty() ? name : symbol);
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
