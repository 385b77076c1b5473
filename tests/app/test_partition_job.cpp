/// \file
/// Partitioning as the app runs it (core/session, its steps made snapshots): one snapshot per pass
/// of the flow, and a cancel from another thread stopping a run on a 100,000-node model with a
/// `cancelled` error instead of completing it.

#include <QtTest>
#include <atomic>
#include <chrono>
#include <future>
#include <thread>

#include "session/partitioning.h"
#include "snapshot/snapshot.h"
#include "pass/infer_type.h"
#include "synthetic_chain.h"
#include "target/target_library.h"

using namespace byoc;
using namespace byoc::ui;

namespace {

std::vector<std::shared_ptr<const Target>> dnnlTarget() {
  Result<Target> dnnl = loadTarget("dnnl");
  if (!dnnl) qFatal("%s", dnnl.error().str().c_str());
  return {std::make_shared<const Target>(std::move(dnnl).value())};
}

Module typedChain(int blocks) {
  Result<Module> typed = inferTypes(bench::syntheticChain(blocks));
  if (!typed) qFatal("%s", typed.error().str().c_str());
  return *typed;
}

QStringList passNames(const std::vector<Snapshot>& snapshots) {
  QStringList names;
  for (const Snapshot& snapshot : snapshots) names << snapshot.passName;
  return names;
}

}  // namespace

class TestPartitionJob : public QObject {
  Q_OBJECT

 private slots:
  void keepsTheModuleAfterEveryPassAndReportsEach() {
    std::vector<std::string> reported;
    PassRunOptions control;
    control.progress = [&](const std::string& pass, int depth) {
      if (depth == 0) reported.push_back(pass);
    };
    Result<PassRun> run = partitionModel(typedChain(10), {dnnlTarget(), PartitionPipeline::Relay}, control);
    QVERIFY2(run, run ? "" : run.error().str().c_str());
    const std::vector<Snapshot> snapshots = snapshotsOf(std::move(run).value());
    const QStringList expected{QStringLiteral("FakeQuantizationToInteger"), QStringLiteral("CanonicalizeOps"),
                               QStringLiteral("SimplifyInference"),         QStringLiteral("FoldConstant"),
                               QStringLiteral("LegalizeQnnForDnnl"),        QStringLiteral("MergeComposite"),
                               QStringLiteral("AnnotateTarget"),            QStringLiteral("MergeCompilerRegions"),
                               QStringLiteral("PartitionGraph"),            QStringLiteral("PruneRegions")};
    QCOMPARE(passNames(snapshots), expected);
    QCOMPARE(static_cast<qsizetype>(reported.size()), expected.size());
    QVERIFY(snapshots[5].changed);  // MergeComposite
    QVERIFY(snapshots.back().module.functions().size() > 1);  // the region was outlined
  }

  void aCancelFromAnotherThreadStopsALargeRun_data() {
    QTest::addColumn<QString>("pipeline");
    QTest::addColumn<QString>("cancelDuring");  // the step running when the flag is set
    QTest::addColumn<QString>("waitAt");        // a later step that starts only once the flag is set
    QTest::addColumn<QString>("neverReached");  // a step the run must not start
    QTest::newRow("relay") << QStringLiteral("relay") << QStringLiteral("MergeComposite") << QStringLiteral("AnnotateTarget")
                           << QStringLiteral("MergeCompilerRegions");
    QTest::newRow("relax") << QStringLiteral("relax") << QStringLiteral("FuseOpsByPattern")
                           << QStringLiteral("MergeCompositeFunctions") << QStringLiteral("RunCodegen");
  }

  void aCancelFromAnotherThreadStopsALargeRun() {
    QFETCH(QString, pipeline);
    QFETCH(QString, cancelDuring);
    QFETCH(QString, waitAt);
    QFETCH(QString, neverReached);
    const Module model = typedChain(20000);  // 100,002 nodes: 60,000 calls and 40,000 constants
    auto cancel = std::make_shared<std::atomic<bool>>(false);
    std::promise<void> started;
    std::thread canceller([&, ready = started.get_future()] {
      ready.wait();
      cancel->store(true);
    });
    QStringList reported;  // on this thread: the run calls back on the thread it runs on
    PassRunOptions control;
    control.cancel = cancel;
    control.progress = [&](const std::string& pass, int depth) {
      if (depth != 0) return;
      const QString name = QString::fromStdString(pass);
      reported << name;
      if (name == cancelDuring) started.set_value();
      // Whatever the scheduling, the run cannot finish before the canceller has set the flag.
      while (name == waitAt && !cancel->load()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    };
    Result<PassRun> result = partitionModel(model, {dnnlTarget(), parsePartitionPipeline(pipeline.toStdString()).value()}, control);
    canceller.join();
    QVERIFY2(!result, "the run completed although it was cancelled");
    const QString message = QString::fromStdString(result.error().message);
    QVERIFY2(message.endsWith(QLatin1String(": cancelled")), qPrintable(message));
    QVERIFY2(message == cancelDuring + QLatin1String(": cancelled") || message == waitAt + QLatin1String(": cancelled"),
             qPrintable(message));
    QVERIFY(reported.contains(cancelDuring));
    QVERIFY2(!reported.contains(neverReached), qPrintable(reported.join(QLatin1Char(','))));
  }
};

QTEST_GUILESS_MAIN(TestPartitionJob)
#include "test_partition_job.moc"
