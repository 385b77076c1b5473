#include <QtTest>

#include "graph/graph_model.h"
#include "overlay/snapshot_overlay.h"
#include "snapshot_fixture.h"
#include "test_files.h"

using namespace byoc;
using namespace byoc::ui;

/// Overlays of hand-written pass steps on the loaded graph, mapped through origins.
class TestSnapshotOverlay : public QObject {
  Q_OBJECT

 private slots:
  void stepsOfTheRelayPipeline_data() {
    QTest::addColumn<QString>("step");
    QTest::addColumn<QString>("expected");
    QTest::newRow("loaded: nothing") << "0_loaded" << "";
    QTest::newRow("MergeComposite: one composite group")
        << "1_merge_composite"
        << "composite byoc-target.conv2d_relu_with_bias: nn.conv2d#2, nn.bias_add#4, nn.relu#5\n";
    QTest::newRow("AnnotateTarget: colours, tanh unsupported, no regions yet")
        << "2_annotate_target"
        << "composite byoc-target.conv2d_relu_with_bias: nn.conv2d#2, nn.bias_add#4, nn.relu#5\n"
           "target byoc-target: nn.conv2d#2, nn.bias_add#4, nn.relu#5, add#7, reshape#9\n"
           "target default: tanh#8\n";
    QTest::newRow("MergeCompilerRegions: two regions split by tanh")
        << "3_merge_compiler_regions"
        << "composite byoc-target.conv2d_relu_with_bias: nn.conv2d#2, nn.bias_add#4, nn.relu#5\n"
           "region byoc-target #0: nn.conv2d#2, nn.bias_add#4, nn.relu#5, add#7\n"
           "region byoc-target #1: reshape#9\n"
           "target byoc-target: nn.conv2d#2, nn.bias_add#4, nn.relu#5, add#7, reshape#9\n"
           "target default: tanh#8\n";
    QTest::newRow("PartitionGraph: outlined functions by global symbol")
        << "4_partition_graph"
        << "composite byoc-target.conv2d_relu_with_bias: nn.conv2d#2, nn.bias_add#4, nn.relu#5\n"
           "partition tvmgen_default_byoc_target_main_0: nn.conv2d#2, nn.bias_add#4, nn.relu#5, add#7\n"
           "partition tvmgen_default_byoc_target_main_2: reshape#9\n"
           "target byoc-target: nn.conv2d#2, nn.bias_add#4, nn.relu#5, add#7, reshape#9\n";
  }
  void stepsOfTheRelayPipeline() {
    QFETCH(QString, step);
    QFETCH(QString, expected);
    Module loaded = testing::typedModuleFromText(testing::readTestData("ui/steps/0_loaded.relay"), "0_loaded.relay");
    GraphModel graph = GraphModel::build(loaded.find("main"));
    Module snapshot = testing::snapshotFromText(testing::readTestData("ui/steps/" + step + ".relay"), loaded);
    QCOMPARE(describeOverlay(overlayForSnapshot(snapshot, graph), graph), expected);
  }

  void demoAnnotatedAsInSeed000() {
    Module loaded = testing::typedModuleFromText(testing::readTestData("text/demo.relay"), "demo.relay");
    GraphModel graph = GraphModel::build(loaded.find("main"));
    Module snapshot = testing::snapshotFromText(testing::readTestData("ui/steps/demo_annotate_target.relay"), loaded);
    QCOMPARE(describeOverlay(overlayForSnapshot(snapshot, graph), graph),
             QStringLiteral("composite byoc-target.conv2d_relu_with_bias: nn.conv2d#11, nn.bias_add#13, nn.relu#14\n"
                            "composite byoc-target.conv2d_relu_with_bias: nn.conv2d#18, nn.bias_add#20, nn.relu#21\n"
                            "target byoc-target: add#8, nn.conv2d#11, nn.bias_add#13, nn.relu#14, nn.conv2d#18, "
                            "nn.bias_add#20, nn.relu#21, reshape#22\n"
                            "target default: %while_loop#4, less#6, \u21BB %while_loop#15\n"));
  }

  void demoEndsInTheThreePartitionsOfSeed000() {
    Module loaded = testing::typedModuleFromText(testing::readTestData("text/demo.relay"), "demo.relay");
    GraphModel graph = GraphModel::build(loaded.find("main"));
    Module snapshot = testing::snapshotFromText(testing::readTestData("ui/steps/demo_partition_graph.relay"), loaded);
    QCOMPARE(describeOverlay(overlayForSnapshot(snapshot, graph), graph),
             QStringLiteral("composite byoc-target.conv2d_relu_with_bias: nn.conv2d#11, nn.bias_add#13, nn.relu#14\n"
                            "composite byoc-target.conv2d_relu_with_bias: nn.conv2d#18, nn.bias_add#20, nn.relu#21\n"
                            "partition tvmgen_default_byoc_target_main_0: add#8\n"
                            "partition tvmgen_default_byoc_target_main_2: nn.conv2d#11, nn.bias_add#13, nn.relu#14\n"
                            "partition tvmgen_default_byoc_target_main_5: nn.conv2d#18, nn.bias_add#20, nn.relu#21, reshape#22\n"
                            "target byoc-target: add#8, nn.conv2d#11, nn.bias_add#13, nn.relu#14, nn.conv2d#18, "
                            "nn.bias_add#20, nn.relu#21, reshape#22\n"));
  }

  void targetsAreListedInFirstSeenOrder() {
    GraphOverlay overlay;
    overlay.nodeTargets = {{1, QStringLiteral("dnnl")}, {2, kDefaultTarget}, {3, QStringLiteral("byoc-target")}};
    overlay.hulls.push_back({OverlayHull::Kind::Partition, QStringLiteral("p"), QStringLiteral("cutlass"), {1}});
    QCOMPARE(overlay.targets(),
             (std::vector<QString>{QStringLiteral("dnnl"), QStringLiteral("byoc-target"), QStringLiteral("cutlass")}));
  }
};

QTEST_GUILESS_MAIN(TestSnapshotOverlay)
#include "test_snapshot_overlay.moc"
