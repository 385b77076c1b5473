/// \file
/// TextLinks.

#include "panels/text_links.h"

#include <QStringBuilder>
#include <algorithm>
#include <tuple>
#include <utility>

#include "graph/graph_model.h"
#include "ir/traversal.h"

namespace byoc::ui {

namespace {

PrintOptions withoutMetadata() {
  PrintOptions options;
  options.showMetadata = false;
  return options;
}

/// `source` as the panel shows it: cut before its metadata section, if any, so that line:column
/// locations still point into it.
QString sourceText(std::string_view source) {
  const std::size_t metadata = source.find("\n#[metadata]");
  if (metadata == std::string_view::npos) return QString::fromUtf8(source.data(), static_cast<qsizetype>(source.size()));
  const double megabytes = static_cast<double>(source.size() - metadata) / (1 << 20);
  return QString::fromUtf8(source.data(), static_cast<qsizetype>(metadata + 1)) %
         QStringLiteral("#[metadata] (%1 MB of constant values, not shown)\n").arg(megabytes, 0, 'f', 1);
}

/// Whether `range` contains line:column (its end is exclusive).
bool contains(const TextRange& range, int line, int column) {
  const auto at = std::make_pair(line, column);
  return std::make_pair(range.line, range.column) <= at && at < std::make_pair(range.endLine, range.endColumn);
}

/// Sorts ranges that contain one position innermost first: the latest start, then the earliest end.
std::tuple<int, int, int, int> innermostFirst(const TextRange& range) {
  return {-range.line, -range.column, range.endLine, range.endColumn};
}

}  // namespace

TextLinks::TextLinks(QString text, std::vector<PrintedNode> nodes, std::shared_ptr<const void> keepAlive)
    : text_(std::move(text)), nodes_(std::move(nodes)), keepAlive_(std::move(keepAlive)) {
  indexOf_.reserve(nodes_.size());
  for (std::size_t i = 0; i < nodes_.size(); ++i) {
    indexOf_.emplace(nodes_[i].node, i);
    for (NodeId id : nodes_[i].node->origin().ids()) {
      auto [it, inserted] = byOrigin_.emplace(id, i);
      if (!inserted && nodes_[i].node->origin().ids().size() < nodes_[it->second].node->origin().ids().size()) it->second = i;
    }
  }
}

std::shared_ptr<const TextLinks> TextLinks::printed(const Module& module) {
  PrintedText printed = printModuleWithRanges(module, withoutMetadata());
  return std::shared_ptr<const TextLinks>(new TextLinks(QString::fromStdString(printed.text), std::move(printed.nodes),
                                                        std::make_shared<const Module>(module)));
}

std::shared_ptr<const TextLinks> TextLinks::printed(const Expr& function) {
  PrintedText printed = printExprWithRanges(function, withoutMetadata());
  return std::shared_ptr<const TextLinks>(new TextLinks(QString::fromStdString(printed.text), std::move(printed.nodes),
                                                        std::make_shared<const Expr>(function)));
}

std::shared_ptr<const TextLinks> TextLinks::source(std::string_view source, const Module& module) {
  std::vector<PrintedNode> nodes;
  postOrderVisit(module, [&](const Expr& node) {
    if (std::optional<SourceLocation> location = module.locate(node); location && location->line > 0) {
      const TextRange at{location->line, location->column, location->line, location->column};
      nodes.push_back({node.get(), at});
    }
  });
  return std::shared_ptr<const TextLinks>(new TextLinks(sourceText(source), std::move(nodes), std::make_shared<const Module>(module)));
}

std::optional<TextRange> TextLinks::rangeOf(const Expr& expr) const {
  if (auto it = indexOf_.find(expr.get()); it != indexOf_.end()) return nodes_[it->second].range;
  std::optional<std::size_t> best;
  for (NodeId id : expr->origin().ids()) {
    auto it = byOrigin_.find(id);
    if (it == byOrigin_.end()) continue;
    if (!best || nodes_[it->second].node->origin().ids().size() < nodes_[*best].node->origin().ids().size()) best = it->second;
  }
  if (!best) return std::nullopt;
  return nodes_[*best].range;
}

std::vector<std::size_t> TextLinks::candidatesAt(int line, int column) const {
  std::vector<std::size_t> onLine, multiLine;
  for (std::size_t i = 0; i < nodes_.size(); ++i) {
    const TextRange& range = nodes_[i].range;
    if (range.line == line) {
      onLine.push_back(i);
    } else if (contains(range, line, column)) {
      multiLine.push_back(i);
    }
  }
  // On the line: the ranges containing the position, innermost first; then the others, the last
  // one starting at or before the column first, then the nearest ones after it.
  auto onLineOrder = [&](std::size_t i) -> std::tuple<int, int, int, int> {
    const TextRange& range = nodes_[i].range;
    if (contains(range, line, column)) return {0, -range.column, range.endLine, range.endColumn};
    if (range.column <= column) return {1, column - range.column, 0, 0};
    return {2, range.column - column, 0, 0};
  };
  std::stable_sort(onLine.begin(), onLine.end(), [&](std::size_t a, std::size_t b) { return onLineOrder(a) < onLineOrder(b); });
  std::stable_sort(multiLine.begin(), multiLine.end(), [&](std::size_t a, std::size_t b) {
    return innermostFirst(nodes_[a].range) < innermostFirst(nodes_[b].range);
  });
  onLine.insert(onLine.end(), multiLine.begin(), multiLine.end());
  return onLine;
}

int TextLinks::graphNodeAt(const GraphModel& graph, int line, int column) const {
  for (std::size_t i : candidatesAt(line, column)) {
    const ExprNode* node = nodes_[i].node;
    if (int drawn = graph.nodeOf(node); drawn >= 0) return drawn;
    for (NodeId id : node->origin().ids()) {
      if (std::vector<int> drawn = graph.nodesWithOrigin(id); !drawn.empty()) return drawn.front();
    }
  }
  return -1;
}

}  // namespace byoc::ui
