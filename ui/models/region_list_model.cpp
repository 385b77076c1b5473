/// \file
/// RegionListModel.

#include "models/region_list_model.h"

#include <QList>

namespace byoc::ui {

void RegionListModel::setOverlay(const GraphOverlay& overlay) {
  beginResetModel();
  hulls_ = overlay.hulls;
  endResetModel();
}

int RegionListModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(hulls_.size());
}

int RegionListModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : 4; }

QVariant RegionListModel::data(const QModelIndex& index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid)) return {};
  const OverlayHull& hull = hulls_[index.row()];
  if (role == Qt::DisplayRole) {
    switch (index.column()) {
      case 0: return hull.label;
      case 1:
        return hull.kind == OverlayHull::Kind::Composite ? tr("composite")
               : hull.kind == OverlayHull::Kind::Region  ? tr("region")
                                                         : tr("partition");
      case 2: return hull.target;
      default: return static_cast<int>(hull.nodes.size());
    }
  }
  if (role == NodesRole) return QVariant::fromValue(QList<int>(hull.nodes.begin(), hull.nodes.end()));
  return {};
}

QVariant RegionListModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole || section < 0 || section > 3) return {};
  static const char* const kHeaders[] = {"Name", "Kind", "Target", "Nodes"};
  return tr(kHeaders[section]);
}

}  // namespace byoc::ui
