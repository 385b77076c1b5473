/// \file
/// PatternMatchModel and the mapping of matched expressions to graph nodes.

#include "authoring/pattern_match_model.h"

#include <algorithm>

#include "graph/graph_model.h"

namespace byoc::ui {

std::vector<GraphMatch> graphMatches(const std::vector<PatternMatch>& matches, const GraphModel& model) {
  std::vector<GraphMatch> result;
  result.reserve(matches.size());
  for (const PatternMatch& match : matches) {
    GraphMatch shown;
    shown.root = model.nodeOf(match.root.get());
    for (const Expr& expr : match.nodes) {
      const int node = model.nodeOf(expr.get());
      if (node < 0) continue;
      const bool input = std::find(match.inputs.begin(), match.inputs.end(), expr) != match.inputs.end();
      (input ? shown.inputs : shown.nodes).push_back(node);
    }
    if (shown.root >= 0) {
      shown.rootTitle = model.nodes()[shown.root].title;
    } else {
      shown.rootTitle = QString::fromStdString(describeExpr(match.root));
    }
    result.push_back(std::move(shown));
  }
  return result;
}

PatternMatchModel::PatternMatchModel(QObject* parent) : QAbstractTableModel(parent) {}

void PatternMatchModel::setMatches(std::vector<GraphMatch> matches) {
  beginResetModel();
  matches_ = std::move(matches);
  endResetModel();
}

int PatternMatchModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(matches_.size());
}

int PatternMatchModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant PatternMatchModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || !checkIndex(index, CheckIndexOption::IndexIsValid)) return {};
  const GraphMatch& match = matches_[index.row()];
  switch (role) {
    case Qt::DisplayRole:
      return index.column() == RootColumn ? QVariant(match.rootTitle) : QVariant(static_cast<int>(match.nodes.size()));
    case Qt::ToolTipRole: return tr("Click to select the match on the graph");
    case NodesRole: return QVariant::fromValue(QList<int>(match.nodes.begin(), match.nodes.end()));
    case RootRole: return match.root;
  }
  return {};
}

QVariant PatternMatchModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  return section == RootColumn ? tr("Root") : tr("Nodes");
}

}  // namespace byoc::ui
