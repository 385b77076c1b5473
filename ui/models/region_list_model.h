#pragma once
/// \file
/// The side list of a step's regions, partitions and composites (Name, Kind, Target, Nodes), as a
/// tree: each region or outlined function holds the composites inside it, and the composites of
/// one pattern are gathered under one row (`dnnl.conv2d_bias_relu`, 33 composites) whose rows
/// name where each one lies in the model (its source node, such as `layer1.0.conv1`).

#include <QAbstractItemModel>
#include <vector>

#include "overlay/graph_overlay.h"

namespace byoc {
struct Provenance;
}

namespace byoc::ui {

class GraphModel;

/// Tree model over the hulls of a GraphOverlay.
class RegionListModel : public QAbstractItemModel {
  Q_OBJECT
 public:
  /// Custom roles.
  enum Role {
    /// The loaded-graph node ids of the row (all of a gathering row's composites): QList<int>.
    NodesRole = Qt::UserRole + 1,
  };

  using QAbstractItemModel::QAbstractItemModel;

  /// Shows the hulls of `overlay`, drawn on `graph` (may be null), whose nodes `provenance` (may be
  /// null) names.
  void setOverlay(const GraphOverlay& overlay, const GraphModel* graph = nullptr, const Provenance* provenance = nullptr);

  /// Whether any row names a target (no column for it otherwise).
  bool hasTargets() const;

  QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
  QModelIndex parent(const QModelIndex& child) const override;
  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

 private:
  struct Row {
    QString name;
    QString kind;
    QString target;
    std::vector<int> nodes;
    QString toolTip;
    int parent = -1;  ///< index in rows_, -1 at the top
    std::vector<int> children;
    int position = 0;  ///< among its parent's children
  };

  /// Adds the composites `members` (hull indices) under `parent`: one row each, or one row per
  /// pattern gathering its composites when a pattern matched more than once.
  void addComposites(const std::vector<int>& members, int parent, const std::vector<QString>& places);
  int addRow(Row row);

  std::vector<OverlayHull> hulls_;
  std::vector<Row> rows_;
  std::vector<int> top_;
};

}  // namespace byoc::ui
