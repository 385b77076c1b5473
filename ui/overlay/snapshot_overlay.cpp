/// \file
/// overlayForSnapshot: composites from the functions, placement from the passes' own region set.

#include "overlay/snapshot_overlay.h"

#include <QStringBuilder>
#include <QStringList>
#include <algorithm>
#include <unordered_map>

#include "ir/function_attrs.h"
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

/// `values` sorted, each once. (Sets of ids are sorted vectors here: a step maps tens of
/// thousands of calls, and a tree node per id made that the slow part of showing a step.)
template <typename T>
void sortUnique(std::vector<T>& values) {
  std::sort(values.begin(), values.end());
  values.erase(std::unique(values.begin(), values.end()), values.end());
}

/// Origin ids of every non-annotation call under `root` (nested function bodies included),
/// appended to `ids` (not sorted).
void appendCallOrigins(const Expr& root, std::vector<NodeId>& ids) {
  postOrderVisit(root, [&ids](const Expr& expr) {
    if (!expr->as<CallNode>() || isCallOf(expr, kBegin) || isCallOf(expr, kEnd)) return;
    ids.insert(ids.end(), expr->origin().ids().begin(), expr->origin().ids().end());
  });
}

/// The loaded nodes of `ids`, sorted, each once.
std::vector<int> loadedNodes(const std::vector<NodeId>& ids, const GraphModel& loaded) {
  std::vector<int> nodes;
  for (NodeId id : ids) {
    const std::vector<int> withOrigin = loaded.nodesWithOrigin(id);
    nodes.insert(nodes.end(), withOrigin.begin(), withOrigin.end());
  }
  sortUnique(nodes);
  return nodes;
}

/// The loaded nodes of every non-annotation call under `root`.
std::vector<int> loadedNodesOfCalls(const Expr& root, const GraphModel& loaded) {
  std::vector<NodeId> ids;
  appendCallOrigins(root, ids);
  sortUnique(ids);
  return loadedNodes(ids, loaded);
}

/// Origin ids of a call of a step, sorted, each once: its own and, for a call of a function
/// literal (a composite), those of its body's calls.
std::vector<NodeId> idsOfCall(const CallNode& call) {
  std::vector<NodeId> ids(call.origin().ids().begin(), call.origin().ids().end());
  if (const auto* literal = call.callee->as<FunctionNode>()) appendCallOrigins(literal->body, ids);
  sortUnique(ids);
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
  // By region id (as `regionOf` gives them): calls, origin ids of the calls, the target's name.
  const auto idCount = static_cast<std::size_t>(regions->idCount());
  std::vector<const AnnotatedRegion*> order;  // regions by their first call in post-order
  std::vector<std::vector<NodeId>> members(idCount);
  std::vector<int> calls(idCount, 0);
  std::vector<QString> targets(idCount);
  postOrderVisit(main, [&](const Expr& expr) {
    const auto* call = expr->as<CallNode>();
    if (!call || isCallOf(expr, kBegin) || isCallOf(expr, kEnd)) return;
    const AnnotatedRegion* region = regions->regionOf(expr);
    if (!region) return;
    const auto id = static_cast<std::size_t>(region->id);
    if (calls[id]++ == 0) {
      order.push_back(region);
      targets[id] = QString::fromStdString(region->target);
    }
    const std::vector<NodeId> ids = idsOfCall(*call);
    for (int node : loadedNodes(ids, loaded)) overlay.nodeTargets[node] = targets[id];
    members[id].insert(members[id].end(), ids.begin(), ids.end());
  });
  const bool merged = std::any_of(calls.begin(), calls.end(), [](int count) { return count > 1; });
  if (!merged) return;
  const std::string host = kDefaultTarget.toStdString();
  std::unordered_map<std::string, int> counters;
  for (const AnnotatedRegion* region : order) {
    if (region->target == host) continue;
    std::vector<NodeId>& ids = members[static_cast<std::size_t>(region->id)];
    sortUnique(ids);
    std::vector<int> nodes = loadedNodes(ids, loaded);
    if (nodes.empty()) continue;
    const QString& target = targets[static_cast<std::size_t>(region->id)];
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
      QString composite = literal ? QString::fromStdString(compositeName(*literal)) : QString();
      if (composite.isEmpty()) return;
      std::vector<int> nodes = loadedNodesOfCalls(literal->body, loaded);
      if (!nodes.empty()) overlay.hulls.push_back({OverlayHull::Kind::Composite, composite, {}, std::move(nodes)});
    });
  }
  if (const Function main = snapshot.find("main"))
    addAnnotatedPlacement(main, loaded, overlay);

  for (const auto& [name, function] : snapshot.functions()) {
    QString compiler = QString::fromStdString(stringAttrOf(*function, attr::kCompiler));
    if (compiler.isEmpty()) continue;
    QString symbol = QString::fromStdString(globalSymbol(*function));
    std::vector<int> nodes = loadedNodesOfCalls(function->body, loaded);
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
