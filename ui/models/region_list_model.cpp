/// \file
/// RegionListModel.

#include "models/region_list_model.h"

#include <QList>
#include <algorithm>
#include <map>
#include <set>

#include "graph/graph_model.h"
#include "ir/module.h"

namespace byoc::ui {

namespace {

/// Where `node` lies in the model: its source node's name, else its scope and op, else its op.
QString placeOf(int node, const GraphModel* graph, const Provenance* provenance) {
  if (!graph || node < 0 || node >= static_cast<int>(graph->nodes().size())) return {};
  const GraphNode& drawn = graph->nodes()[node];
  if (provenance && drawn.expr) {
    for (NodeId id : drawn.expr->origin().ids())
      if (auto name = provenance->names.find(id); name != provenance->names.end()) return QString::fromStdString(name->second);
  }
  if (drawn.group >= 0) return graph->groups()[drawn.group].label + QStringLiteral(" · ") + drawn.title;
  return drawn.title;
}

QString kindName(OverlayHull::Kind kind) {
  switch (kind) {
    case OverlayHull::Kind::Composite: return RegionListModel::tr("composite");
    case OverlayHull::Kind::Region: return RegionListModel::tr("region");
    case OverlayHull::Kind::Partition: return RegionListModel::tr("partition");
  }
  return {};
}

}  // namespace

void RegionListModel::setOverlay(const GraphOverlay& overlay, const GraphModel* graph, const Provenance* provenance) {
  beginResetModel();
  hulls_ = overlay.hulls;
  rows_.clear();
  top_.clear();
  std::vector<QString> places(hulls_.size());
  std::map<int, int> containerOf;  // node → row of the region or partition holding it
  for (std::size_t i = 0; i < hulls_.size(); ++i) {
    const OverlayHull& hull = hulls_[i];
    if (!hull.nodes.empty()) places[i] = placeOf(hull.nodes.front(), graph, provenance);
    if (hull.kind == OverlayHull::Kind::Composite) continue;
    const int row = addRow({hull.label, kindName(hull.kind), hull.target, hull.nodes, hull.label, -1, {}});
    for (int node : hull.nodes) containerOf.emplace(node, row);
  }
  std::map<int, std::vector<int>> compositesIn;  // container row (-1: none) → composite hulls
  for (std::size_t i = 0; i < hulls_.size(); ++i) {
    if (hulls_[i].kind != OverlayHull::Kind::Composite) continue;
    auto container = hulls_[i].nodes.empty() ? containerOf.end() : containerOf.find(hulls_[i].nodes.front());
    compositesIn[container == containerOf.end() ? -1 : container->second].push_back(static_cast<int>(i));
  }
  for (const auto& [container, members] : compositesIn) addComposites(members, container, places);
  endResetModel();
}

void RegionListModel::addComposites(const std::vector<int>& members, int parent, const std::vector<QString>& places) {
  std::vector<QString> patterns;  // in first-seen order
  std::map<QString, std::vector<int>> byPattern;
  for (int hull : members) {
    auto& same = byPattern[hulls_[hull].label];
    if (same.empty()) patterns.push_back(hulls_[hull].label);
    same.push_back(hull);
  }
  for (const QString& pattern : patterns) {
    const std::vector<int>& same = byPattern.at(pattern);
    if (same.size() == 1) {
      const OverlayHull& hull = hulls_[same.front()];
      addRow({hull.label, kindName(hull.kind), hull.target, hull.nodes, hull.label + QStringLiteral(" at ") + places[same.front()],
              parent, {}});
      continue;
    }
    std::set<int> all;
    for (int hull : same) all.insert(hulls_[hull].nodes.begin(), hulls_[hull].nodes.end());
    const int gathering = addRow({pattern, tr("%n composites", nullptr, static_cast<int>(same.size())), QString(),
                                  std::vector<int>(all.begin(), all.end()), pattern, parent, {}});
    for (int hull : same)
      addRow({places[hull], kindName(OverlayHull::Kind::Composite), hulls_[hull].target, hulls_[hull].nodes,
              pattern + QStringLiteral(" at ") + places[hull], gathering, {}});
  }
}

int RegionListModel::addRow(Row row) {
  const int id = static_cast<int>(rows_.size());
  std::vector<int>& siblings = row.parent < 0 ? top_ : rows_[row.parent].children;
  row.position = static_cast<int>(siblings.size());
  siblings.push_back(id);
  rows_.push_back(std::move(row));
  return id;
}

bool RegionListModel::hasTargets() const {
  return std::any_of(rows_.begin(), rows_.end(), [](const Row& row) { return !row.target.isEmpty(); });
}

QModelIndex RegionListModel::index(int row, int column, const QModelIndex& parent) const {
  if (column < 0 || column >= 4 || row < 0) return {};
  const std::vector<int>& siblings = parent.isValid() ? rows_[parent.internalId()].children : top_;
  if (row >= static_cast<int>(siblings.size())) return {};
  return createIndex(row, column, static_cast<quintptr>(siblings[row]));
}

QModelIndex RegionListModel::parent(const QModelIndex& child) const {
  if (!child.isValid()) return {};
  const int parent = rows_[child.internalId()].parent;
  if (parent < 0) return {};
  return createIndex(rows_[parent].position, 0, static_cast<quintptr>(parent));
}

int RegionListModel::rowCount(const QModelIndex& parent) const {
  if (!parent.isValid()) return static_cast<int>(top_.size());
  return parent.column() == 0 ? static_cast<int>(rows_[parent.internalId()].children.size()) : 0;
}

int RegionListModel::columnCount(const QModelIndex&) const { return 4; }

QVariant RegionListModel::data(const QModelIndex& index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid)) return {};
  const Row& row = rows_[index.internalId()];
  if (role == Qt::DisplayRole) {
    switch (index.column()) {
      case 0: return row.name;
      case 1: return row.kind;
      case 2: return row.target;
      default: return static_cast<int>(row.nodes.size());
    }
  }
  if (role == Qt::ToolTipRole && index.column() == 0) return row.toolTip;
  if (role == NodesRole) return QVariant::fromValue(QList<int>(row.nodes.begin(), row.nodes.end()));
  return {};
}

QVariant RegionListModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole || section < 0 || section > 3) return {};
  static const char* const kHeaders[] = {"Name", "Kind", "Target", "Nodes"};
  return tr(kHeaders[section]);
}

}  // namespace byoc::ui
