#pragma once
/// \file
/// Finds the matches of a pattern on a worker thread. Only the newest request reports: a result
/// that arrives after a newer `start` (or after `cancel`) is dropped.

#include <QObject>
#include <vector>

#include "ir/expr.h"
#include "pattern/find_matches.h"
#include "pattern/owned_pattern.h"
#include "support/job.h"

namespace byoc::ui {

/// Background `findMatches`, newest request wins.
class PatternMatchJob : public QObject {
  Q_OBJECT
 public:
  /// An idle job.
  explicit PatternMatchJob(QObject* parent = nullptr);
  ~PatternMatchJob() override;

  /// Matches `pattern` at every node under `function` on a worker.
  void start(OwnedPattern pattern, Function function);
  /// Drops the result of the running request, if any.
  void cancel();
  /// True while the newest request has not reported.
  bool isRunning() const;

 signals:
  /// The newest request's matches (delivered on the thread that owns the job).
  void finished(const std::vector<byoc::PatternMatch>& matches);

 private:
  JobTracker job_;
};

}  // namespace byoc::ui
