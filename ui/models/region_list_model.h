#pragma once
/// \file
/// The side list of a step's groups, regions and partitions (Name, Kind, Target, Nodes).

#include <QAbstractTableModel>

#include "overlay/graph_overlay.h"

namespace byoc::ui {

/// Table model over the hulls of a GraphOverlay.
class RegionListModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  /// Custom roles.
  enum Role {
    /// The loaded-graph node ids of the row: QList<int>.
    NodesRole = Qt::UserRole + 1,
  };

  using QAbstractTableModel::QAbstractTableModel;

  /// Shows the hulls of `overlay`.
  void setOverlay(const GraphOverlay& overlay);

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

 private:
  std::vector<OverlayHull> hulls_;
};

}  // namespace byoc::ui
