#pragma once
/// \file
/// One graph tab: the view of a GraphModel with its minimap, search bar, layout job and export.
///
/// On `startLayout()` the page measures every node with the canvas fonts, writes DOT and hands it
/// to a LayoutRunner; until the layout arrives it shows a "laying out" notice and the UI stays
/// responsive. Groups are collapsed by default when the graph has more than `kCollapseAbove`
/// nodes. Double-clicking a collapsed group lays out only that group (on the same runner, so it
/// can be cancelled) and puts it where its node was, moving the rest apart; double-clicking an
/// expanded group folds it back without Graphviz (see LayoutHistory). The view's context menu
/// holds "Re-layout" for a clean picture of the whole graph.

#include <QWidget>
#include <memory>

#include "graph/dot_writer.h"
#include "graph/graph_image.h"
#include "graph/graph_model.h"
#include "graph/layout_history.h"
#include "ir/module.h"
#include "overlay/graph_overlay.h"
#include "theme.h"

class QLabel;
class QLineEdit;
class QToolButton;
class QCheckBox;

namespace byoc::ui {

class GraphLegend;
class GraphScene;
class GraphView;
class Minimap;
class LayoutRunner;

/// How a graph opens: a small one whole; one of more than kCollapseAbove nodes with its groups
/// collapsed but for the outermost synthesized blocks holding its first node, so that the first
/// picture shows ops.
std::vector<bool> initialCollapsed(const GraphModel& model);

/// DOT options for `collapsed` with the sizes of the units drawn, measured with the canvas fonts,
/// among the nodes `measured` says (all when empty): a graph of 100,000 nodes draws a few hundred.
DotOptions measuredOptions(const GraphModel& model, std::vector<bool> collapsed, const std::vector<bool>& measured = {});

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
  GraphLegend* legend() const { return legend_; }
  GraphView* view() const { return view_; }
  /// True once a layout has been drawn.
  bool isLaidOut() const { return laidOut_; }

  /// Lays the whole graph out (again) in the background.
  void startLayout();
  /// Stops a running layout.
  void cancelLayout();
  /// Expands `group` by laying out only its content in the background, or collapses it in place;
  /// before the first picture, lays the whole graph out again.
  void toggleGroup(int group);
  /// Collapses (or expands) every group and lays the whole graph out again.
  void setAllCollapsed(bool collapsed);
  /// The collapsed state of each group, as drawn once the running layout (if any) is drawn.
  const std::vector<bool>& collapsed() const { return history_.collapsed(); }
  /// Draws a pass step's overlay.
  void setOverlay(const GraphOverlay& overlay);
  /// Outlines the nodes of each pattern match (see GraphScene::setMatchHighlights).
  void setMatchHighlights(std::vector<MatchHighlight> matches);
  void setTheme(Theme theme);

  /// Shows the search bar and focuses it.
  void showSearch();
  /// Runs a search and selects the first match; returns the number of matches.
  int search(const QString& text, bool regex);
  /// Selects the next (or previous) search match, revealing it (see revealNode).
  void findNext(bool backwards = false);
  /// Expands the collapsed groups hiding `node` in one background layout (the outermost laid out
  /// alone with the others open inside it), then selects, centres and flashes it; false, and
  /// nothing done, when no group hides it or a full layout is running.
  bool revealNode(int node);
  /// Selects `nodes` and shows them all. When collapsed groups hide the first of them, those are
  /// expanded first (as `revealNode` does) and the nodes selected once drawn.
  void selectNodes(const std::vector<int>& nodes);

  /// The whole graph as it is drawn, recorded to be written as an image (graph_image.h).
  GraphRecording record() const;

 signals:
  /// The layout helper was started, on the whole graph or on one group.
  void layoutStarted();
  /// The layout helper returned `layout`, which is drawn next: the whole graph's units, or one
  /// group's and the ports on its border.
  void layoutComputed(const Layout& layout);
  /// A layout was drawn.
  void layoutReady();
  /// Layout failed; `message` says why.
  void layoutFailed(const QString& message);
  /// The selected node changed (-1: none).
  void nodeSelected(int node);
  /// The edge standing for model edge `edge` was selected.
  void edgeSelected(int edge);
  /// The user double-clicked `node`.
  void nodeActivated(int node);
  /// A status line for the window's status bar.
  void status(const QString& message);

 protected:
  void resizeEvent(QResizeEvent* event) override;
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  /// Searches for what the search bar holds.
  int runSearch();
  void onLayout(const Layout& layout);
  /// Starts laying out the collapsed `group` alone, with the groups `inside` it expanded too.
  void startGroupLayout(int group, std::vector<int> inside = {});
  /// Centres `node` at a legible zoom and flashes it.
  void showNode(int node);
  /// Selects the drawn ones of `nodes`; one is centred and flashed, several fitted in the view.
  void showSelection(const std::vector<int>& nodes);
  /// Draws the history's picture, keeping the overlays and what the view centres on.
  void draw();
  void placeOverlays();
  void updateLegend();
  void showNotice(const QString& text);

  std::shared_ptr<const GraphModel> model_;
  std::shared_ptr<const Provenance> provenance_;
  LayoutHistory history_;
  /// The group whose layout is running, or -1 (none, or a layout of the whole graph).
  int pendingGroup_ = -1;
  /// Groups nested in `pendingGroup_` laid out expanded with it.
  std::vector<int> pendingInside_;
  /// The nodes to select and show once the running group layout is drawn.
  std::vector<int> pendingReveal_;
  GraphScene* scene_;
  GraphView* view_;
  Minimap* minimap_;
  GraphLegend* legend_;
  LayoutRunner* runner_;
  QLabel* notice_;
  QWidget* searchBar_;
  QLineEdit* searchEdit_;
  QToolButton* closeSearch_;
  QCheckBox* regexBox_;
  QLabel* searchStatus_;
  std::vector<int> matches_;
  int currentMatch_ = -1;
  bool laidOut_ = false;
};

}  // namespace byoc::ui
