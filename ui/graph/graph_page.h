#pragma once
/// \file
/// One graph tab: the view of a GraphModel with its minimap, search bar, layout job and export.
///
/// On `startLayout()` the page measures every node with the canvas fonts, writes DOT and hands it
/// to a LayoutRunner; until the layout arrives it shows a "laying out" notice and the UI stays
/// responsive. Groups are collapsed by default when the graph has more than `kCollapseAbove`
/// nodes; double-clicking a group collapses or expands it and lays the graph out again.

#include <QWidget>
#include <memory>

#include "graph/graph_model.h"
#include "ir/module.h"
#include "overlay/graph_overlay.h"
#include "theme.h"

class QLabel;
class QLineEdit;
class QCheckBox;

namespace byoc::ui {

class GraphScene;
class GraphView;
class Minimap;
class LayoutRunner;
struct Layout;

/// Graphs with more nodes than this open with their groups collapsed.
inline constexpr int kCollapseAbove = 1500;

/// A graph tab.
class GraphPage : public QWidget {
  Q_OBJECT
 public:
  /// `provenance` (may be null) lets search find source-model node names.
  GraphPage(std::shared_ptr<const GraphModel> model, std::shared_ptr<const Provenance> provenance,
            QWidget* parent = nullptr);
  ~GraphPage() override;

  const GraphModel& model() const { return *model_; }
  GraphScene* scene() const { return scene_; }
  GraphView* view() const { return view_; }
  /// True once a layout has been drawn.
  bool isLaidOut() const { return laidOut_; }

  /// Lays the graph out (again) in the background.
  void startLayout();
  /// Stops a running layout.
  void cancelLayout();
  /// Collapses or expands `group` and lays out again.
  void toggleGroup(int group);
  /// Draws a pass step's overlay.
  void setOverlay(const GraphOverlay& overlay);
  /// Outlines the nodes of each pattern match (see GraphScene::setMatchHighlights).
  void setMatchHighlights(std::vector<std::vector<int>> matches);
  void setTheme(Theme theme);

  /// Shows the search bar and focuses it.
  void showSearch();
  /// Runs a search and selects the first match; returns the number of matches.
  int search(const QString& text, bool regex);
  /// Selects the next (or previous) search match.
  void findNext(bool backwards = false);

  /// Writes the whole graph as SVG; false and `error` on failure (nothing half-written is left).
  bool exportSvg(const QString& path, QString* error) const;
  /// Writes the whole graph as PNG at `scale` × 100 %.
  bool exportPng(const QString& path, QString* error, qreal scale = 2.0) const;

 signals:
  /// A layout was drawn.
  void layoutReady();
  /// Layout failed; `message` says why.
  void layoutFailed(const QString& message);
  /// The selected node changed (-1: none).
  void nodeSelected(int node);
  /// The user double-clicked `node`.
  void nodeActivated(int node);
  /// A status line for the window's status bar.
  void status(const QString& message);

 protected:
  void resizeEvent(QResizeEvent* event) override;

 private:
  /// Searches for what the search bar holds.
  int runSearch();
  void onLayout(const Layout& layout);
  void placeOverlays();
  void showNotice(const QString& text);

  std::shared_ptr<const GraphModel> model_;
  std::shared_ptr<const Provenance> provenance_;
  std::vector<bool> collapsed_;
  GraphScene* scene_;
  GraphView* view_;
  Minimap* minimap_;
  LayoutRunner* runner_;
  QLabel* notice_;
  QWidget* searchBar_;
  QLineEdit* searchEdit_;
  QCheckBox* regexBox_;
  QLabel* searchStatus_;
  std::vector<int> matches_;
  int currentMatch_ = -1;
  bool laidOut_ = false;
};

}  // namespace byoc::ui
