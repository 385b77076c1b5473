/// \file
/// overlayForSnapshot: composites from the functions, placement from the passes' own region set.

#include "overlay/snapshot_overlay.h"

#include <QStringBuilder>
#include <QStringList>
#include <algorithm>
#include <set>
#include <unordered_map>

#include "ir/op.h"
#include "ir/traversal.h"
#include "pass/analysis/annotated_region_set.h"

namespace byoc::ui {

namespace {

const char* const kBegin = "annotation.compiler_begin";
const char* const kEnd = "annotation.compiler_end";

bool isCallOf(const Expr& expr, const char* opName) {
  const auto* call = expr->as<CallNode>();
  const OpDef* def = call ? call->opDef() : nullptr;
  return def && def->name == opName;
}

QString stringAttr(const Attrs& attrs, const char* name) {
  const AttrValue* value = attrs.find(name);
  return value && value->isString() ? QString::fromStdString(value->asString()) : QString();
}

/// Origin ids of every non-annotation call under `root` (nested function bodies included).
std::set<NodeId> callOrigins(const Expr& root) {
  std::set<NodeId> ids;
  postOrderVisit(root, [&ids](const Expr& expr) {
    if (!expr->as<CallNode>() || isCallOf(expr, kBegin) || isCallOf(expr, kEnd)) return;
    for (NodeId id : expr->origin().ids()) ids.insert(id);
  });
  return ids;
}

std::vector<int> loadedNodes(const std::set<NodeId>& ids, const GraphModel& loaded) {
  std::set<int> nodes;
  for (NodeId id : ids) {
    for (int node : loaded.nodesWithOrigin(id)) nodes.insert(node);
  }
  return {nodes.begin(), nodes.end()};
}

/// Origin ids of a call of a step: its own and, for a call of a function literal (a composite),
/// those of its body's calls.
std::set<NodeId> idsOfCall(const CallNode& call) {
  std::set<NodeId> ids(call.origin().ids().begin(), call.origin().ids().end());
  if (const auto* literal = call.callee->as<FunctionNode>()) {
    const std::set<NodeId> body = callOrigins(literal->body);
    ids.insert(body.begin(), body.end());
  }
  return ids;
}

/// The annotated placement of `main`: each call's target and, once regions hold several calls
/// (after MergeCompilerRegions), a hull per region of a target other than the host. The regions
/// are the passes' own (AnnotatedRegionSet), so the picture shows what PartitionGraph will outline.
void addAnnotatedPlacement(const Function& main, const GraphModel& loaded, GraphOverlay& overlay) {
  Result<AnnotatedRegionSet> regions = AnnotatedRegionSet::create(main);
  // No regions (before AnnotateTarget, after PartitionGraph): nothing to walk main for. Annotations
  // PartitionGraph refuses too: no placement to show.
  if (!regions || regions->regions().empty()) return;
  std::vector<const AnnotatedRegion*> order;  // regions by their first call in post-order
  std::unordered_map<const AnnotatedRegion*, std::set<NodeId>> members;
  std::unordered_map<const AnnotatedRegion*, int> calls;
  postOrderVisit(main, [&](const Expr& expr) {
    const auto* call = expr->as<CallNode>();
    if (!call || isCallOf(expr, kBegin) || isCallOf(expr, kEnd)) return;
    const AnnotatedRegion* region = regions->regionOf(expr);
    if (!region) return;
    const std::set<NodeId> ids = idsOfCall(*call);
    const QString target = QString::fromStdString(region->target);
    for (int node : loadedNodes(ids, loaded)) overlay.nodeTargets[node] = target;
    if (!calls.count(region)) order.push_back(region);
    ++calls[region];
    members[region].insert(ids.begin(), ids.end());
  });
  const bool merged = std::any_of(calls.begin(), calls.end(), [](const auto& entry) { return entry.second > 1; });
  if (!merged) return;
  std::unordered_map<std::string, int> counters;
  for (const AnnotatedRegion* region : order) {
    if (region->target == kDefaultTarget.toStdString()) continue;
    std::vector<int> nodes = loadedNodes(members[region], loaded);
    if (nodes.empty()) continue;
    const QString target = QString::fromStdString(region->target);
    overlay.hulls.push_back({OverlayHull::Kind::Region, target % QStringLiteral(" #") % QString::number(counters[region->target]++),
                             target, std::move(nodes)});
  }
}

}  // namespace

GraphOverlay overlayForSnapshot(const Module& snapshot, const GraphModel& loaded) {
  GraphOverlay overlay;
  for (const auto& [name, function] : snapshot.functions()) {
    postOrderVisit(function, [&](const Expr& expr) {
      const auto* literal = expr->as<FunctionNode>();
      QString composite = literal ? stringAttr(literal->attrs, "Composite") : QString();
      if (composite.isEmpty()) return;
      std::vector<int> nodes = loadedNodes(callOrigins(literal->body), loaded);
      if (!nodes.empty()) overlay.hulls.push_back({OverlayHull::Kind::Composite, composite, {}, std::move(nodes)});
    });
  }
  if (const Function main = snapshot.find("main"))
    addAnnotatedPlacement(main, loaded, overlay);

  for (const auto& [name, function] : snapshot.functions()) {
    QString compiler = stringAttr(function->attrs, "Compiler");
    if (compiler.isEmpty()) continue;
    QString symbol = stringAttr(function->attrs, "global_symbol");
    std::vector<int> nodes = loadedNodes(callOrigins(function->body), loaded);
    if (nodes.empty()) continue;
    overlay.hulls.push_back({OverlayHull::Kind::Partition, symbol.isEmpty() ? QString::fromStdString(name) : symbol,
                             compiler, std::move(nodes)});
    for (int node : overlay.hulls.back().nodes) overlay.nodeTargets[node] = compiler;
  }
  return overlay;
}

QString describeOverlay(const GraphOverlay& overlay, const GraphModel& loaded) {
  static const char* const kKinds[] = {"composite", "region", "partition"};
  auto nodeList = [&loaded](const std::vector<int>& nodes) {
    QStringList names;
    for (int node : nodes) names << loaded.nodes()[node].title % u'#' % QString::number(node);
    return names.join(QStringLiteral(", "));
  };
  QString text;
  for (const OverlayHull& hull : overlay.hulls) {
    text += QLatin1String(kKinds[static_cast<int>(hull.kind)]) % u' ' % hull.label % QStringLiteral(": ") %
            nodeList(hull.nodes) % u'\n';
  }
  std::map<QString, std::vector<int>> byTarget;
  for (const auto& [node, target] : overlay.nodeTargets) byTarget[target].push_back(node);
  for (const auto& [target, nodes] : byTarget) text += QStringLiteral("target ") % target % QStringLiteral(": ") % nodeList(nodes) % u'\n';
  return text;
}

}  // namespace byoc::ui
