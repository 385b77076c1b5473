#pragma once
/// \file
/// The list of what differs between two partitionings (Difference, A, B, Calls): the rows
/// `byoc compare` prints, each knowing the nodes of the loaded graph it covers.

#include <QAbstractTableModel>
#include <QList>

#include "graph/graph_model.h"
#include "pass/analysis/partition_diff.h"

namespace byoc::ui {

/// Table model over a PartitionDiff: op calls placed differently (one row per op and pair of
/// placements), then regions that differ, then composites that differ (one row per pair of names).
class ComparisonModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  /// Custom roles.
  enum Role {
    /// The loaded-graph nodes of the row: QList<int>.
    NodesRole = Qt::UserRole + 1,
  };

  using QAbstractTableModel::QAbstractTableModel;

  /// Shows `diff`, mapping its calls to the nodes of `loaded`.
  void setComparison(const PartitionDiff& diff, const GraphModel& loaded);
  /// Shows nothing.
  void clear();

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

 private:
  struct Row {
    QString difference, a, b;
    int calls = 0;
    QList<int> nodes;
  };
  std::vector<Row> rows_;
};

}  // namespace byoc::ui
