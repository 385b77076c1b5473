/// \file
/// colourSupport and its worker.

#include "authoring/op_support_colouring.h"

#include <memory>

#include "authoring/target_document.h"
#include "graph/graph_model.h"
#include "overlay/graph_overlay.h"

namespace byoc::ui {

OpCallNodes opCallNodes(const GraphModel& graph) {
  OpCallNodes calls;
  for (const GraphNode& node : graph.nodes()) {
    if (node.kind == GraphNodeKind::Op) calls.emplace_back(node.id, node.expr);
  }
  return calls;
}

SupportColours colourSupport(const Target& target, const OpCallNodes& calls) {
  SupportColours colours;
  const QString name = QString::fromStdString(target.name);
  for (const auto& [node, call] : calls) {
    Result<bool> supported = target.supports(call);
    if (!supported && colours.error.isEmpty()) colours.error = QString::fromStdString(supported.error().str());
    const bool yes = supported && *supported;
    colours.nodeTargets[node] = yes ? name : kDefaultTarget;
    colours.supported += yes ? 1 : 0;
  }
  return colours;
}

SupportColourer::SupportColourer(TargetDocument* document, QObject* parent)
    : QObject(parent), document_(document), job_(this) {
  connect(document_, &TargetDocument::changed, this, &SupportColourer::recompute);
}

void SupportColourer::setGraph(const GraphModel* graph) {
  calls_ = graph ? opCallNodes(*graph) : OpCallNodes{};
  colours_ = {};  // node ids of another graph
  recompute();
}

void SupportColourer::recompute() {
  auto target = std::make_shared<const Target>(document_->target());
  job_.start([target, calls = calls_] { return colourSupport(*target, calls); },
             [this](SupportColours colours) {
               colours_ = std::move(colours);
               emit coloured();
             });
}

}  // namespace byoc::ui
