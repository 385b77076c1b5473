#pragma once
/// \file
/// SnapshotRecorder: keeps the module after every pass invocation.
///
/// A snapshot is taken each time a pass finishes successfully, in the order they finish, with
/// the invocation's nesting depth: 0 for the pass given to `runPipeline` (often a `Sequential`),
/// 1 for the passes it runs, 2 for the `InferType` a function pass runs after itself, and so on.
/// The GUI timeline shows one depth (usually 1). Modules share unchanged nodes, so keeping them
/// all costs only what each pass changed.

#include <memory>
#include <string>
#include <vector>

#include "ir/module.h"
#include "pass/pass.h"

namespace byoc {

/// The state of the module after one pass.
struct PassSnapshot {
  std::string pass;
  Module module;
  bool changed = false;
  /// Nesting depth of the invocation (see the file comment).
  int depth = 0;
};

/// The recording instrument. `enterContext` clears what was recorded before.
class SnapshotRecorder final : public PassInstrument {
 public:
  std::string name() const override { return "SnapshotRecorder"; }
  void enterContext() override;
  void beforePass(const Module& module, const PassInfo& info) override;
  Status afterPass(const PassResult& result, const PassInfo& info) override;
  void afterPassFailed(const Module& module, const PassInfo& info, const Diagnostic& error) override;

  /// The snapshots, in the order the passes finished.
  const std::vector<PassSnapshot>& snapshots() const { return snapshots_; }
  /// The snapshots at nesting depth `depth`, in order.
  std::vector<PassSnapshot> snapshotsAt(int depth) const;

 private:
  int running_ = 0;  ///< invocations started and not finished
  std::vector<PassSnapshot> snapshots_;
};

}  // namespace byoc
