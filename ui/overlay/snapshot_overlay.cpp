/// \file
/// overlayForSnapshot: one post-order walk per function, union-find for regions.

#include "overlay/snapshot_overlay.h"

#include <QStringBuilder>
#include <QStringList>
#include <algorithm>
#include <set>
#include <unordered_map>

#include "ir/op.h"
#include "ir/traversal.h"

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

/// Disjoint sets over call nodes.
class Regions {
 public:
  const ExprNode* find(const ExprNode* node) {
    while (parent_.count(node) && parent_[node] != node) node = parent_[node] = parent_[parent_[node]];
    return node;
  }
  void add(const ExprNode* node) { parent_.emplace(node, node); }
  /// Joins two sets; returns false if they were already one.
  bool join(const ExprNode* a, const ExprNode* b) {
    a = find(a);
    b = find(b);
    if (a == b) return false;
    parent_[b] = a;
    return true;
  }

 private:
  std::unordered_map<const ExprNode*, const ExprNode*> parent_;
};

}  // namespace

GraphOverlay overlayForSnapshot(const Module& snapshot, const GraphModel& loaded) {
  GraphOverlay overlay;
  std::unordered_map<const ExprNode*, QString> targetOf;
  std::vector<const ExprNode*> annotated;  // in post-order
  Regions regions;
  bool merged = false;

  postOrderVisit(snapshot, [&](const Expr& expr) {
    if (const auto* function = expr->as<FunctionNode>()) {
      QString composite = stringAttr(function->attrs, "Composite");
      if (composite.isEmpty()) return;
      std::vector<int> nodes = loadedNodes(callOrigins(function->body), loaded);
      if (!nodes.empty()) overlay.hulls.push_back({OverlayHull::Kind::Composite, composite, {}, std::move(nodes)});
      return;
    }
    const auto* call = expr->as<CallNode>();
    if (!call || isCallOf(expr, kBegin) || isCallOf(expr, kEnd)) return;
    QString target;
    std::vector<const ExprNode*> sameRegion;
    for (const Expr& arg : call->args) {
      if (isCallOf(arg, kBegin)) {
        if (target.isEmpty()) target = stringAttr(arg->as<CallNode>()->attrs, "compiler");
      } else if (auto it = targetOf.find(arg.get()); it != targetOf.end()) {
        if (target.isEmpty()) target = it->second;
        if (it->second == target) sameRegion.push_back(arg.get());
      }
    }
    if (target.isEmpty()) return;
    targetOf[expr.get()] = target;
    annotated.push_back(expr.get());
    regions.add(expr.get());
    for (const ExprNode* neighbour : sameRegion) merged |= regions.join(neighbour, expr.get());
    std::set<NodeId> ids(expr->origin().ids().begin(), expr->origin().ids().end());
    if (const auto* callee = call->callee->as<FunctionNode>()) {
      std::set<NodeId> body = callOrigins(callee->body);
      ids.insert(body.begin(), body.end());
    }
    for (int node : loadedNodes(ids, loaded)) overlay.nodeTargets[node] = target;
  });

  if (merged) {
    std::vector<const ExprNode*> roots;
    std::unordered_map<const ExprNode*, std::set<NodeId>> members;
    for (const ExprNode* node : annotated) {
      if (targetOf[node] == kDefaultTarget) continue;
      const ExprNode* root = regions.find(node);
      if (!members.count(root)) roots.push_back(root);
      auto& ids = members[root];
      ids.insert(node->origin().ids().begin(), node->origin().ids().end());
      if (const auto* callee = static_cast<const CallNode*>(node)->callee->as<FunctionNode>()) {
        std::set<NodeId> body = callOrigins(callee->body);
        ids.insert(body.begin(), body.end());
      }
    }
    std::unordered_map<QString, int> counters;
    for (const ExprNode* root : roots) {
      const QString& target = targetOf[root];
      std::vector<int> nodes = loadedNodes(members[root], loaded);
      if (nodes.empty()) continue;
      overlay.hulls.push_back({OverlayHull::Kind::Region, target % QStringLiteral(" #") % QString::number(counters[target]++),
                               target, std::move(nodes)});
    }
  }

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
