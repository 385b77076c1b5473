/// \file
/// writeDot: clusters written by an explicit walk of the group tree.

#include "graph/dot_writer.h"

#include <QStringBuilder>
#include <set>
#include <tuple>

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

QString header() {
  return QStringLiteral(
      "digraph G {\n"
      "  graph [rankdir=TB, nodesep=0.25, ranksep=0.35, splines=spline];\n"
      "  node [shape=box, fixedsize=true, label=\"\"];\n");
}

void appendNode(QString& dot, int id, const DotOptions& options, const QString& indent) {
  const QSizeF size = static_cast<std::size_t>(id) < options.nodeSizes.size() ? options.nodeSizes[id] : QSizeF(72, 36);
  dot += indent % u'n' % QString::number(id) % sizeAttrs(size);
}

/// Writes the groups `roots` with everything in them, depth-first with an explicit stack: an
/// expanded group as a `cluster_g<id>` subgraph, a collapsed one as the node `g<id>`.
void appendClusters(QString& dot, const GraphModel& model, const DotOptions& options, const std::vector<int>& roots) {
  const auto& groups = model.groups();
  std::vector<std::vector<int>> childGroups(groups.size());
  for (const GraphGroup& group : groups) {
    if (group.parent >= 0) childGroups[group.parent].push_back(group.id);
  }
  // A negative entry closes a cluster.
  std::vector<int> stack(roots.rbegin(), roots.rend());
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
      dot += indent % u'g' % QString::number(entry) %
             sizeAttrs(std::size_t(entry) < options.groupSizes.size() ? options.groupSizes[entry] : options.collapsedSize);
      continue;
    }
    dot += indent % QStringLiteral("subgraph cluster_g") % QString::number(entry) % QStringLiteral(" {\n");
    ++depth;
    for (int node : groups[entry].nodes) appendNode(dot, node, options, indent + QStringLiteral("  "));
    stack.push_back(-1);
    stack.insert(stack.end(), childGroups[entry].rbegin(), childGroups[entry].rend());
  }
}

void appendEdge(QString& dot, const QString& from, const QString& to) {
  dot += QStringLiteral("  ") % from % QStringLiteral(" -> ") % to % QStringLiteral(";\n");
}

/// Writes the edges between units (numbered as layoutUnits does) of the model edges `keep` lets
/// through: none inside one unit, and those touching a collapsed group once per pair of units.
template <typename Keep>
void appendModelEdges(QString& dot, const GraphModel& model, const std::vector<int>& units, const Keep& keep) {
  std::set<std::pair<int, int>> written;
  for (const GraphEdge& edge : model.edges()) {
    const int from = units[edge.from], to = units[edge.to];
    if (from == to || !keep(edge)) continue;
    if ((from < 0 || to < 0) && !written.insert({from, to}).second) continue;
    appendEdge(dot, unitName(from), unitName(to));
  }
}

}  // namespace

QString layoutUnitOf(const GraphModel& model, int node, const std::vector<bool>& collapsed) {
  int outermost = -1;
  for (int group = model.nodes()[node].group; group >= 0; group = model.groups()[group].parent) {
    if (isCollapsed(collapsed, group)) outermost = group;
  }
  return outermost >= 0 ? u'g' % QString::number(outermost) : u'n' % QString::number(node);
}

std::vector<int> layoutUnits(const GraphModel& model, const std::vector<bool>& collapsed) {
  // The outermost collapsed group holding each group (itself included), or -1; -2 while unknown.
  // A group's parent may have a larger id, so each walk goes up to a known group and back down.
  const auto& groups = model.groups();
  std::vector<int> outermost(groups.size(), -2);
  std::vector<int> path;
  for (const GraphGroup& group : groups) {
    int top = group.id;
    for (; top >= 0 && outermost[top] == -2; top = groups[top].parent) path.push_back(top);
    int above = top >= 0 ? outermost[top] : -1;
    for (auto it = path.rbegin(); it != path.rend(); ++it) {
      if (above < 0 && isCollapsed(collapsed, *it)) above = *it;
      outermost[*it] = above;
    }
    path.clear();
  }
  std::vector<int> units(model.nodes().size());
  for (const GraphNode& node : model.nodes()) {
    const int group = node.group >= 0 ? outermost[node.group] : -1;
    units[node.id] = group >= 0 ? -1 - group : node.id;
  }
  return units;
}

QString unitName(int unit) { return unit >= 0 ? u'n' % QString::number(unit) : u'g' % QString::number(-1 - unit); }

QString writeDot(const GraphModel& model, const DotOptions& options) {
  QString dot = header();
  std::vector<int> topGroups;
  for (const GraphGroup& group : model.groups()) {
    if (group.parent < 0) topGroups.push_back(group.id);
  }
  for (const GraphNode& node : model.nodes()) {
    if (node.group < 0) appendNode(dot, node.id, options, QStringLiteral("  "));
  }
  appendClusters(dot, model, options, topGroups);
  appendModelEdges(dot, model, layoutUnits(model, options.collapsed), [](const GraphEdge&) { return true; });
  dot += QStringLiteral("}\n");
  return dot;
}

std::vector<bool> nodesInside(const GraphModel& model, int group) {
  // A group lies inside `group` when `group` is among its parents (walked up: the nesting is shallow).
  const auto& groups = model.groups();
  std::vector<bool> groupInside(groups.size(), false);
  for (const GraphGroup& each : groups) {
    for (int parent = each.id; parent >= 0 && !groupInside[each.id]; parent = groups[parent].parent) {
      if (parent == group) groupInside[each.id] = true;
    }
  }
  std::vector<bool> inside(model.nodes().size(), false);
  for (const GraphNode& node : model.nodes()) inside[node.id] = node.group >= 0 && groupInside[node.group];
  return inside;
}

std::vector<BorderEdge> borderEdges(const GraphModel& model, int group, const std::vector<bool>& collapsed) {
  const std::vector<bool> inside = nodesInside(model, group);
  const std::vector<int> units = layoutUnits(model, collapsed);
  std::vector<BorderEdge> border;
  std::set<std::tuple<int, int, bool>> seen;
  for (const GraphEdge& edge : model.edges()) {
    if (inside[edge.from] == inside[edge.to]) continue;
    const bool entering = inside[edge.to];
    const int outside = units[entering ? edge.from : edge.to];
    const int unit = units[entering ? edge.to : edge.from];
    if (seen.insert({outside, unit, entering}).second) border.push_back({unitName(outside), unitName(unit), entering});
  }
  return border;
}

QString writeGroupDot(const GraphModel& model, int group, const DotOptions& options) {
  // Without newrank, dot puts an empty rank between the ports' ranks and a cluster's.
  QString dot = header() % QStringLiteral("  graph [newrank=true];\n");
  appendClusters(dot, model, options, {group});
  const std::vector<BorderEdge> border = borderEdges(model, group, options.collapsed);
  for (const bool entering : {true, false}) {
    QString ports;
    std::set<QString> written;
    for (const BorderEdge& edge : border) {
      if (edge.entering == entering && written.insert(edge.inside).second)
        ports += u' ' % borderPortName(edge.inside, entering) % QStringLiteral(" [shape=point, width=0.05, height=0.05];");
    }
    if (!ports.isEmpty()) dot += QStringLiteral("  { rank=") % (entering ? QStringLiteral("source;") : QStringLiteral("sink;")) % ports % QStringLiteral(" }\n");
  }
  const std::vector<bool> inside = nodesInside(model, group);
  appendModelEdges(dot, model, layoutUnits(model, options.collapsed),
                   [&](const GraphEdge& edge) { return inside[edge.from] && inside[edge.to]; });
  // One edge per port and unit: several border edges may join one inside unit to one port.
  std::set<std::pair<QString, QString>> written;
  for (const BorderEdge& edge : border) {
    const QString port = borderPortName(edge.inside, edge.entering);
    const QString& from = edge.entering ? port : edge.inside;
    const QString& to = edge.entering ? edge.inside : port;
    if (written.insert({from, to}).second) appendEdge(dot, from, to);
  }
  dot += QStringLiteral("}\n");
  return dot;
}

}  // namespace byoc::ui
