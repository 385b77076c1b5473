#pragma once
/// \file
/// Live matches of the edited pattern on one graph tab: the matches found by `findMatches`
/// mapped to the tab's graph nodes, and the list model the dock shows (root op, node count).

#include <QAbstractTableModel>
#include <QList>
#include <vector>

#include "pattern/find_matches.h"

namespace byoc::ui {

class GraphModel;

/// One match, as nodes of a graph tab.
struct GraphMatch {
  /// The node drawing the match's root, or -1 when the root is not drawn.
  int root = -1;
  /// The root's title (op name, callee, `tuple`, …).
  QString rootTitle;
  /// Every drawn node the pattern matched itself (parameters and constants are stubs: left out),
  /// in the matcher's post-DFS order.
  std::vector<int> nodes;
  /// The drawn nodes only its wildcards matched: the match's inputs.
  std::vector<int> inputs;
};

/// `matches` (found in `model.function()`) as nodes of `model`.
std::vector<GraphMatch> graphMatches(const std::vector<PatternMatch>& matches, const GraphModel& model);

/// The list of live matches.
class PatternMatchModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  /// The columns.
  enum Column { RootColumn, NodesColumn, ColumnCount };
  /// Extra roles.
  enum Role {
    /// QList<int>: the match's nodes.
    NodesRole = Qt::UserRole + 1,
    /// int: the root node, or -1.
    RootRole,
  };

  /// An empty list.
  explicit PatternMatchModel(QObject* parent = nullptr);

  /// Replaces the list.
  void setMatches(std::vector<GraphMatch> matches);
  /// The matches listed, one per row.
  const std::vector<GraphMatch>& matches() const { return matches_; }

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

 private:
  std::vector<GraphMatch> matches_;
};

}  // namespace byoc::ui
