/// \file
/// GraphScene: items from a layout, group boxes computed innermost first, overlays as hulls,
/// pattern matches as outlines around their nodes.

#include "graph/graph_scene.h"

#include <QElapsedTimer>
#include <QGraphicsPathItem>
#include <QGraphicsSceneMouseEvent>
#include <QPainter>
#include <QStringBuilder>
#include <algorithm>
#include <utility>
#include <array>
#include <limits>
#include <unordered_map>

#include "graph/dot_writer.h"
#include "graph/member_outline.h"

namespace byoc::ui {

namespace {

constexpr qreal kGroupPad = 10;
constexpr qreal kOutlinePad = 5;
constexpr qreal kHullPad = 7;
/// How far right of its anchor box a hull label may slide to find room.
constexpr qreal kHullLabelSlide = 240;
/// How far right of its curve, or of the wider of its boxes, an edge's label may slide to find room.
constexpr qreal kEdgeLabelSlide = 60;
/// Hull labels longer than this are elided (the full name is in the tooltip).
constexpr qreal kHullLabelWidth = 320;
/// Above this many hulls, an overlay's outlines and labels are drawn in slices of the event loop
/// of at most kHullSliceNs each.
constexpr int kHullsDrawnAtOnce = 300;
constexpr qint64 kHullSliceNs = 8'000'000;
/// Match outlines lie above edges (z 1) and below node boxes (z 2).
constexpr qreal kOutlineZ = 1.5;

/// The number layoutUnits gives the unit named `name` (`n3` → 3, `g1` → -2).
int unitNumber(const QString& name) {
  const int id = QStringView(name).mid(1).toInt();
  return name.startsWith(u'g') ? -1 - id : id;
}

}  // namespace

GraphScene::GraphScene(QObject* parent) : QGraphicsScene(parent), fonts_(graphFonts()) {
  connect(this, &QGraphicsScene::selectionChanged, this, &GraphScene::onSelectionChanged);
  hullSlicer_.setInterval(0);
  connect(&hullSlicer_, &QTimer::timeout, this, [this] { drawPendingHulls(kHullSliceNs); });
}

GraphScene::~GraphScene() {
  // Deleting a selected item changes the selection; nobody outside should hear of it now.
  updatingSelection_ = true;
  disconnect(this, nullptr, nullptr, nullptr);
  clear();
}

void GraphScene::populate(std::shared_ptr<const GraphModel> model, const Layout& layout, std::vector<bool> collapsed) {
  model_ = std::move(model);
  layout_ = layout;
  collapsed_ = std::move(collapsed);
  collapsed_.resize(model_->groups().size(), false);
  overlay_ = {};
  matches_.clear();
  rebuild();
}

void GraphScene::setTheme(Theme theme) {
  theme_ = theme;
  if (model_) rebuild();
}

void GraphScene::rebuild() {
  const int selected = selected_;
  updatingSelection_ = true;
  clear();
  units_.clear();
  itemOfNode_.clear();
  overlayItems_.clear();
  pending_.reset();
  hullSlicer_.stop();
  outlines_.clear();
  matchOutlineCount_ = 0;
  groupItems_.clear();
  edges_.clear();
  const GraphPalette* palette = &graphPalette(theme_);
  const GraphModel& model = *model_;
  // Only the units drawn get items: a large graph shows a few hundred of its nodes.
  const std::vector<int> unitOfNode = layoutUnits(model, collapsed_);
  std::vector<NodeItem*> nodeItems(model.nodes().size(), nullptr);
  for (const GraphNode& node : model.nodes()) {
    if (unitOfNode[node.id] != node.id) continue;
    const QString name = unitName(node.id);
    const auto box = layout_.units.constFind(name);
    if (box == layout_.units.cend()) continue;
    auto* item = new NodeItem(node.id, node.kind, node.title, node.detail, *box, palette, &fonts_);
    addItem(item);
    units_.insert(name, item);
    nodeItems[node.id] = item;
  }
  // Group boxes, innermost first so that a parent's box encloses its children's boxes.
  const auto& groups = model.groups();
  std::vector<int> depth(groups.size(), 0);
  std::vector<std::vector<int>> children(groups.size());
  for (const GraphGroup& group : groups) {
    for (int parent = group.parent; parent >= 0; parent = groups[parent].parent) ++depth[group.id];
    if (group.parent >= 0) children[group.parent].push_back(group.id);
  }
  std::vector<int> order(groups.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int>(i);
  std::sort(order.begin(), order.end(), [&depth](int a, int b) { return depth[a] > depth[b]; });
  std::vector<QRectF> groupRects(groups.size());
  std::vector<NodeItem*> collapsedItems(groups.size(), nullptr);
  for (int id : order) {
    const GraphGroup& group = groups[id];
    const QString name = unitName(-1 - id);
    if (const auto unit = layout_.units.constFind(name); unit != layout_.units.cend()) {
      const GraphNode box = collapsedGroupNode(group);
      auto* item = new NodeItem(-1 - id, box.kind, box.title, box.detail, *unit, palette, &fonts_);
      item->setToolTip(box.title + u'\n' + box.detail + tr(" · double-click to expand"));
      addItem(item);
      units_.insert(name, item);
      collapsedItems[id] = item;
      groupRects[id] = item->boundingRect();
      continue;
    }
    QRectF box;
    for (int node : group.nodes) {
      if (NodeItem* item = nodeItems[node]) box = box.united(item->boundingRect());
    }
    for (int child : children[id]) box = box.united(groupRects[child]);
    if (box.isNull()) continue;
    box = box.adjusted(-kGroupPad, -kGroupPad, kGroupPad, kGroupPad);
    groupRects[id] = box;
    auto* item = new GroupItem(id, group.label, groupStyle(group), box, palette);
    // Nested boxes above their parents' fill, so that their outline shows (all below hulls at 0.5).
    item->setZValue(depth[id] * 0.01);
    addItem(item);
    groupItems_.push_back(item);
  }
  itemOfNode_.assign(model.nodes().size(), nullptr);
  for (const GraphNode& node : model.nodes()) {
    const int unit = unitOfNode[node.id];
    itemOfNode_[node.id] = unit >= 0 ? nodeItems[unit] : collapsedItems[-1 - unit];
  }
  // Edges stand for the first model edge between the same two units, and carry its shape (stubs show their own).
  QHash<QPair<int, int>, int> firstEdge;
  for (std::size_t i = 0; i < model.edges().size(); ++i) {
    const GraphEdge& edge = model.edges()[i];
    const QPair<int, int> units(unitOfNode[edge.from], unitOfNode[edge.to]);
    if (units.first == units.second || model.nodes()[edge.from].kind == GraphNodeKind::Stub) continue;
    if (!firstEdge.contains(units)) firstEdge.insert(units, static_cast<int>(i));
  }
  for (const LayoutEdge& edge : layout_.edges) {
    const int modelEdge = firstEdge.value({unitNumber(edge.from), unitNumber(edge.to)}, -1);
    const QString label = modelEdge >= 0 ? model.edges()[modelEdge].label : QString();
    auto* item = new EdgeItem(edge.spline, label, modelEdge, palette, &fonts_);
    addItem(item);
    edges_.push_back(item);
  }
  placeGroupLabels();
  setSceneRect(itemsBoundingRect().adjusted(-40, -40, 40, 40));
  updatingSelection_ = false;
  GraphOverlay overlay = std::move(overlay_);
  setOverlay(overlay);
  setMatches(std::vector<int>(matches_));
  setMatchHighlights(std::move(highlights_));
  selected_ = -1;
  selectedEdge_ = -1;
  if (selected >= 0) selectNode(selected);
}

NodeItem* GraphScene::itemOf(int node) const {
  return node >= 0 && node < static_cast<int>(itemOfNode_.size()) ? itemOfNode_[node] : nullptr;
}

void GraphScene::selectNode(int node) {
  if (node == selected_) return;
  updatingSelection_ = true;
  clearSelection();
  NodeItem* item = itemOf(node);
  if (item) item->setSelected(true);
  updatingSelection_ = false;
  selected_ = item ? node : -1;
  emit nodeSelected(selected_);
}

void GraphScene::onSelectionChanged() {
  if (updatingSelection_) return;
  const QList<QGraphicsItem*> items = selectedItems();
  int node = -1;
  if (!items.isEmpty() && items.first()->type() == NodeItem::Type) {
    int unit = static_cast<NodeItem*>(items.first())->unit();
    node = unit >= 0 ? unit : -1;
  }
  if (items.size() == 1 && items.first()->type() == EdgeItem::Type) {
    selected_ = -1;
    selectedEdge_ = static_cast<EdgeItem*>(items.first())->modelEdge();
    emit edgeSelected(selectedEdge_);
    return;
  }
  const bool edgeWasSelected = std::exchange(selectedEdge_, -1) >= 0;
  if (node == selected_ && !edgeWasSelected) return;
  selected_ = node;
  emit nodeSelected(node);
}

void GraphScene::setMatches(const std::vector<int>& nodes) {
  for (int node : matches_) {
    if (NodeItem* item = itemOf(node)) item->setMatched(false);
  }
  matches_ = nodes;
  for (int node : matches_) {
    if (NodeItem* item = itemOf(node)) item->setMatched(true);
  }
  emit decorationsChanged();
}

void GraphScene::flashNode(int node) {
  delete flash_;  // one ring at a time: the newest is where the eye should go
  NodeItem* item = itemOf(node);
  if (!item) return;
  flash_ = new FlashRing(item->sceneBoundingRect(), graphPalette(theme_).searchMatch);
  addItem(flash_);
}

void GraphScene::setMatchHighlights(std::vector<MatchHighlight> matches) {
  for (QGraphicsItem* outline : outlines_) delete outline;
  outlines_.clear();
  matchOutlineCount_ = 0;
  highlights_ = std::move(matches);
  if (!model_) return;
  const QColor colour = matchOutlineColour(theme_);
  QColor fill = colour;
  fill.setAlphaF(0.18);
  for (const MatchHighlight& match : highlights_) {
    const QPainterPath path = memberOutline(*model_, match.nodes, boxOfNode(), kOutlinePad);
    if (path.isEmpty()) continue;
    auto* outline = new QGraphicsPathItem(path);
    outline->setPen(QPen(colour, 2.4));
    outline->setBrush(fill);
    outline->setZValue(kOutlineZ);
    addItem(outline);
    outlines_.push_back(outline);
    ++matchOutlineCount_;
    // An input a wildcard matched is not part of the match: a dashed ring, no fill.
    for (int input : match.inputs) {
      NodeItem* item = itemOf(input);
      if (!item) continue;
      QPainterPath ring;
      ring.addRoundedRect(item->sceneBoundingRect().adjusted(-kOutlinePad, -kOutlinePad, kOutlinePad, kOutlinePad), 6, 6);
      auto* dashed = new QGraphicsPathItem(ring);
      dashed->setPen(QPen(colour, 1.6, Qt::DashLine));
      dashed->setZValue(kOutlineZ);
      addItem(dashed);
      outlines_.push_back(dashed);
    }
  }
  emit decorationsChanged();
}

std::function<QRectF(int)> GraphScene::boxOfNode() const {
  return [this](int node) {
    const NodeItem* item = itemOf(node);
    return item ? item->mapRectToScene(item->boundingRect()) : QRectF();
  };
}

void GraphScene::setOverlay(const GraphOverlay& overlay) {
  for (QGraphicsItem* item : overlayItems_) delete item;
  overlayItems_.clear();
  pending_.reset();
  hullSlicer_.stop();
  overlay_ = overlay;
  // Each target's colour is its category colour by order of first appearance. Every item is set
  // once, to its new state, so that only the items that change are repainted.
  QHash<QString, QColor> colours;
  const std::vector<QString> targets = overlay_.targets();
  for (std::size_t i = 0; i < targets.size(); ++i) colours.insert(targets[i], categoryColour(static_cast<int>(i), theme_));
  struct Tint {
    bool unsupported = false;  // an item shows a group of nodes: any of them on the host
    QColor colour;             // the last of them offloaded
  };
  std::unordered_map<const NodeItem*, Tint> tints;
  if (model_) {
    for (const auto& [node, target] : overlay_.nodeTargets) {
      const NodeItem* item = itemOf(node);
      if (!item) continue;
      if (target == kDefaultTarget) tints[item].unsupported = true;
      else tints[item].colour = colours.value(target);
    }
  }
  for (NodeItem* item : std::as_const(units_)) {
    auto found = tints.find(item);
    const Tint tint = found == tints.end() ? Tint() : found->second;
    item->setUnsupported(tint.unsupported);
    item->setTargetColour(tint.colour);
  }
  if (!model_) return;
  std::vector<DrawnHull> drawn;
  int regionIndex = 0;
  for (const OverlayHull& hull : overlay_.hulls) {
    std::vector<QRectF> boxes = memberBoxes(hull.nodes, boxOfNode());
    if (boxes.empty()) continue;
    // Regions and partitions get a colour each (neighbours must be told apart); node tints show the target.
    const QColor colour =
        hull.kind == OverlayHull::Kind::Composite ? compositeHullColour(theme_) : categoryColour(regionIndex++, theme_);
    auto note = overlay_.hullNotes.find(hull.label);
    drawn.push_back({&hull, colour, std::move(boxes), note == overlay_.hullNotes.end() ? QString() : note->second});
  }
  hullCount_ = static_cast<int>(drawn.size());
  pending_ = PendingHulls{std::move(drawn), 0, {}, 0, groupLabels_};
  // Regions and partitions label their top, before composites label their bottom.
  for (std::size_t i = 0; i < pending_->hulls.size(); ++i) pending_->labelOrder.push_back(i);
  std::stable_partition(pending_->labelOrder.begin(), pending_->labelOrder.end(), [this](std::size_t i) {
    return pending_->hulls[i].hull->kind != OverlayHull::Kind::Composite;
  });
  if (hullCount_ > kHullsDrawnAtOnce) {
    hullSlicer_.start();
  } else {
    finishOverlay();
  }
  emit decorationsChanged();
}

void GraphScene::finishOverlay() { drawPendingHulls(std::numeric_limits<qint64>::max()); }

void GraphScene::drawPendingHulls(qint64 budgetNs) {
  if (!pending_) return;
  QElapsedTimer clock;
  clock.start();
  PendingHulls& pending = *pending_;
  for (; pending.nextOutline < pending.hulls.size(); ++pending.nextOutline) {
    if (clock.nsecsElapsed() > budgetNs) return;
    const DrawnHull& hull = pending.hulls[pending.nextOutline];
    addOverlayItem(new HullItem(memberOutline(*model_, hull.hull->nodes, boxOfNode(), kHullPad), hull.hull->label, hull.colour,
                                hull.hull->kind == OverlayHull::Kind::Composite));
  }
  for (; pending.nextLabel < pending.labelOrder.size(); ++pending.nextLabel) {
    if (clock.nsecsElapsed() > budgetNs) return;
    placeHullLabel(pending.hulls[pending.labelOrder[pending.nextLabel]], pending.placer);
  }
  placeEdgeLabels(pending.placer);
  pending_.reset();
  hullSlicer_.stop();
}

void GraphScene::placeGroupLabels() {
  groupLabels_ = LabelPlacer();
  for (NodeItem* item : std::as_const(units_)) groupLabels_.take(item->mapRectToScene(item->boundingRect()));
  // Outer groups first (groupItems_ is innermost first): a nested label slides past its parent's.
  const QFontMetricsF metrics(fonts_.detail);
  for (auto it = groupItems_.rbegin(); it != groupItems_.rend(); ++it) {
    GroupItem* group = *it;
    const QRectF box = group->rect();
    const QString text = metrics.elidedText(group->label(), Qt::ElideMiddle, std::max(box.width() - 20, 40.0));
    const QSizeF size = labelSize(text, fonts_.detail);
    const QRectF spot(QPointF(box.left() + 6, box.top() - size.height() + 1), size);
    // A label may start anywhere over its box's top edge (past a node of the rank above, say).
    const QRectF placed = groupLabels_.takeSlidingRight(spot, box.right() + size.width());
    if (placed.isNull()) continue;  // the box's tooltip names it
    QColor backdrop = graphPalette(theme_).background;
    backdrop.setAlphaF(0.8);
    addItem(new LabelItem({text, placed}, backdrop, graphPalette(theme_).groupText, &fonts_.detail, group->label()));
  }
}

void GraphScene::placeHullLabel(const DrawnHull& hull, LabelPlacer& placer) {
  const QFontMetricsF metrics(fonts_.detail);
  // One measure of the text in the usual case, where it fits (thousands of hulls: this adds up).
  const qreal width = metrics.horizontalAdvance(hull.hull->label);
  const QString text =
      width <= kHullLabelWidth ? hull.hull->label : metrics.elidedText(hull.hull->label, Qt::ElideMiddle, kHullLabelWidth);
  const QSizeF size = width <= kHullLabelWidth ? labelSize(width, metrics) : labelSize(text, fonts_.detail);
  const auto [top, bottom] = std::minmax_element(hull.boxes.begin(), hull.boxes.end(),
                                                 [](const QRectF& a, const QRectF& b) { return a.top() < b.top(); });
  const QRectF above(QPointF(top->left() - kHullPad, top->top() - kHullPad - size.height() - 1), size);
  const QRectF below(QPointF(bottom->left() - kHullPad, bottom->bottom() + kHullPad + 1), size);
  const QRectF beside(QPointF(bottom->right() + kHullPad + 2, bottom->center().y() - size.height() / 2), size);
  // Regions and partitions prefer their top, composites their bottom; then the other end, then the
  // side. The spot that slides least from where it wanted to be wins (the first on a tie).
  const bool composite = hull.hull->kind == OverlayHull::Kind::Composite;
  QRectF spot, spotWanted;
  for (const QRectF& candidate : composite ? std::array{below, above, beside} : std::array{above, below, beside}) {
    const qreal anchorRight = (candidate == above ? *top : *bottom).right();
    const QRectF found = placer.findSlidingRight(candidate, anchorRight + kHullLabelSlide);
    if (!found.isNull() && (spot.isNull() || found.left() - candidate.left() < spot.left() - spotWanted.left())) {
      spot = found;
      spotWanted = candidate;
    }
  }
  placer.take(spot);
  if (spot.isNull()) return;  // the hull's tooltip still names it
  addOverlayItem(new LabelItem({text, spot}, hull.colour, Qt::white, &fonts_.detail, hull.hull->label));
  if (hull.note.isEmpty()) return;
  // The run's note follows the label on its line.
  const QRectF note = placer.takeSlidingRight(QRectF(spot.topRight() + QPointF(2, 0), labelSize(hull.note, fonts_.detail)),
                                              spot.right() + kHullLabelSlide);
  if (!note.isNull())
    addOverlayItem(new LabelItem({hull.note, note}, {}, hull.colour.darker(theme_ == Theme::Dark ? 60 : 130), &fonts_.detail,
                                 hull.note));
}

void GraphScene::placeEdgeLabels(LabelPlacer& placer) {
  for (std::size_t i = 0; i < edges_.size(); ++i) {  // one per edge of the layout, in its order
    EdgeItem* edge = edges_[i];
    const std::vector<QRectF> spots = edge->labelSpots();
    QRectF placed;
    for (const QRectF& spot : spots) {
      if (!placer.isFree(spot)) continue;
      placed = spot;
      break;
    }
    // A short edge has no room between its boxes: its label goes beside them, on its level, past
    // the wider of its two boxes at most.
    if (placed.isNull() && !spots.empty()) {
      qreal reach = spots.front().right() + kEdgeLabelSlide;
      for (const QString& end : {layout_.edges[i].from, layout_.edges[i].to}) {
        if (const NodeItem* box = units_.value(end))
          reach = std::max(reach, box->sceneBoundingRect().right() + kEdgeLabelSlide + spots.front().width());
      }
      placed = placer.findSlidingRight(spots.front(), reach);
    }
    placer.take(placed);
    edge->setLabelRect(placed);
  }
}

void GraphScene::addOverlayItem(QGraphicsItem* item) {
  addItem(item);
  overlayItems_.push_back(item);
}

void GraphScene::mouseDoubleClickEvent(QGraphicsSceneMouseEvent* event) {
  for (QGraphicsItem* item : items(event->scenePos())) {
    if (item->type() == NodeItem::Type) {
      const int unit = static_cast<NodeItem*>(item)->unit();
      if (unit < 0) {
        emit groupToggled(-1 - unit);
      } else {
        emit nodeActivated(unit);
      }
      return;
    }
    if (item->type() == GroupItem::Type) {
      emit groupToggled(static_cast<GroupItem*>(item)->group());
      return;
    }
  }
  QGraphicsScene::mouseDoubleClickEvent(event);
}

void GraphScene::drawBackground(QPainter* painter, const QRectF& rect) {
  const GraphPalette& palette = graphPalette(theme_);
  painter->fillRect(rect, palette.background);
  const qreal step = 24;
  if (painter->worldTransform().m11() < 0.5) return;
  painter->setPen(QPen(palette.grid, 1));
  for (qreal x = std::floor(rect.left() / step) * step; x < rect.right(); x += step)
    painter->drawLine(QPointF(x, rect.top()), QPointF(x, rect.bottom()));
  for (qreal y = std::floor(rect.top() / step) * step; y < rect.bottom(); y += step)
    painter->drawLine(QPointF(rect.left(), y), QPointF(rect.right(), y));
}

}  // namespace byoc::ui
