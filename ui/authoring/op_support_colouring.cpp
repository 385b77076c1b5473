/// \file
/// colourSupport and its worker.

#include "authoring/op_support_colouring.h"

#include <QFutureWatcher>
#include <QtConcurrent/QtConcurrentRun>
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

SupportColourer::SupportColourer(TargetDocument* document, QObject* parent) : QObject(parent), document_(document) {
  connect(document_, &TargetDocument::changed, this, &SupportColourer::recompute);
}

void SupportColourer::setGraph(const GraphModel* graph) {
  calls_ = graph ? opCallNodes(*graph) : OpCallNodes{};
  colours_ = {};  // node ids of another graph
  recompute();
}

void SupportColourer::recompute() {
  const int generation = ++generation_;
  auto* watcher = new QFutureWatcher<SupportColours>(this);
  connect(watcher, &QFutureWatcher<SupportColours>::finished, this, [this, watcher, generation] {
    watcher->deleteLater();
    if (generation != generation_) return;  // a newer target or graph is being coloured
    colours_ = watcher->result();
    emit coloured();
  });
  auto target = std::make_shared<const Target>(document_->target());
  watcher->setFuture(QtConcurrent::run([target, calls = calls_] { return colourSupport(*target, calls); }));
}

}  // namespace byoc::ui
