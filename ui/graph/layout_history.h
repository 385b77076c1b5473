#pragma once
/// \file
/// The layout a graph page draws, the collapsed state of its groups, and the pictures before each
/// in-place edit, so that undoing an edit gives back exactly the picture it started from.
///
/// A full layout (`reset`) starts a new history. Expanding a group puts the group's own layout
/// where its collapsed node was (expandInPlace); collapsing a group first goes back to the picture
/// before the edit that expanded it when nothing else changed since (`undoToggle`), and otherwise
/// folds the group into one node in place (collapseInPlace). Nothing here runs Graphviz.

#include <memory>
#include <vector>

#include "graph/graph_model.h"
#include "layout/plain_layout.h"

namespace byoc::ui {

/// One graph page's picture and its edits.
class LayoutHistory {
 public:
  /// No picture yet; groups collapsed as `collapsed` says (per group id).
  LayoutHistory(std::shared_ptr<const GraphModel> model, std::vector<bool> collapsed);

  /// The picture: units and edges as the collapsed state shows them.
  const Layout& layout() const { return layout_; }
  /// Collapsed state per group id.
  const std::vector<bool>& collapsed() const { return collapsed_; }
  /// True when an enclosing group of `group` is collapsed, so that toggling it draws nothing new.
  bool isHidden(int group) const;

  /// Sets the state of `group` without touching the picture (before a full layout, or for a hidden group).
  void setCollapsed(int group, bool collapsed);
  /// Sets every group's state without touching the picture (before a full layout).
  void setAllCollapsed(bool collapsed);
  /// Takes `layout` of the whole graph in the current state as the picture and forgets earlier ones.
  void reset(Layout layout);
  /// If the picture before the last edit is the one with `group` toggled, goes back to it: true if so.
  bool undoToggle(int group);
  /// Expands the collapsed `group`, drawn as one node, into `groupLayout` (of writeGroupDot's text);
  /// the groups `inside` (nested in it) were laid out expanded too.
  void expand(int group, const Layout& groupLayout, const std::vector<int>& inside = {});
  /// Collapses the expanded `group` into one node in place.
  void collapse(int group);

 private:
  /// The collapsed state with `group` toggled.
  std::vector<bool> toggled(int group) const;
  /// Keeps the current picture for `undoToggle` (the oldest goes when too many are kept).
  void remember();

  /// A picture before an edit, with the state it showed.
  struct Picture {
    Layout layout;
    std::vector<bool> collapsed;
  };

  std::shared_ptr<const GraphModel> model_;
  Layout layout_;
  std::vector<bool> collapsed_;
  std::vector<Picture> earlier_;
};

}  // namespace byoc::ui
