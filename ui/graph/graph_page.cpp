/// \file
/// GraphPage: layout job, notice, search bar and export around a GraphView.

#include "graph/graph_page.h"

#include <QAction>
#include <QCheckBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QKeyEvent>
#include <QStringBuilder>
#include <QToolButton>
#include <QVBoxLayout>
#include <algorithm>
#include <utility>

#include "graph/dot_writer.h"
#include "graph/graph_legend.h"
#include "graph/graph_scene.h"
#include "graph/graph_search.h"
#include "graph/graph_view.h"
#include "graph/minimap.h"
#include "layout/layout_runner.h"

namespace byoc::ui {

namespace {

constexpr int kMargin = 12;
/// Most of the view's area the legend's full list may cover; above it, it shows one line.
constexpr double kLegendShare = 0.04;

}  // namespace

DotOptions measuredOptions(const GraphModel& model, std::vector<bool> collapsed, const std::vector<bool>& measured) {
  GraphFonts fonts = graphFonts();
  DotOptions options;
  options.collapsed = std::move(collapsed);
  options.nodeSizes.resize(model.nodes().size());
  options.groupSizes.assign(model.groups().size(), options.collapsedSize);
  std::vector<bool> groupMeasured(model.groups().size(), false);
  const std::vector<int> units = layoutUnits(model, options.collapsed);
  for (const GraphNode& node : model.nodes()) {
    if (!measured.empty() && !measured[node.id]) continue;
    const int unit = units[node.id];
    if (unit == node.id) {
      options.nodeSizes[node.id] = measureNode(node, fonts);
    } else if (unit < 0 && !groupMeasured[-1 - unit]) {
      groupMeasured[-1 - unit] = true;
      options.groupSizes[-1 - unit] = measureNode(collapsedGroupNode(model.groups()[-1 - unit]), fonts);
    }
  }
  return options;
}

std::vector<bool> initialCollapsed(const GraphModel& model) {
  const auto& groups = model.groups();
  std::vector<bool> collapsed(groups.size(), model.nodes().size() > kCollapseAbove);
  const auto first = std::find_if(model.nodes().begin(), model.nodes().end(),
                                  [](const GraphNode& node) { return node.kind != GraphNodeKind::Stub; });
  if (first == model.nodes().end()) return collapsed;
  std::vector<int> chain;  // innermost first
  for (int group = first->group; group >= 0; group = groups[group].parent) chain.push_back(group);
  for (auto it = chain.rbegin(); it != chain.rend() && groups[*it].synthesized; ++it) collapsed[*it] = false;
  return collapsed;
}

GraphPage::GraphPage(std::shared_ptr<const GraphModel> model, std::shared_ptr<const Provenance> provenance,
                     QWidget* parent)
    : QWidget(parent),
      model_(std::move(model)),
      provenance_(std::move(provenance)),
      history_(model_, initialCollapsed(*model_)) {
  scene_ = new GraphScene(this);
  view_ = new GraphView(scene_, this);
  minimap_ = new Minimap(view_, view_);
  legend_ = new GraphLegend(view_);
  runner_ = new LayoutRunner(LayoutRunner::defaultHelperPath(), this);
  notice_ = new QLabel(view_);
  notice_->setAlignment(Qt::AlignCenter);
  notice_->setWordWrap(true);
  notice_->setAutoFillBackground(true);
  notice_->setMargin(12);
  notice_->hide();
  // The view's context menu: a clean picture of the whole graph after in-place edits.
  auto* relayout = new QAction(tr("Re-layout"), view_);
  relayout->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_L));
  relayout->setShortcutContext(Qt::WidgetWithChildrenShortcut);
  connect(relayout, &QAction::triggered, this, &GraphPage::startLayout);
  auto* collapseAll = new QAction(tr("Collapse All Groups"), view_);
  connect(collapseAll, &QAction::triggered, this, [this] { setAllCollapsed(true); });
  auto* expandAll = new QAction(tr("Expand All Groups"), view_);
  connect(expandAll, &QAction::triggered, this, [this] { setAllCollapsed(false); });
  auto* showLegend = new QAction(tr("Show Legend"), view_);
  showLegend->setCheckable(true);
  showLegend->setChecked(true);
  connect(showLegend, &QAction::toggled, legend_, &GraphLegend::setWanted);
  view_->addActions({relayout, collapseAll, expandAll, showLegend});
  view_->setContextMenuPolicy(Qt::ActionsContextMenu);

  searchBar_ = new QWidget(this);
  auto* searchLayout = new QHBoxLayout(searchBar_);
  searchLayout->setContentsMargins(6, 4, 6, 4);
  searchEdit_ = new QLineEdit(searchBar_);
  searchEdit_->setPlaceholderText(tr("Find node by name, op, attribute value…"));
  searchEdit_->setClearButtonEnabled(true);
  regexBox_ = new QCheckBox(tr("Regex"), searchBar_);
  auto* previous = new QToolButton(searchBar_);
  previous->setArrowType(Qt::UpArrow);
  previous->setToolTip(tr("Previous match (Shift+F3)"));
  auto* next = new QToolButton(searchBar_);
  next->setArrowType(Qt::DownArrow);
  next->setToolTip(tr("Next match (F3)"));
  searchStatus_ = new QLabel(searchBar_);
  auto* close = new QToolButton(searchBar_);
  close->setText(QStringLiteral("\u2715"));
  close->setAutoRaise(true);
  searchLayout->addWidget(searchEdit_, 1);
  searchLayout->addWidget(regexBox_);
  searchLayout->addWidget(previous);
  searchLayout->addWidget(next);
  searchLayout->addWidget(searchStatus_);
  searchLayout->addWidget(close);
  searchBar_->hide();

  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(0);
  layout->addWidget(searchBar_);
  layout->addWidget(view_, 1);

  connect(searchEdit_, &QLineEdit::textChanged, this, &GraphPage::runSearch);
  connect(regexBox_, &QCheckBox::toggled, this, &GraphPage::runSearch);
  connect(searchEdit_, &QLineEdit::returnPressed, this, [this] { findNext(); });
  connect(next, &QToolButton::clicked, this, [this] { findNext(); });
  connect(previous, &QToolButton::clicked, this, [this] { findNext(true); });
  connect(close, &QToolButton::clicked, this, [this] {
    searchBar_->hide();
    scene_->setMatches({});
    view_->setFocus();
  });
  // Esc in the search field closes the search, ahead of the window's Esc (which cancels a run):
  // as a second shortcut it would make the key ambiguous, and neither would act.
  closeSearch_ = close;
  searchEdit_->installEventFilter(this);
  // F3 and Shift+F3 are the window's Edit → Find Next and Find Previous, which act on the current page.

  connect(runner_, &LayoutRunner::finished, this, &GraphPage::onLayout);
  connect(runner_, &LayoutRunner::failed, this, [this](const QString& message) {
    pendingGroup_ = -1;
    showNotice(tr("The graph could not be laid out:\n%1").arg(message));
    emit layoutFailed(message);
  });
  connect(scene_, &GraphScene::nodeSelected, this, &GraphPage::nodeSelected);
  connect(scene_, &GraphScene::edgeSelected, this, &GraphPage::edgeSelected);
  connect(scene_, &GraphScene::nodeActivated, this, &GraphPage::nodeActivated);
  connect(scene_, &GraphScene::groupToggled, this, &GraphPage::toggleGroup);
  connect(scene_, &GraphScene::decorationsChanged, this, &GraphPage::updateLegend);
}

GraphPage::~GraphPage() { runner_->cancel(); }

void GraphPage::startLayout() {
  pendingGroup_ = -1;
  pendingReveal_.clear();
  emit layoutStarted();
  showNotice(tr("Laying out %n node(s)…", nullptr, static_cast<int>(model_->nodes().size())));
  emit status(tr("Laying out %1…").arg(model_->name()));
  // Measuring and writing DOT run on the worker: thousands of nodes must not block the UI thread.
  runner_->start([model = model_, collapsed = history_.collapsed()] {
    return writeDot(*model, measuredOptions(*model, collapsed));
  });
}

void GraphPage::startGroupLayout(int group, std::vector<int> inside) {
  pendingGroup_ = group;
  pendingReveal_.clear();
  emit layoutStarted();
  emit status(tr("Laying out %1…").arg(model_->groups()[group].label));
  std::vector<bool> collapsed = history_.collapsed();
  collapsed[group] = false;
  for (int nested : inside) collapsed[nested] = false;
  pendingInside_ = std::move(inside);
  runner_->start([model = model_, group, collapsed = std::move(collapsed)] {
    return writeGroupDot(*model, group, measuredOptions(*model, collapsed, nodesInside(*model, group)));
  });
}

void GraphPage::cancelLayout() {
  runner_->cancel();
  pendingReveal_.clear();
  if (std::exchange(pendingGroup_, -1) >= 0) {
    emit status(tr("Layout cancelled."));
  } else {
    showNotice(tr("Layout cancelled."));
  }
}

void GraphPage::toggleGroup(int group) {
  if (group < 0 || group >= static_cast<int>(model_->groups().size())) return;
  if (pendingGroup_ >= 0) {
    // A second double-click on a group being laid out calls it off; one on another group replaces it.
    const int pending = std::exchange(pendingGroup_, -1);
    pendingReveal_.clear();
    runner_->cancel();
    if (pending == group) return;
  }
  const bool collapsed = history_.collapsed()[group];
  if (!laidOut_ || runner_->isRunning()) {
    history_.setCollapsed(group, !collapsed);
    startLayout();
  } else if (history_.isHidden(group)) {
    history_.setCollapsed(group, !collapsed);
  } else if (history_.undoToggle(group)) {
    draw();
  } else if (collapsed) {
    startGroupLayout(group);
  } else {
    history_.collapse(group);
    draw();
    // The group's node sits where its content began, maybe above the view.
    const std::vector<bool> inside = nodesInside(*model_, group);
    const auto member = std::find(inside.begin(), inside.end(), true);
    if (member != inside.end()) {
      if (NodeItem* item = scene_->itemOf(static_cast<int>(member - inside.begin()))) view_->ensureVisible(item);
    }
  }
}

void GraphPage::setAllCollapsed(bool collapsed) {
  history_.setAllCollapsed(collapsed);
  startLayout();
}

void GraphPage::onLayout(const Layout& layout) {
  emit layoutComputed(layout);
  const std::vector<int> reveal = std::exchange(pendingReveal_, {});
  if (pendingGroup_ >= 0) {
    history_.expand(std::exchange(pendingGroup_, -1), layout, std::exchange(pendingInside_, {}));
  } else {
    history_.reset(layout);
  }
  draw();
  if (!reveal.empty()) showSelection(reveal);
}

void GraphPage::draw() {
  const bool first = !laidOut_;
  const QPointF centre = view_->mapToScene(view_->viewport()->rect().center());
  GraphOverlay overlay = scene_->overlay();
  scene_->populate(model_, history_.layout(), history_.collapsed());
  scene_->setOverlay(overlay);
  scene_->setMatches(matches_);
  laidOut_ = true;
  notice_->hide();
  placeOverlays();
  minimap_->refit();
  // Edits move the scene's bounds; the view stays on what it showed.
  if (first) {
    view_->showStart();
  } else {
    view_->centerOn(centre);
  }
  emit status(tr("%1: %2 nodes, %3 edges").arg(model_->name()).arg(model_->nodes().size()).arg(model_->edges().size()));
  emit layoutReady();
}

void GraphPage::setOverlay(const GraphOverlay& overlay) { scene_->setOverlay(overlay); }

void GraphPage::setMatchHighlights(std::vector<MatchHighlight> matches) {
  scene_->setMatchHighlights(std::move(matches));
}

bool GraphPage::eventFilter(QObject* watched, QEvent* event) {
  if (watched == searchEdit_ && (event->type() == QEvent::ShortcutOverride || event->type() == QEvent::KeyPress) &&
      static_cast<QKeyEvent*>(event)->key() == Qt::Key_Escape) {
    event->accept();
    if (event->type() == QEvent::KeyPress) closeSearch_->click();
    return event->type() == QEvent::KeyPress;
  }
  return QWidget::eventFilter(watched, event);
}

void GraphPage::updateLegend() {
  const std::vector<MatchHighlight>& matches = scene_->matchHighlights();
  const bool inputs = std::any_of(matches.begin(), matches.end(), [](const MatchHighlight& match) { return !match.inputs.empty(); });
  const std::vector<GraphGroup> none;
  const auto& groups = model_ ? model_->groups() : none;
  const bool loops = std::any_of(groups.begin(), groups.end(), [](const GraphGroup& group) { return group.loop; });
  const bool branches = std::any_of(groups.begin(), groups.end(), [](const GraphGroup& group) { return group.branchOf >= 0; });
  legend_->setEntries(
      legendEntries(scene_->overlay(), {!matches.empty(), inputs, !scene_->searchMatches().empty(), loops, branches}, scene_->theme()),
      scene_->theme());
  placeOverlays();
}

void GraphPage::setTheme(Theme theme) {
  scene_->setTheme(theme);
  notice_->setPalette(palette());
}

void GraphPage::showSearch() {
  searchBar_->show();
  searchEdit_->setFocus();
  searchEdit_->selectAll();
}

int GraphPage::search(const QString& text, bool regex) {
  {
    const QSignalBlocker blockEdit(searchEdit_);
    const QSignalBlocker blockRegex(regexBox_);
    searchEdit_->setText(text);
    regexBox_->setChecked(regex);
  }
  return runSearch();
}

int GraphPage::runSearch() {
  const QString text = searchEdit_->text();
  Result<std::vector<int>> found = searchNodes(*model_, {text, regexBox_->isChecked()}, provenance_.get());
  matches_ = found ? *found : std::vector<int>{};
  currentMatch_ = -1;
  scene_->setMatches(matches_);
  searchStatus_->setText(!found ? QString::fromStdString(found.error().message)
                         : text.isEmpty() ? QString()
                                          : tr("%n match(es)", nullptr, static_cast<int>(matches_.size())));
  if (!matches_.empty()) findNext();
  return static_cast<int>(matches_.size());
}

void GraphPage::findNext(bool backwards) {
  if (matches_.empty()) return;
  const int count = static_cast<int>(matches_.size());
  currentMatch_ = currentMatch_ < 0 ? (backwards ? count - 1 : 0) : (currentMatch_ + (backwards ? count - 1 : 1)) % count;
  scene_->selectNode(matches_[currentMatch_]);
  if (!revealNode(matches_[currentMatch_])) showNode(matches_[currentMatch_]);
  searchStatus_->setText(tr("%1 of %2").arg(currentMatch_ + 1).arg(count));
}

bool GraphPage::revealNode(int node) {
  if (node < 0 || node >= static_cast<int>(model_->nodes().size()) || !laidOut_ || (runner_->isRunning() && pendingGroup_ < 0))
    return false;
  // The collapsed groups holding the node, innermost first; the last one is the box drawn for it.
  std::vector<int> hiding;
  for (int group = model_->nodes()[node].group; group >= 0; group = model_->groups()[group].parent) {
    if (history_.collapsed()[group]) hiding.push_back(group);
  }
  if (hiding.empty()) return false;
  const int outermost = hiding.back();
  hiding.pop_back();
  startGroupLayout(outermost, std::move(hiding));
  pendingReveal_ = {node};
  return true;
}

void GraphPage::selectNodes(const std::vector<int>& nodes) {
  if (nodes.empty()) return;
  if (revealNode(nodes.front())) {
    pendingReveal_ = nodes;
    return;
  }
  showSelection(nodes);
}

void GraphPage::showNode(int node) {
  view_->focusNode(node);
  scene_->flashNode(node);
}

void GraphPage::showSelection(const std::vector<int>& nodes) {
  if (nodes.size() == 1) {
    scene_->selectNode(nodes.front());
    showNode(nodes.front());
    return;
  }
  scene_->selectNode(-1);
  QRectF area, first;
  for (int node : nodes) {
    if (NodeItem* item = scene_->itemOf(node)) {
      item->setSelected(true);
      area = area.united(item->sceneBoundingRect());
      if (first.isNull()) first = item->sceneBoundingRect();
    }
  }
  // Nodes spread over a large graph (a composite used throughout) are not fitted at an unreadable
  // zoom: the first is shown, all stay selected.
  if (!area.isNull()) view_->showAreaLegibly(area, first);
}

GraphRecording GraphPage::record() const {
  scene_->finishOverlay();
  return recordGraph(*scene_, model_->name());
}

void GraphPage::resizeEvent(QResizeEvent* event) {
  QWidget::resizeEvent(event);
  placeOverlays();
}

void GraphPage::placeOverlays() {
  QRect area = view_->viewport()->geometry();
  const QSizeF scene = scene_->sceneRect().size();
  minimap_->setVisible(laidOut_ && (scene.width() > 1.3 * area.width() || scene.height() > 1.3 * area.height()));
  const QSize minimap = minimapSize(scene, area.size());
  minimap_->setGeometry(area.right() - minimap.width() - kMargin, area.bottom() - minimap.height() - kMargin, minimap.width(),
                        minimap.height());
  const QSize legend = legend_->fullSize();
  legend_->setCompact(legend.width() * legend.height() > kLegendShare * area.width() * area.height());
  legend_->move(area.left() + kMargin, area.bottom() - legend_->height() - kMargin);
  QSize noticeSize(std::min(area.width() - 2 * kMargin, 420), 80);
  notice_->setGeometry(QRect(area.center() - QPoint(noticeSize.width() / 2, noticeSize.height() / 2), noticeSize));
}

void GraphPage::showNotice(const QString& text) {
  notice_->setText(text);
  placeOverlays();
  notice_->show();
  notice_->raise();
}

}  // namespace byoc::ui
