#pragma once
/// \file
/// Work on the thread pool for an object of the GUI thread, its result handed back on that thread
/// (after hotspot's job tracker).
///
/// A `JobTracker` belongs to one receiver (its owner) and runs one kind of work: each `start` is a
/// new request that supersedes the one in flight, whose result is then dropped. Each request has
/// its own cancel flag, handed to the work through `JobControl`: the work polls it (directly or by
/// passing the flag on) and returns early. `cancel()` only sets the flag (the work's result, e.g.
/// an error saying it was cancelled, is still delivered); `discard()` also drops the result.
/// Starting a new request or destroying the tracker discards the old one.
///
/// Results and `JobControl::post` calls reach the receiver through queued calls, so nothing reaches
/// a receiver that was destroyed, and nothing is delivered for a request no longer current.

#include <QObject>
#include <QThreadPool>
#include <QtConcurrent/QtConcurrentRun>
#include <atomic>
#include <functional>
#include <memory>
#include <type_traits>
#include <utility>

namespace byoc::ui {

/// The pool every job runs on. Not QThreadPool::globalInstance(): Qt's raster painter splits large
/// fills into tasks on the global pool and waits for them on the GUI thread, so long work queued
/// there (a layout waiting on its helper process, a load) would hold up every repaint.
QThreadPool* jobPool();

/// A flag set on the GUI thread to ask running work to stop; the work polls it.
using CancelFlag = std::shared_ptr<const std::atomic<bool>>;

namespace detail {
struct JobState;
}  // namespace detail

/// What the work of one request sees of it; cheap to copy, safe on any thread.
class JobControl {
 public:
  /// Whether the request was cancelled, discarded or superseded: the work should stop soon.
  bool isCancelled() const { return flag_->load(); }
  /// The request's cancel flag, for code that polls a flag of its own (e.g. PassRunOptions::cancel).
  CancelFlag cancelFlag() const { return flag_; }
  /// Calls `update` on the receiver's thread, unless the request has been superseded or
  /// discarded by then (e.g. to show progress).
  void post(std::function<void()> update) const;

 private:
  friend class JobTracker;
  JobControl(std::shared_ptr<detail::JobState> state, int request, std::shared_ptr<std::atomic<bool>> flag)
      : state_(std::move(state)), request_(request), flag_(std::move(flag)) {}
  /// Like `post`, but the request ends (`isRunning()` turns false) just before `deliver`.
  void finish(std::function<void()> deliver) const;

  std::shared_ptr<detail::JobState> state_;
  int request_;
  std::shared_ptr<std::atomic<bool>> flag_;
};

/// Runs one kind of work for `receiver`, newest request wins.
class JobTracker {
 public:
  /// Delivers to `receiver`'s thread; the tracker must not outlive the receiver (make it a member).
  explicit JobTracker(QObject* receiver);
  /// Discards the request in flight.
  ~JobTracker();
  JobTracker(const JobTracker&) = delete;
  JobTracker& operator=(const JobTracker&) = delete;

  /// Runs `work()` or `work(const JobControl&)` on the thread pool, then `deliver(result)` on the
  /// receiver's thread if this is still the current request. Supersedes the request in flight.
  template <typename Work, typename Deliver>
  void start(Work work, Deliver deliver) {
    JobControl control = begin();
    (void)QtConcurrent::run(jobPool(), [work = std::move(work), deliver = std::move(deliver), control]() mutable {
      auto result = std::make_shared<std::decay_t<decltype(invoke(work, control))>>(invoke(work, control));
      control.finish([result, deliver = std::move(deliver)]() mutable { deliver(std::move(*result)); });
    });
  }
  /// Sets the cancel flag of the request in flight; its result is still delivered.
  void cancel();
  /// Sets the cancel flag of the request in flight and drops its result.
  void discard();
  /// True from `start` until its result is delivered or discarded.
  bool isRunning() const;

 private:
  template <typename Work>
  static decltype(auto) invoke(Work& work, const JobControl& control) {
    if constexpr (std::is_invocable_v<Work&, const JobControl&>) {
      return work(control);
    } else {
      return work();
    }
  }
  /// Discards the request in flight and makes a new one current.
  JobControl begin();

  std::shared_ptr<detail::JobState> state_;
  std::shared_ptr<std::atomic<bool>> flag_;
};

}  // namespace byoc::ui
