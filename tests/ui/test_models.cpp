#include <QAbstractItemModelTester>
#include <QtTest>

#include "graph/graph_model.h"
#include "graph/graph_search.h"
#include "models/diagnostics_model.h"
#include "models/module_tree_model.h"
#include "models/properties.h"
#include "models/region_list_model.h"
#include "models/snapshot_list_model.h"
#include "snapshot_fixture.h"
#include "test_files.h"

using namespace byoc;
using namespace byoc::ui;

namespace {

Module demo() { return testing::typedModuleFromText(testing::readTestData("text/demo.relay"), "demo.relay"); }

}  // namespace

/// The item models of the panels, under QAbstractItemModelTester, and the pure helpers behind them.
class TestModels : public QObject {
  Q_OBJECT

 private slots:
  void moduleTreeListsFunctionsAndNestedOnes() {
    ModuleTreeModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setModule(demo());
    QCOMPARE(model.dump(), QStringLiteral("main (function)\n  %while_loop (loop)\n"));
    // A let-bound function called only from outside itself is no loop.
    model.setModule(testing::typedModuleFromText(
        "def @main(%y: Tensor[(2), float32]) {\n"
        "  let %twice = fn (%x: Tensor[(2), float32]) { add(%x, %x) };\n"
        "  %twice(%twice(%y))\n"
        "}\n"));
    QCOMPARE(model.dump(), QStringLiteral("main (function)\n  %twice (local function)\n"));
    Module partitioned = testing::typedModuleFromText(testing::readTestData("ui/steps/4_partition_graph.relay"));
    model.setModule(partitioned);
    QCOMPARE(model.dump(), QStringLiteral("tvmgen_default_byoc_target_main_0 (external (byoc-target))\n"
                                          "  byoc-target.conv2d_relu_with_bias (composite)\n"
                                          "main (function)\n"
                                          "tvmgen_default_byoc_target_main_2 (external (byoc-target))\n"));
    QModelIndex nested = model.index(0, 0, model.index(0, 0));
    QCOMPARE(nested.data(ModuleTreeModel::GlobalNameRole).toString(), QStringLiteral("tvmgen_default_byoc_target_main_0"));
    QCOMPARE(nested.parent(), model.index(0, 0));
  }

  void propertiesOfAConvolution() {
    Module module = demo();
    GraphModel graph = GraphModel::build(module.find("main"));
    int conv = -1;
    for (const GraphNode& node : graph.nodes()) {
      if (node.title == u"nn.conv2d" && conv < 0) conv = node.id;
    }
    QVERIFY(conv >= 0);
    std::vector<Property> rows = nodeProperties(graph.nodes()[conv], module.provenance().get());
    auto value = [&rows](const QString& name) {
      for (const Property& row : rows) {
        if (row.first == name) return row.second;
      }
      return QStringLiteral("<missing>");
    };
    QCOMPARE(value(QStringLiteral("Kind")), QStringLiteral("op call"));
    QCOMPARE(value(QStringLiteral("Op")), QStringLiteral("nn.conv2d"));
    QCOMPARE(value(QStringLiteral("attr padding")), QStringLiteral("[1, 1, 1, 1]"));
    QCOMPARE(value(QStringLiteral("Type")), QStringLiteral("Tensor[(1, 32, 56, 56), float32]"));
    QCOMPARE(value(QStringLiteral("Source")), QStringLiteral("demo.relay:6:12"));
    QVERIFY(!value(QStringLiteral("Origin ids")).isEmpty());

    PropertiesModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setProperties(rows);
    QCOMPARE(model.rowCount(), static_cast<int>(rows.size()));
    QCOMPARE(model.index(1, 1).data().toString(), QStringLiteral("nn.conv2d"));
  }

  void diagnosticsShowSeverityLocationMessage() {
    DiagnosticsModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    Diagnostic diagnostic = makeError("found ')', expected an expression", {"broken.relay", 3, 28});
    diagnostic.notes.push_back("the call starts here");
    model.add(diagnostic);
    QCOMPARE(model.rowCount(), 1);
    QCOMPARE(model.index(0, 0).data().toString(), QStringLiteral("error"));
    QCOMPARE(model.index(0, 1).data().toString(), QStringLiteral("broken.relay:3:28"));
    QCOMPARE(model.index(0, 2).data().toString(),
             QStringLiteral("found ')', expected an expression\nnote: the call starts here"));
    model.clear();
    QCOMPARE(model.rowCount(), 0);
  }

  void snapshotListShowsSteps() {
    SnapshotListModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    Module loaded = testing::typedModuleFromText(testing::readTestData("ui/steps/0_loaded.relay"));
    Module composite = testing::snapshotFromText(testing::readTestData("ui/steps/1_merge_composite.relay"), loaded);
    model.setSnapshots({{QStringLiteral("loaded"), loaded, false, 0}, {QStringLiteral("InferType"), loaded, false, 0.5}});
    model.append({QStringLiteral("MergeComposite"), composite, true, 1.25});
    model.append({QStringLiteral("FoldConstant"), composite, true, 0});
    QCOMPARE(model.rowCount(), 4);
    QCOMPARE(model.index(1, 3).data().toString(), QStringLiteral("unchanged"));
    QCOMPARE(model.index(2, 1).data().toString(), QStringLiteral("MergeComposite"));
    QCOMPARE(model.index(2, 2).data().toString(), QStringLiteral("1.3 ms"));
    QCOMPARE(model.index(2, 3).data().toString(), QStringLiteral("+1 composites, +1 calls"));
    QCOMPARE(model.index(3, 3).data().toString(), QStringLiteral("changed"));  // changed, same counts
    QCOMPARE(model.index(2, 0).data(Qt::ToolTipRole).toString(), QStringLiteral("MergeComposite: +1 composites, +1 calls"));
  }

  void changesAreSummarisedByCounts() {
    Module loaded = testing::typedModuleFromText(testing::readTestData("ui/steps/0_loaded.relay"));
    ModuleCounts before = countModule(loaded);
    QCOMPARE(before.functions, 1);
    QCOMPARE(before.calls, 6);
    const char* const steps[] = {"2_annotate_target", "3_merge_compiler_regions", "4_partition_graph"};
    // Each step against the one before: MergeComposite → AnnotateTarget → MergeCompilerRegions → PartitionGraph.
    const char* const expected[] = {"+11 annotations", "\u22123 annotations", "+2 functions, \u22128 annotations, +2 calls"};
    ModuleCounts previous = countModule(testing::snapshotFromText(testing::readTestData("ui/steps/1_merge_composite.relay"), loaded));
    QCOMPARE(describeChange(before, previous), QStringLiteral("+1 composites, +1 calls"));
    QCOMPARE(describeChange(previous, previous), QString());
    for (int i = 0; i < 3; ++i) {
      ModuleCounts next = countModule(testing::snapshotFromText(testing::readTestData(QStringLiteral("ui/steps/%1.relay").arg(QLatin1String(steps[i]))), loaded));
      QCOMPARE(describeChange(previous, next), QString::fromUtf8(expected[i]));
      previous = next;
    }
  }

  void regionListShowsHulls() {
    RegionListModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    GraphOverlay overlay;
    overlay.hulls.push_back({OverlayHull::Kind::Region, QStringLiteral("dnnl #0"), QStringLiteral("dnnl"), {2, 4, 5}});
    model.setOverlay(overlay);
    QCOMPARE(model.rowCount(), 1);
    QCOMPARE(model.index(0, 1).data().toString(), QStringLiteral("region"));
    QCOMPARE(model.index(0, 3).data().toInt(), 3);
    QCOMPARE(model.index(0, 0).data(RegionListModel::NodesRole).value<QList<int>>(), (QList<int>{2, 4, 5}));
  }

  // Dozens of composites of one pattern are one row, whose rows say where each lies; composites
  // inside a region or outlined function are listed under it.
  void regionListGathersCompositesWhereTheyLie() {
    Module module = demo();
    GraphModel graph = GraphModel::build(module.find("main"));
    const std::vector<int> convs = *searchNodes(graph, {QStringLiteral("nn.conv2d"), false});
    const std::vector<int> relus = *searchNodes(graph, {QStringLiteral("nn.relu"), false});
    QCOMPARE(convs.size(), std::size_t(2));
    Provenance provenance;
    provenance.names[graph.nodes()[convs[0]].expr->origin().ids().front()] = "layer1.conv";
    using Kind = OverlayHull::Kind;
    auto sorted = [](int a, int b) { return std::vector<int>{std::min(a, b), std::max(a, b)}; };
    GraphOverlay overlay;
    overlay.hulls.push_back({Kind::Composite, QStringLiteral("dnnl.conv2d_relu"), {}, sorted(convs[0], relus[0])});
    overlay.hulls.push_back({Kind::Composite, QStringLiteral("dnnl.conv2d_relu"), {}, sorted(convs[1], relus[1])});
    overlay.hulls.push_back({Kind::Composite, QStringLiteral("dnnl.relu"), {}, {relus[1]}});
    overlay.hulls.push_back({Kind::Partition, QStringLiteral("tvmgen_default_dnnl_main_0"), QStringLiteral("dnnl"), sorted(relus[1], convs[1])});
    RegionListModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setOverlay(overlay, &graph, &provenance);
    auto text = [&](const QModelIndex& index) { return index.data().toString(); };
    // The partition first, holding its two composites; then the one outside any.
    QCOMPARE(model.rowCount(), 2);
    const QModelIndex partition = model.index(0, 0);
    QCOMPARE(text(partition), QStringLiteral("tvmgen_default_dnnl_main_0"));
    QCOMPARE(model.rowCount(partition), 2);
    QCOMPARE(text(model.index(0, 0, partition)), QStringLiteral("dnnl.conv2d_relu"));
    QCOMPARE(text(model.index(1, 0, partition)), QStringLiteral("dnnl.relu"));
    QCOMPARE(text(model.index(1, 0)), QStringLiteral("dnnl.conv2d_relu"));
    QCOMPARE(model.index(1, 0).data(Qt::ToolTipRole).toString(), QStringLiteral("dnnl.conv2d_relu at layer1.conv"));

    // Outside any partition, the two composites of one pattern are gathered, each named by its place.
    overlay.hulls.pop_back();
    model.setOverlay(overlay, &graph, &provenance);
    QCOMPARE(model.rowCount(), 2);
    const QModelIndex gathered = model.index(0, 0);
    QCOMPARE(text(gathered), QStringLiteral("dnnl.conv2d_relu"));
    QCOMPARE(text(model.index(0, 1)), QStringLiteral("2 composites"));
    QCOMPARE(model.index(0, 0).data(RegionListModel::NodesRole).value<QList<int>>().size(), 4);
    QCOMPARE(model.rowCount(gathered), 2);
    QCOMPARE(text(model.index(0, 0, gathered)), QStringLiteral("layer1.conv"));
    QCOMPARE(text(model.index(1, 0, gathered)), QStringLiteral("else \u00B7 nn.conv2d"));  // no source name: scope and op
    QCOMPARE(model.parent(model.index(1, 0, gathered)), gathered);
    QCOMPARE(text(model.index(1, 0)), QStringLiteral("dnnl.relu"));
  }

  void searchFindsNodes_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<bool>("regex");
    QTest::addColumn<QStringList>("titles");
    QTest::newRow("op name") << "conv2d" << false << QStringList{"nn.conv2d", "nn.conv2d"};
    QTest::newRow("case-insensitive") << "RESHAPE" << false << QStringList{"reshape"};
    QTest::newRow("attribute value") << "newshape=[1, 56" << false << QStringList{"reshape"};
    QTest::newRow("variable") << "%bias" << false << QStringList{"%bias"};
    QTest::newRow("regex") << "^nn\\.(relu|bias_add)$" << true
                           << QStringList{"nn.bias_add", "nn.relu", "nn.bias_add", "nn.relu"};
    QTest::newRow("nothing") << "softmax" << false << QStringList{};
    QTest::newRow("empty") << "" << false << QStringList{};
  }
  void searchFindsNodes() {
    QFETCH(QString, text);
    QFETCH(bool, regex);
    QFETCH(QStringList, titles);
    GraphModel graph = GraphModel::build(demo().find("main"));
    Result<std::vector<int>> found = searchNodes(graph, {text, regex});
    QVERIFY(found);
    QStringList actual;
    for (int node : *found) actual << graph.nodes()[node].title;
    QCOMPARE(actual, titles);
  }

  void searchFindsSourceNodeNames() {
    Module module = demo();
    GraphModel graph = GraphModel::build(module.find("main"));
    int relu = searchNodes(graph, {QStringLiteral("nn.relu"), false})->front();
    Provenance provenance;
    provenance.names[graph.nodes()[relu].expr->origin().ids().front()] = "/layer1/relu/Relu";
    Result<std::vector<int>> found = searchNodes(graph, {QStringLiteral("layer1/relu"), false}, &provenance);
    QVERIFY(found);
    QCOMPARE(*found, std::vector<int>{relu});
  }

  void invalidRegexIsReported() {
    GraphModel graph = GraphModel::build(demo().find("main"));
    Result<std::vector<int>> found = searchNodes(graph, {QStringLiteral("conv("), true});
    QVERIFY(!found);
    QCOMPARE(QString::fromStdString(found.error().message),
             QStringLiteral("invalid regular expression: missing closing parenthesis at offset 5"));
  }
};

QTEST_GUILESS_MAIN(TestModels)
#include "test_models.moc"
