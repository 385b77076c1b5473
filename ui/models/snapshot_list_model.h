#pragma once
/// \file
/// The timeline's model: one row per pass step (Step, Pass, Time, Changed).

#include <QAbstractTableModel>
#include <vector>

#include "snapshot/snapshot.h"

namespace byoc::ui {

/// Table model over a list of snapshots.
class SnapshotListModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  using QAbstractTableModel::QAbstractTableModel;

  /// Replaces the list.
  void setSnapshots(std::vector<Snapshot> snapshots);
  /// Appends one step (as a pass instrument records it).
  void append(Snapshot snapshot);
  const std::vector<Snapshot>& snapshots() const { return snapshots_; }

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

 private:
  std::vector<Snapshot> snapshots_;
};

}  // namespace byoc::ui
