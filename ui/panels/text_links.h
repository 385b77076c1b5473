#pragma once
/// \file
/// What the IR text panel shows, and where each node is written in it: the link between the
/// text and the graphs.
///
/// A text is printed from a module or one function (each node's range recorded by the printer),
/// or is a model's own Relay source (each node at the line:column its provenance gives). A graph
/// node is found in the text by its expression when the text was printed from the graph's module,
/// and through origins when the text is of a later pass step: then it is shown at the printed node
/// that derives from the fewest loaded nodes, one of them the graph node's. The reverse maps a
/// text position to the innermost node written there that the graph draws.

#include <QString>
#include <memory>
#include <optional>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "ir/module.h"
#include "text/printer.h"

namespace byoc::ui {

class GraphModel;

/// An IR text and the place of the nodes written in it. Immutable once built; cheap to share.
class TextLinks {
 public:
  /// `module` printed without its metadata section (constant values nobody reads in a text view).
  static std::shared_ptr<const TextLinks> printed(const Module& module);
  /// One function (or any expression) printed the same way.
  static std::shared_ptr<const TextLinks> printed(const Expr& function);
  /// `source`, the Relay text `module` was parsed from, cut before its metadata section; each node
  /// of `module` that its provenance locates is an empty range at that line:column.
  static std::shared_ptr<const TextLinks> source(std::string_view source, const Module& module);

  /// The text shown.
  const QString& text() const { return text_; }
  /// Where `expr` is written: its own range, else the range found through its origins (see the
  /// file comment); nothing if neither.
  std::optional<TextRange> rangeOf(const Expr& expr) const;
  /// The node of `graph` that line:column (1-based) shows, or -1. Candidates in order: nodes
  /// written on that line whose range contains the position (innermost first), the other nodes
  /// written on that line (the last one starting at or before the column, then the first one
  /// after), then the multi-line ranges containing the position (innermost first); the first
  /// candidate the graph draws, by expression or else by origin, wins.
  int graphNodeAt(const GraphModel& graph, int line, int column) const;

 private:
  TextLinks(QString text, std::vector<PrintedNode> nodes, std::shared_ptr<const void> keepAlive);
  /// The candidates of `graphNodeAt`, as indices into `nodes_`.
  std::vector<std::size_t> candidatesAt(int line, int column) const;

  QString text_;
  std::vector<PrintedNode> nodes_;
  /// What owns the nodes `nodes_` points to (the module or expression printed).
  std::shared_ptr<const void> keepAlive_;
  std::unordered_map<const ExprNode*, std::size_t> indexOf_;
  /// For each loaded node's id, the written node deriving from it with the fewest origins.
  std::unordered_map<NodeId, std::size_t> byOrigin_;
};

}  // namespace byoc::ui
