#include <QThread>
#include <QThreadPool>
#include <QtTest>

#include <atomic>
#include <vector>

#include "support/job.h"

using namespace byoc::ui;

namespace {

/// Runs every pool task to its end, then every call it queued to this thread.
void settle() {
  jobPool()->waitForDone();
  QCoreApplication::processEvents();
}

/// Waits (at most 10 s, so that a missing cancel fails instead of hanging) until `control` is cancelled.
bool awaitCancel(const JobControl& control) {
  QDeadlineTimer deadline(10000);
  while (!control.isCancelled() && !deadline.hasExpired()) QThread::msleep(1);
  return control.isCancelled();
}

/// An object owning a tracker, as the app's panels do.
struct Receiver : QObject {
  JobTracker job{this};
};

}  // namespace

/// JobTracker: work on the pool, results on the receiver's thread, newest request wins.
class TestJob : public QObject {
  Q_OBJECT

 private slots:
  void theResultArrivesOnTheReceiversThread() {
    Receiver receiver;
    QThread* worker = nullptr;
    QThread* delivery = nullptr;
    receiver.job.start([] { return QThread::currentThread(); },
                       [&](QThread* ranOn) {
                         worker = ranOn;
                         delivery = QThread::currentThread();
                       });
    QVERIFY(receiver.job.isRunning());
    QTRY_VERIFY(delivery != nullptr);
    QCOMPARE(delivery, QThread::currentThread());
    QVERIFY(worker != QThread::currentThread());
    QVERIFY(!receiver.job.isRunning());
  }

  void workLeavesTheGlobalPoolFreeForQtsPainting() {
    Receiver receiver;
    std::atomic<bool> started = false;
    receiver.job.start(
        [&](const JobControl& control) {
          started = true;
          return awaitCancel(control);
        },
        [](bool) {});
    QTRY_VERIFY(started.load());
    QCOMPARE(QThreadPool::globalInstance()->activeThreadCount(), 0);
    receiver.job.cancel();
    settle();
  }

  void aSupersededResultIsDropped() {
    Receiver receiver;
    std::vector<int> delivered;
    std::atomic<bool> firstSawCancel = false;
    receiver.job.start(
        [&](const JobControl& control) {
          firstSawCancel = awaitCancel(control);
          return 1;
        },
        [&](int result) { delivered.push_back(result); });
    receiver.job.start([] { return 2; }, [&](int result) { delivered.push_back(result); });
    settle();
    QVERIFY(firstSawCancel);  // the newer request stopped the older one
    QCOMPARE(delivered, std::vector<int>{2});
  }

  void cancelIsSeenByTheWorkAndItsResultStillArrives() {
    Receiver receiver;
    std::vector<bool> delivered;
    receiver.job.start([](const JobControl& control) { return awaitCancel(control); },
                       [&](bool sawCancel) { delivered.push_back(sawCancel); });
    receiver.job.cancel();
    settle();
    QCOMPARE(delivered, std::vector<bool>{true});
    QVERIFY(!receiver.job.isRunning());
  }

  void discardStopsTheWorkAndDropsItsResult() {
    Receiver receiver;
    int delivered = 0;
    std::atomic<bool> sawCancel = false;
    receiver.job.start(
        [&](const JobControl& control) {
          sawCancel = awaitCancel(control);
          return 0;
        },
        [&](int) { ++delivered; });
    receiver.job.discard();
    QVERIFY(!receiver.job.isRunning());
    settle();
    QVERIFY(sawCancel);
    QCOMPARE(delivered, 0);
  }

  void postedCallsRunInOrderWhileTheRequestIsCurrent() {
    Receiver receiver;
    std::vector<int> steps;
    bool onReceiverThread = true;
    receiver.job.start(
        [&](const JobControl& control) {
          for (int step = 1; step <= 3; ++step) {
            control.post([&, step] {
              steps.push_back(step);
              onReceiverThread = onReceiverThread && QThread::currentThread() == receiver.thread();
            });
          }
          return 0;
        },
        [&](int) { steps.push_back(0); });
    settle();
    QCOMPARE(steps, (std::vector<int>{1, 2, 3, 0}));
    QVERIFY(onReceiverThread);

    // Posted after the request was discarded: dropped.
    steps.clear();
    receiver.job.start(
        [&](const JobControl& control) {
          awaitCancel(control);
          control.post([&] { steps.push_back(1); });
          return 0;
        },
        [&](int) { steps.push_back(0); });
    receiver.job.discard();
    settle();
    QVERIFY(steps.empty());
  }

  void nothingReachesADestroyedReceiver() {
    int delivered = 0;
    std::atomic<bool> sawCancel = false;
    auto* receiver = new Receiver;
    receiver->job.start(
        [&](const JobControl& control) {
          sawCancel = awaitCancel(control);
          control.post([&] { ++delivered; });
          return 0;
        },
        [&](int) { ++delivered; });
    delete receiver;
    settle();
    QVERIFY(sawCancel);
    QCOMPARE(delivered, 0);
  }
};

QTEST_GUILESS_MAIN(TestJob)
#include "test_job.moc"
