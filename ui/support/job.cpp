/// \file
/// JobTracker: request numbers and queued delivery.

#include "support/job.h"

#include <QMetaObject>
#include <mutex>

namespace byoc::ui::detail {

/// Shared by a tracker and the work it started.
struct JobState {
  /// Guards `receiver`: workers post to it while the tracker may be forgetting it.
  std::mutex mutex;
  /// Null once the tracker is destroyed.
  QObject* receiver;
  /// The current request (read and written on the receiver's thread only).
  int current = 0;
  /// Whether the current request has not been delivered (receiver's thread only).
  bool running = false;

  explicit JobState(QObject* owner) : receiver(owner) {}

  /// Queues `call` to the receiver's thread, to run there if `request` is still current.
  void post(const std::shared_ptr<JobState>& self, int request, bool finishes, std::function<void()> call) {
    std::lock_guard lock(mutex);
    if (!receiver) return;
    // Posted events of a receiver destroyed after this are dropped with it.
    QMetaObject::invokeMethod(
        receiver,
        [self, request, finishes, call = std::move(call)] {
          if (request != self->current) return;
          if (finishes) self->running = false;
          call();
        },
        Qt::QueuedConnection);
  }
};

}  // namespace byoc::ui::detail

namespace byoc::ui {

QThreadPool* jobPool() {
  static QThreadPool pool;
  return &pool;
}

void JobControl::post(std::function<void()> update) const { state_->post(state_, request_, false, std::move(update)); }

void JobControl::finish(std::function<void()> deliver) const { state_->post(state_, request_, true, std::move(deliver)); }

JobTracker::JobTracker(QObject* receiver) : state_(std::make_shared<detail::JobState>(receiver)) {}

JobTracker::~JobTracker() {
  discard();
  std::lock_guard lock(state_->mutex);
  state_->receiver = nullptr;
}

JobControl JobTracker::begin() {
  discard();
  flag_ = std::make_shared<std::atomic<bool>>(false);
  state_->running = true;
  return JobControl(state_, ++state_->current, flag_);
}

void JobTracker::cancel() {
  if (flag_) flag_->store(true);
}

void JobTracker::discard() {
  cancel();
  if (state_->running) ++state_->current;
  state_->running = false;
}

bool JobTracker::isRunning() const { return state_->running; }

}  // namespace byoc::ui
