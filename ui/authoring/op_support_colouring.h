#pragma once
/// \file
/// Which op calls of the loaded graph the edited target supports, drawn as the target colours that
/// AnnotateTarget's step shows (`nodeTargets`: the target's name, or `default` when unsupported).
///
/// `colourSupport` is a pure function, safe on a worker. `SupportColourer` recomputes it on a
/// worker whenever the target changes or another graph is shown; a result that a newer request
/// overtook is dropped, so `coloured` always reports the latest target on the latest graph.

#include <QObject>
#include <QString>
#include <map>
#include <utility>
#include <vector>

#include "ir/expr.h"
#include "support/job.h"
#include "target/target.h"

namespace byoc::ui {

class GraphModel;
class TargetDocument;

/// The op calls of a graph: (node id, call expression).
using OpCallNodes = std::vector<std::pair<int, Expr>>;

/// The support of a target over a graph's op calls.
struct SupportColours {
  /// Node id → target name, or `default` for calls the target does not support.
  std::map<int, QString> nodeTargets;
  /// How many calls are supported.
  int supported = 0;
  /// The first error evaluating a rule's condition (its call counts as unsupported), else empty.
  QString error;
};

/// The nodes of `graph` that call a primitive op.
OpCallNodes opCallNodes(const GraphModel& graph);
/// Whether `target` supports each of `calls` (Target::supports).
SupportColours colourSupport(const Target& target, const OpCallNodes& calls);

/// Keeps `SupportColours` of the edited target on the shown graph up to date, off the UI thread.
class SupportColourer : public QObject {
  Q_OBJECT
 public:
  /// Follows `document`'s target; nothing is coloured until `setGraph`.
  explicit SupportColourer(TargetDocument* document, QObject* parent = nullptr);

  /// Colours the op calls of `graph` (null: nothing) from now on; recomputes.
  void setGraph(const GraphModel* graph);
  /// The latest result (empty until the first `coloured`).
  const SupportColours& colours() const { return colours_; }

 signals:
  /// `colours()` holds the support of the current target on the current graph.
  void coloured();

 private:
  void recompute();

  TargetDocument* document_;
  OpCallNodes calls_;
  SupportColours colours_;
  JobTracker job_;
};

}  // namespace byoc::ui
