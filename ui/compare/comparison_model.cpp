#include "compare/comparison_model.h"

#include "overlay/comparison_overlay.h"

namespace byoc::ui {

namespace {

QList<int> nodesOf(const std::vector<NodeId>& calls, const GraphModel& loaded) {
  const std::vector<int> nodes = graphNodesOf(calls, loaded);
  return {nodes.begin(), nodes.end()};
}

QString listed(const std::vector<std::string>& names) {
  if (names.empty()) return QStringLiteral("-");
  QStringList list;
  for (const std::string& name : names) list << QString::fromStdString(name);
  return list.join(QStringLiteral(", "));
}

}  // namespace

void ComparisonModel::setComparison(const PartitionDiff& diff, const GraphModel& loaded) {
  beginResetModel();
  rows_.clear();
  for (const OffloadRow& row : offloadRows(diff))
    rows_.push_back({tr("placed differently: %1").arg(QString::fromStdString(row.op)), QString::fromStdString(row.a),
                     QString::fromStdString(row.b), static_cast<int>(row.calls.size()), nodesOf(row.calls, loaded)});
  for (const RegionDifference& region : diff.regions)
    rows_.push_back({tr("regions: %1").arg(QString::fromStdString(regionChangeName(region.change))), listed(region.a),
                     listed(region.b), static_cast<int>(region.calls.size()), nodesOf(region.calls, loaded)});
  for (const CompositeRow& row : compositeRows(diff)) {
    std::vector<NodeId> calls;
    for (const CompositeDifference* group : row.groups) calls.insert(calls.end(), group->calls.begin(), group->calls.end());
    rows_.push_back({tr("composites (%n time(s))", nullptr, static_cast<int>(row.times)), QString::fromStdString(row.a),
                     QString::fromStdString(row.b), static_cast<int>(calls.size()), nodesOf(calls, loaded)});
  }
  endResetModel();
}

void ComparisonModel::clear() {
  beginResetModel();
  rows_.clear();
  endResetModel();
}

int ComparisonModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : static_cast<int>(rows_.size()); }

int ComparisonModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : 4; }

QVariant ComparisonModel::data(const QModelIndex& index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid)) return {};
  const Row& row = rows_[index.row()];
  if (role == Qt::DisplayRole || role == Qt::ToolTipRole) {
    switch (index.column()) {
      case 0: return row.difference;
      case 1: return row.a;
      case 2: return row.b;
      default: return row.calls;
    }
  }
  if (role == NodesRole) return QVariant::fromValue(row.nodes);
  return {};
}

QVariant ComparisonModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole || section < 0 || section > 3) return {};
  static const char* const kHeaders[] = {"Difference", "A", "B", "Calls"};
  return tr(kHeaders[section]);
}

}  // namespace byoc::ui
