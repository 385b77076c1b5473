#pragma once
/// \file
/// The canvas of one graph: node, edge and group items placed by a Layout, plus the overlay of a
/// pass step, search matches, the outlines of pattern matches and the selected node.
///
/// The scene keeps no IR: it is built from a GraphModel (shared, immutable) and a Layout, and
/// reports user actions as node and group ids.

#include <QGraphicsScene>
#include <QPointer>
#include <QTimer>
#include <functional>
#include <memory>
#include <optional>
#include <QHash>

#include "graph/graph_items.h"
#include "graph/graph_model.h"
#include "graph/label_placer.h"
#include "layout/plain_layout.h"
#include "overlay/graph_overlay.h"
#include "theme.h"

namespace byoc::ui {

/// QGraphicsScene of one laid-out GraphModel.
class GraphScene : public QGraphicsScene {
  Q_OBJECT
 public:
  explicit GraphScene(QObject* parent = nullptr);
  ~GraphScene() override;

  /// Replaces the content with `model` placed by `layout`; `collapsed` is per group id.
  void populate(std::shared_ptr<const GraphModel> model, const Layout& layout, std::vector<bool> collapsed);
  /// Redraws everything in `theme`'s colours.
  void setTheme(Theme theme);
  Theme theme() const { return theme_; }

  const GraphModel* model() const { return model_.get(); }
  /// The item showing `node` (its collapsed group's item if it is collapsed away), or null.
  NodeItem* itemOf(int node) const;
  /// The selected node, or -1.
  int selectedNode() const { return selected_; }
  /// Selects `node` (-1 clears) and emits `nodeSelected` if it changed.
  void selectNode(int node);
  /// Marks search matches (replacing earlier ones).
  void setMatches(const std::vector<int>& nodes);
  const std::vector<int>& searchMatches() const { return matches_; }
  /// Pulses a ring around the box of `node` for a moment, to show where the eye should go.
  void flashNode(int node);
  /// Draws `overlay` (replacing the previous one).
  void setOverlay(const GraphOverlay& overlay);
  const GraphOverlay& overlay() const { return overlay_; }
  /// Number of hulls the overlay draws.
  int hullCount() const { return hullCount_; }
  /// Draws now what is left of the overlay: past kHullsDrawnAtOnce hulls, their outlines and
  /// labels are drawn in slices of the event loop, so that a step with thousands of regions does
  /// not hold the UI thread (an image of the scene wants all of them).
  void finishOverlay();
  /// Outlines each pattern match: its nodes as one filled outline, and each input its wildcards
  /// matched as a dashed ring, replacing the previous outlines. Independent of the overlay and of
  /// search matches; kept across layouts.
  void setMatchHighlights(std::vector<MatchHighlight> matches);
  /// The matches last given to `setMatchHighlights`.
  const std::vector<MatchHighlight>& matchHighlights() const { return highlights_; }
  /// Number of match outlines currently drawn (matches with no visible node draw none).
  int matchOutlineCount() const { return matchOutlineCount_; }
  /// Number of match inputs currently ringed.
  int matchInputRingCount() const { return static_cast<int>(outlines_.size()) - matchOutlineCount_; }

 signals:
  /// The user or the program selected `node` (-1: nothing).
  void nodeSelected(int node);
  /// The edge standing for the model edge `edge` was selected by a click.
  void edgeSelected(int edge);
  /// The user asked to collapse or expand `group`.
  void groupToggled(int group);
  /// The user double-clicked `node`.
  void nodeActivated(int node);
  /// The overlay, search matches or pattern-match outlines changed.
  void decorationsChanged();

 protected:
  void mouseDoubleClickEvent(QGraphicsSceneMouseEvent* event) override;
  void drawBackground(QPainter* painter, const QRectF& rect) override;

 private:
  void rebuild();
  void onSelectionChanged();
  /// A hull of the overlay as drawn: its colour, member boxes and note.
  struct DrawnHull {
    const OverlayHull* hull;
    QColor colour;
    std::vector<QRectF> boxes;
    QString note;
  };
  /// Places the group labels around the node boxes (on every rebuild).
  void placeGroupLabels();
  /// The overlay's hulls still to draw: outlines in the overlay's order, then labels (regions and
  /// partitions first), then edge labels around them.
  struct PendingHulls {
    std::vector<DrawnHull> hulls;
    std::size_t nextOutline = 0;
    std::vector<std::size_t> labelOrder;
    std::size_t nextLabel = 0;
    LabelPlacer placer;
  };
  /// Draws pending hulls for at most `budgetNs` (then the next slice goes on).
  void drawPendingHulls(qint64 budgetNs);
  /// Places a hull's label and note around what `placer` holds taken.
  void placeHullLabel(const DrawnHull& hull, LabelPlacer& placer);
  /// Places the edge labels where `placer` leaves room.
  void placeEdgeLabels(LabelPlacer& placer);
  /// Adds an item that the next overlay replaces.
  void addOverlayItem(QGraphicsItem* item);
  /// The scene box of the item drawing a node (see memberOutline).
  std::function<QRectF(int)> boxOfNode() const;

  std::shared_ptr<const GraphModel> model_;
  Layout layout_;
  std::vector<bool> collapsed_;
  Theme theme_ = Theme::Light;
  GraphFonts fonts_;
  QHash<QString, NodeItem*> units_;
  /// The item showing each node (see itemOf), filled once per rebuild.
  std::vector<NodeItem*> itemOfNode_;
  /// Hulls and their labels.
  std::vector<QGraphicsItem*> overlayItems_;
  int hullCount_ = 0;
  std::optional<PendingHulls> pending_;
  QTimer hullSlicer_;
  std::vector<GroupItem*> groupItems_;
  int selectedEdge_ = -1;  ///< the model edge of the edge selected, or -1
  std::vector<EdgeItem*> edges_;
  /// Node boxes and group labels, taken; overlay labels are placed around them.
  LabelPlacer groupLabels_;
  GraphOverlay overlay_;
  std::vector<int> matches_;
  std::vector<MatchHighlight> highlights_;
  std::vector<QGraphicsItem*> outlines_;  ///< match outlines and input rings
  int matchOutlineCount_ = 0;
  /// The ring of flashNode while it pulses (it deletes itself).
  QPointer<FlashRing> flash_;
  int selected_ = -1;
  bool updatingSelection_ = false;
};

}  // namespace byoc::ui
