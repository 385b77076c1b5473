#pragma once
/// \file
/// The timeline's model: one row per pass step (Step, Pass, Time, Result). Result says what the
/// step changed compared with the step before it (see snapshot_summary.h), `changed` when the
/// counts stay the same, or `unchanged`.

#include <QAbstractTableModel>
#include <vector>

#include "snapshot/snapshot.h"
#include "snapshot/snapshot_summary.h"

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
  void appendSummary(const Snapshot& snapshot);

  std::vector<Snapshot> snapshots_;
  std::vector<ModuleCounts> counts_;
  std::vector<QString> results_;
};

}  // namespace byoc::ui
