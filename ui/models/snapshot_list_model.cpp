/// \file
/// SnapshotListModel.

#include "models/snapshot_list_model.h"

#include <QBrush>
#include <QPalette>
#include <QGuiApplication>

namespace byoc::ui {

void SnapshotListModel::setSnapshots(std::vector<Snapshot> snapshots) {
  beginResetModel();
  snapshots_.clear();
  counts_.clear();
  results_.clear();
  for (Snapshot& snapshot : snapshots) {
    appendSummary(snapshot);
    snapshots_.push_back(std::move(snapshot));
  }
  endResetModel();
}

void SnapshotListModel::append(Snapshot snapshot) {
  const int row = static_cast<int>(snapshots_.size());
  beginInsertRows({}, row, row);
  appendSummary(snapshot);
  snapshots_.push_back(std::move(snapshot));
  endInsertRows();
}

void SnapshotListModel::appendSummary(const Snapshot& snapshot) {
  counts_.push_back(countModule(snapshot.module));
  QString result = tr("unchanged");
  if (snapshot.changed) {
    result = counts_.size() > 1 ? describeChange(counts_[counts_.size() - 2], counts_.back()) : QString();
    if (result.isEmpty()) result = tr("changed");
  }
  results_.push_back(result);
}

int SnapshotListModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(snapshots_.size());
}

int SnapshotListModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : 4; }

QVariant SnapshotListModel::data(const QModelIndex& index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid)) return {};
  const Snapshot& step = snapshots_[index.row()];
  if (role == Qt::DisplayRole) {
    switch (index.column()) {
      case 0: return index.row();
      case 1: return step.passName;
      case 2: return QStringLiteral("%1 ms").arg(step.milliseconds, 0, 'f', 1);
      default: return results_[index.row()];
    }
  }
  if (role == Qt::ToolTipRole) return QString(step.passName + QStringLiteral(": ") + results_[index.row()]);
  if (role == Qt::ForegroundRole && !step.changed && index.row() > 0)
    return QGuiApplication::palette().brush(QPalette::Disabled, QPalette::Text);
  if (role == Qt::TextAlignmentRole && (index.column() == 0 || index.column() == 2))
    return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
  return {};
}

QVariant SnapshotListModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole || section < 0 || section > 3) return {};
  static const char* const kHeaders[] = {"Step", "Pass", "Time", "Result"};
  return tr(kHeaders[section]);
}

}  // namespace byoc::ui
