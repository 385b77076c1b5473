/// \file
/// Seed 001 golden tests: the example program through FoldConstant, EliminateCommonSubexpr and
/// FuseOps, alone and in a Sequential at several opt levels, prints what the seed prints.

#include <QtTest>
#include <sstream>

#include "pass/infer_type.h"
#include "pass/instruments/print_ir.h"
#include "pass/instruments/snapshot_recorder.h"
#include "pass/transforms/eliminate_common_subexpr.h"
#include "pass/transforms/fold_constant.h"
#include "pass/transforms/fuse_ops.h"
#include "pass_test_helpers.h"
#include "seed001_example.h"
#include "test_files.h"

using namespace byoc;
using namespace byoc::testing;

namespace {

/// The seed's text for `name`. TVM's conv2d padding defaults to two values, so TVM prints the normalised
/// four-value default, which our schema holds as the default and the printer therefore omits.
std::string golden(const char* name) {
  std::string text = readTestData(QStringLiteral("pass/%1.expected").arg(QLatin1String(name)));
  static const std::regex defaultPadding(", padding=\\[0, 0, 0, 0\\]");
  return std::regex_replace(text, defaultPadding, "");
}

PassPtr seedSequential() {
  return makeSequential({createFoldConstantPass(), createEliminateCommonSubexprPass(), createFuseOpsPass(2)});
}

}  // namespace

class TestSeed001 : public QObject {
  Q_OBJECT

 private slots:
  /// Each pass applied by hand, one after the other, as the seed does.
  void passesOneByOne() {
    Module module = seed001Example();
    PassResult folded = runVerified(createFoldConstantPass(), module);
    QVERIFY(folded.changed);
    QVERIFY(sameText(printTyped(folded.module), golden("seed001_fold_constant")));

    PassContext level3;
    level3.optLevel = 3;
    PassResult merged = runVerified(createEliminateCommonSubexprPass(), folded.module, level3);
    QVERIFY(merged.changed);
    QVERIFY(sameText(printTyped(merged.module), golden("seed001_eliminate_common_subexpr")));

    PassResult fused = runVerified(createFuseOpsPass(0), merged.module);
    QVERIFY(fused.changed);
    QVERIFY(sameText(withPlainParams(printTyped(fused.module)), withPlainParams(golden("seed001_fuse_ops_level0"))));
  }

  void sequential_data() {
    QTest::addColumn<int>("optLevel");
    QTest::addColumn<QString>("disabled");
    QTest::addColumn<QString>("expected");
    QTest::newRow("opt level 2 skips EliminateCommonSubexpr") << 2 << QString() << "seed001_sequential_opt2";
    QTest::newRow("opt level 3 runs it") << 3 << QString() << "seed001_sequential_opt3";
    QTest::newRow("opt level 3 with it disabled") << 3 << "EliminateCommonSubexpr" << "seed001_sequential_opt2";
  }

  /// `Sequential([FoldConstant, EliminateCommonSubexpr, FuseOps(fuse_opt_level=2)])` under a context.
  void sequential() {
    QFETCH(int, optLevel);
    QFETCH(QString, disabled);
    QFETCH(QString, expected);
    PassContext context;
    context.optLevel = optLevel;
    if (!disabled.isEmpty()) context.disabledPasses.insert(disabled.toStdString());
    PassResult result = runVerified(seedSequential(), seed001Example(), context);
    QVERIFY(result.changed);
    QVERIFY(sameText(printTyped(result.module), golden(expected.toUtf8().constData())));
  }

  /// The passes each invocation runs, in the seed's order: required passes first, InferType after
  /// each function pass.
  void invocationOrderMatchesTheSeed() {
    auto recorder = std::make_shared<SnapshotRecorder>();
    std::ostringstream printed;
    PassContext context;
    context.optLevel = 3;
    context.instruments = {recorder, makePrintIrInstrument(printed)};
    QVERIFY(runPipeline(*seedSequential(), seed001Example(), context).isOk());
    std::vector<std::string> passes;
    for (const PassSnapshot& snapshot : recorder->snapshotsAt(1)) passes.push_back(snapshot.pass);
    QCOMPARE(passes, (std::vector<std::string>{"FoldConstant", "InferType", "EliminateCommonSubexpr", "InferType",
                                               "FuseOps"}));
    QCOMPARE(recorder->snapshots().size(), std::size_t{9});  // plus three nested InferType and the Sequential
    QCOMPARE(recorder->snapshots().back().pass, std::string("Sequential"));
    std::string text = printed.str();
    QVERIFY(text.starts_with("Running pass: Sequential (opt_level: 0, required passes: [])\n"));
    QVERIFY(text.find("Running pass: EliminateCommonSubexpr (opt_level: 3, required passes: [InferType])\n") !=
            std::string::npos);
  }

  /// A second run of each pass on its own output changes nothing and says so.
  void secondRunsReportUnchanged() {
    PassContext level3;
    level3.optLevel = 3;
    PassResult once = runVerified(seedSequential(), seed001Example(), level3);
    for (const PassPtr& pass : {createFoldConstantPass(), createEliminateCommonSubexprPass(), createFuseOpsPass(2),
                                createFuseOpsPass(0), createInferTypePass()}) {
      PassResult again = runVerified(pass, once.module, level3);
      QVERIFY2(!again.changed, pass->info().name.c_str());
      QVERIFY(again.module.sameNodes(once.module));
    }
  }
};

QTEST_GUILESS_MAIN(TestSeed001)
#include "test_seed001.moc"
