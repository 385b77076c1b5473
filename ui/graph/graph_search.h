#pragma once
/// \file
/// Finding nodes of a GraphModel by name, op, attribute value or regular expression.
///
/// A node matches when the query occurs (case-insensitively) in its title (op, callee or
/// variable name), its detail line (attributes as `name=value`, stub types), or the source-model
/// name of one of its origins (the ONNX node name). With `regex`, the query is a regular
/// expression searched in the same texts.

#include <QString>
#include <vector>

#include "graph/graph_model.h"
#include "ir/module.h"
#include "support/result.h"

namespace byoc::ui {

/// What to look for.
struct SearchQuery {
  QString text;
  bool regex = false;
};

/// Matching node ids in id order; an empty query matches nothing. Fails on an invalid regex.
/// `provenance` (may be null) supplies source-model node names.
Result<std::vector<int>> searchNodes(const GraphModel& model, const SearchQuery& query,
                                     const Provenance* provenance = nullptr);

}  // namespace byoc::ui
