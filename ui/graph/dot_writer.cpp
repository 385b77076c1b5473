/// \file
/// writeDot: clusters written by an explicit walk of the group tree.

#include "graph/dot_writer.h"

#include <QStringBuilder>
#include <set>

namespace byoc::ui {

namespace {

QString inches(qreal points) { return QString::number(points / 72.0, 'f', 3); }

QString sizeAttrs(const QSizeF& size) {
  return QStringLiteral(" [width=") % inches(size.width()) % QStringLiteral(", height=") % inches(size.height()) %
         QStringLiteral("];\n");
}

bool isCollapsed(const std::vector<bool>& collapsed, int group) {
  return group >= 0 && static_cast<std::size_t>(group) < collapsed.size() && collapsed[group];
}

}  // namespace

QString layoutUnitOf(const GraphModel& model, int node, const std::vector<bool>& collapsed) {
  int outermost = -1;
  for (int group = model.nodes()[node].group; group >= 0; group = model.groups()[group].parent) {
    if (isCollapsed(collapsed, group)) outermost = group;
  }
  return outermost >= 0 ? u'g' % QString::number(outermost) : u'n' % QString::number(node);
}

QString writeDot(const GraphModel& model, const DotOptions& options) {
  QString dot = QStringLiteral(
      "digraph G {\n"
      "  graph [rankdir=TB, nodesep=0.25, ranksep=0.35, splines=spline];\n"
      "  node [shape=box, fixedsize=true, label=\"\"];\n");
  const auto& groups = model.groups();
  std::vector<std::vector<int>> childGroups(groups.size());
  std::vector<int> topGroups;
  for (const GraphGroup& group : groups) (group.parent >= 0 ? childGroups[group.parent] : topGroups).push_back(group.id);

  auto writeNode = [&](int id, const QString& indent) {
    QSizeF size = static_cast<std::size_t>(id) < options.nodeSizes.size() ? options.nodeSizes[id] : QSizeF(72, 36);
    dot += indent % u'n' % QString::number(id) % sizeAttrs(size);
  };
  for (const GraphNode& node : model.nodes()) {
    if (node.group < 0) writeNode(node.id, QStringLiteral("  "));
  }
  // Depth-first over the group tree with an explicit stack; a negative entry closes a cluster.
  std::vector<int> stack(topGroups.rbegin(), topGroups.rend());
  int depth = 1;
  while (!stack.empty()) {
    int entry = stack.back();
    stack.pop_back();
    if (entry < 0) {
      --depth;
      dot += QString(depth * 2, u' ') % QStringLiteral("}\n");
      continue;
    }
    QString indent(depth * 2, u' ');
    if (isCollapsed(options.collapsed, entry)) {
      dot += indent % u'g' % QString::number(entry) % sizeAttrs(options.collapsedSize);
      continue;
    }
    dot += indent % QStringLiteral("subgraph cluster_g") % QString::number(entry) % QStringLiteral(" {\n");
    ++depth;
    for (int node : groups[entry].nodes) writeNode(node, indent + QStringLiteral("  "));
    stack.push_back(-1);
    stack.insert(stack.end(), childGroups[entry].rbegin(), childGroups[entry].rend());
  }
  std::set<std::pair<QString, QString>> written;
  for (const GraphEdge& edge : model.edges()) {
    QString from = layoutUnitOf(model, edge.from, options.collapsed);
    QString to = layoutUnitOf(model, edge.to, options.collapsed);
    if (from == to) continue;
    if (from.startsWith(u'g') || to.startsWith(u'g')) {
      if (!written.insert({from, to}).second) continue;
    }
    dot += QStringLiteral("  ") % from % QStringLiteral(" -> ") % to % QStringLiteral(";\n");
  }
  dot += QStringLiteral("}\n");
  return dot;
}

}  // namespace byoc::ui
