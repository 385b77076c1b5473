/// \file
/// LayoutHistory: the model-aware side of the in-place edits (which units and edges a group has).

#include "graph/layout_history.h"

#include "graph/graph_items.h"

#include <QStringBuilder>
#include <set>

#include "graph/dot_writer.h"
#include "layout/layout_edits.h"

namespace byoc::ui {

namespace {

QString groupUnit(int group) { return u'g' % QString::number(group); }

/// Pictures kept for going back; each is a copy of the whole layout.
constexpr std::size_t kKeptPictures = 32;

}  // namespace

LayoutHistory::LayoutHistory(std::shared_ptr<const GraphModel> model, std::vector<bool> collapsed)
    : model_(std::move(model)), collapsed_(std::move(collapsed)) {
  collapsed_.resize(model_->groups().size(), false);
}

std::vector<bool> LayoutHistory::toggled(int group) const {
  std::vector<bool> state = collapsed_;
  state[group] = !state[group];
  return state;
}

bool LayoutHistory::isHidden(int group) const {
  for (int parent = model_->groups()[group].parent; parent >= 0; parent = model_->groups()[parent].parent) {
    if (collapsed_[parent]) return true;
  }
  return false;
}

void LayoutHistory::setCollapsed(int group, bool collapsed) { collapsed_[group] = collapsed; }

void LayoutHistory::setAllCollapsed(bool collapsed) { collapsed_.assign(collapsed_.size(), collapsed); }

void LayoutHistory::reset(Layout layout) {
  layout_ = std::move(layout);
  earlier_.clear();
}

bool LayoutHistory::undoToggle(int group) {
  if (earlier_.empty() || earlier_.back().collapsed != toggled(group)) return false;
  layout_ = std::move(earlier_.back().layout);
  collapsed_ = std::move(earlier_.back().collapsed);
  earlier_.pop_back();
  return true;
}

void LayoutHistory::expand(int group, const Layout& groupLayout, const std::vector<int>& inside) {
  std::vector<bool> expanded = collapsed_;
  expanded[group] = false;
  for (int nested : inside) expanded[nested] = false;
  Layout edited = expandInPlace(layout_, groupUnit(group), groupLayout, borderEdges(*model_, group, expanded));
  remember();
  layout_ = std::move(edited);
  collapsed_ = std::move(expanded);
}

void LayoutHistory::collapse(int group) {
  const std::vector<bool> inside = nodesInside(*model_, group);
  const std::vector<int> units = layoutUnits(*model_, collapsed_);
  std::set<int> memberUnits;
  for (const GraphNode& node : model_->nodes()) {
    if (inside[node.id]) memberUnits.insert(units[node.id]);
  }
  QSet<QString> members;
  for (int unit : memberUnits) members.insert(unitName(unit));
  Layout edited = collapseInPlace(layout_, members, groupUnit(group), measureNode(collapsedGroupNode(model_->groups()[group]), graphFonts()),
                                  borderEdges(*model_, group, collapsed_));
  std::vector<bool> shrunk = collapsed_;
  shrunk[group] = true;
  remember();
  layout_ = std::move(edited);
  collapsed_ = std::move(shrunk);
}

void LayoutHistory::remember() {
  if (earlier_.size() == kKeptPictures) earlier_.erase(earlier_.begin());
  earlier_.push_back({layout_, collapsed_});
}

}  // namespace byoc::ui
