/// \file
/// PatternMatchJob: findMatches on a JobTracker.

#include "authoring/pattern_match_job.h"

namespace byoc::ui {

PatternMatchJob::PatternMatchJob(QObject* parent) : QObject(parent), job_(this) {}

PatternMatchJob::~PatternMatchJob() = default;

void PatternMatchJob::start(OwnedPattern pattern, Function function) {
  job_.start([pattern = std::move(pattern), function = std::move(function)] { return findMatches(pattern.get(), Expr(function)); },
             [this](const std::vector<PatternMatch>& matches) { emit finished(matches); });
}

void PatternMatchJob::cancel() { job_.discard(); }

bool PatternMatchJob::isRunning() const { return job_.isRunning(); }

}  // namespace byoc::ui
