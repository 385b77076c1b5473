/// \file
/// searchNodes: a linear scan over node labels and origin names.

#include "graph/graph_search.h"

#include <QRegularExpression>
#include <QStringBuilder>

namespace byoc::ui {

Result<std::vector<int>> searchNodes(const GraphModel& model, const SearchQuery& query, const Provenance* provenance) {
  std::vector<int> matches;
  if (query.text.isEmpty()) return matches;
  QRegularExpression pattern;
  if (query.regex) {
    pattern = QRegularExpression(query.text, QRegularExpression::CaseInsensitiveOption);
    if (!pattern.isValid()) {
      const QString message = QStringLiteral("invalid regular expression: ") % pattern.errorString() %
                              QStringLiteral(" at offset ") % QString::number(pattern.patternErrorOffset());
      return makeError(message.toStdString());
    }
  }
  auto found = [&](const QString& text) {
    return query.regex ? pattern.match(text).hasMatch() : text.contains(query.text, Qt::CaseInsensitive);
  };
  for (const GraphNode& node : model.nodes()) {
    bool hit = found(node.title) || (!node.detail.isEmpty() && found(node.detail));
    if (!hit && provenance && node.kind != GraphNodeKind::Stub) {
      for (NodeId id : node.expr->origin().ids()) {
        auto name = provenance->names.find(id);
        if (name != provenance->names.end() && found(QString::fromStdString(name->second))) {
          hit = true;
          break;
        }
      }
    }
    if (hit) matches.push_back(node.id);
  }
  return matches;
}

}  // namespace byoc::ui
