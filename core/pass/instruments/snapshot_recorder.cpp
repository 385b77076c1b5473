/// \file
/// The SnapshotRecorder instrument.

#include "pass/instruments/snapshot_recorder.h"

namespace byoc {

void SnapshotRecorder::enterContext() {
  running_ = 0;
  snapshots_.clear();
}

void SnapshotRecorder::beforePass(const Module& /*module*/, const PassInfo& /*info*/) { ++running_; }

Status SnapshotRecorder::afterPass(const PassResult& result, const PassInfo& info) {
  --running_;
  snapshots_.push_back({info.name, result.module, result.changed, running_});
  return Status::ok();
}

void SnapshotRecorder::afterPassFailed(const Module& /*module*/, const PassInfo& /*info*/,
                                       const Diagnostic& /*error*/) {
  --running_;
}

std::vector<PassSnapshot> SnapshotRecorder::snapshotsAt(int depth) const {
  std::vector<PassSnapshot> selected;
  for (const PassSnapshot& snapshot : snapshots_)
    if (snapshot.depth == depth) selected.push_back(snapshot);
  return selected;
}

}  // namespace byoc
