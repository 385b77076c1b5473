#pragma once
/// \file
/// A pass step as the timeline shows it: the module after the pass, and what the pass did.
///
/// Snapshots are values that share nodes with each other (modules share every node a pass did
/// not change), so keeping one per pass is cheap.

#include <QString>

#include <vector>

#include "ir/module.h"
#include "pass/pass_runner.h"

namespace byoc::ui {

/// The state of the module after one pass.
struct Snapshot {
  /// The pass that produced it (`MergeComposite`, …); the first snapshot is the loaded module.
  QString passName;
  Module module;
  /// Whether the pass changed the module.
  bool changed = false;
  /// Time the pass took, in milliseconds.
  double milliseconds = 0;
};

/// The snapshots of a pass run (a partitioning, core/session): one per step, with its time.
std::vector<Snapshot> snapshotsOf(PassRun run);

}  // namespace byoc::ui
