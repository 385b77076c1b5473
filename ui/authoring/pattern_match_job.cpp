/// \file
/// PatternMatchJob: QtConcurrent::run with a generation counter.

#include "authoring/pattern_match_job.h"

#include <QFutureWatcher>
#include <QtConcurrent/QtConcurrentRun>

namespace byoc::ui {

PatternMatchJob::PatternMatchJob(QObject* parent) : QObject(parent) {}

PatternMatchJob::~PatternMatchJob() = default;

void PatternMatchJob::start(OwnedPattern pattern, Function function) {
  const int generation = ++generation_;
  running_ = true;
  using Matches = std::vector<PatternMatch>;
  auto* watcher = new QFutureWatcher<Matches>(this);
  connect(watcher, &QFutureWatcher<Matches>::finished, this, [this, watcher, generation] {
    watcher->deleteLater();
    if (generation != generation_) return;
    running_ = false;
    emit finished(watcher->result());
  });
  watcher->setFuture(QtConcurrent::run([pattern = std::move(pattern), function = std::move(function)] {
    return findMatches(pattern.get(), Expr(function));
  }));
}

void PatternMatchJob::cancel() {
  ++generation_;
  running_ = false;
}

}  // namespace byoc::ui
