#include <QCheckBox>
#include <QComboBox>
#include <QPushButton>
#include <QTableView>
#include <QtTest>

#include "window/main_window.h"
#include "compare/compare_panel.h"
#include "compare/comparison_model.h"
#include "graph/graph_items.h"
#include "graph/graph_page.h"
#include "graph/graph_scene.h"
#include "models/snapshot_list_model.h"
#include "overlay/comparison_overlay.h"
#include "panels/timeline_widget.h"
#include "test_files.h"
#include "window_fixture.h"

using namespace byoc;
using namespace byoc::ui;

namespace {

int choiceIndex(const ComparePanel& panel, const QString& text) {
  const int index = panel.chooser()->findText(text);
  if (index < 0) qFatal("no choice '%s'", qPrintable(text));
  return index;
}

QString cell(const ComparePanel& panel, int row, int column) {
  return panel.model()->index(row, column).data().toString();
}

/// The titles of the loaded graph's nodes tinted `tint` in `overlay`, sorted.
QStringList tinted(const GraphOverlay& overlay, const GraphModel& graph, const QString& tint) {
  QStringList titles;
  for (const auto& [node, target] : overlay.nodeTargets)
    if (target == tint) titles << graph.nodes()[node].title;
  titles.sort();
  return titles;
}

}  // namespace

/// The Compare dock: side A (the timeline's last step) against another target, flow or step.
class TestComparePanel : public QObject {
  Q_OBJECT

 private slots:
  // dnnl_convnet: conv → bias → relu, conv → bias → add → relu, global_avg_pool2d, batch_flatten,
  // dense → add, softmax. TVM's own dnnl op list (tvm-dnnl) has no batch_flatten, so on side B it
  // stays on the host and cuts the one region of side A in two.
  void anotherTargetShowsWhatItOffloadsDifferently() {
    MainWindow window;
    QVERIFY(testing::openAndLayOut(window, QString::fromStdString(testing::testDataPath(QStringLiteral("partition/dnnl_convnet.relay")))));
    ComparePanel* panel = window.comparePanel();
    QVERIFY(!panel->compareButton()->isEnabled());
    QVERIFY(testing::partitionAndShowLastStep(window, QStringLiteral("dnnl")));
    QVERIFY(panel->compareButton()->isEnabled());

    panel->compareWith(choiceIndex(*panel, QStringLiteral("tvm-dnnl, relay flow")));
    QTRY_VERIFY_WITH_TIMEOUT(!panel->isRunning(), 30000);
    QCOMPARE(panel->model()->rowCount(), 2);
    QCOMPARE(cell(*panel, 0, 0), QStringLiteral("placed differently: nn.batch_flatten"));
    QCOMPARE(cell(*panel, 0, 1), QStringLiteral("dnnl"));
    QCOMPARE(cell(*panel, 0, 2), QStringLiteral("host"));
    QCOMPARE(cell(*panel, 1, 0), QStringLiteral("regions: split in B"));
    QCOMPARE(cell(*panel, 1, 1), QStringLiteral("tvmgen_default_dnnl_main_0"));
    QVERIFY2(panel->summary().contains(QStringLiteral("1 of ")), qPrintable(panel->summary()));

    // One overlay: the call offloaded on A only, the rest offloaded on both; drawn on the graph.
    const GraphModel& graph = window.mainPage()->model();
    QCOMPARE(tinted(panel->overlay(), graph, kOffloadedOnlyInA), (QStringList{QStringLiteral("nn.batch_flatten")}));
    QVERIFY(tinted(panel->overlay(), graph, kOffloadedOnlyInB).isEmpty());
    QVERIFY(tinted(panel->overlay(), graph, kOffloadedOnBoth).contains(QStringLiteral("nn.conv2d")));
    QCOMPARE(window.mainPage()->scene()->overlay().nodeTargets, panel->overlay().nodeTargets);

    // A row selects its nodes on the graph.
    panel->table()->setCurrentIndex(panel->model()->index(0, 0));
    const QList<QGraphicsItem*> selected = window.mainPage()->scene()->selectedItems();
    QCOMPARE(selected.size(), 1);
    QCOMPARE(static_cast<NodeItem*>(selected.front())->unit(), panel->model()->index(0, 0).data(ComparisonModel::NodesRole).value<QList<int>>().front());

    // Unticking "Show on graph" draws the step again.
    panel->findChild<QCheckBox*>()->setChecked(false);
    QVERIFY(tinted(window.mainPage()->scene()->overlay(), graph, kOffloadedOnlyInA).isEmpty());
    QVERIFY(window.mainPage()->scene()->overlay().nodeTargets.size() > 0);  // the step's own targets
  }

  void theOtherFlowAndAnEarlierStepCompare() {
    MainWindow window;
    QVERIFY(testing::openAndLayOut(window, QString::fromStdString(testing::testDataPath(QStringLiteral("partition/dnnl_convnet.relay")))));
    QVERIFY(testing::partitionAndShowLastStep(window, QStringLiteral("dnnl")));
    ComparePanel* panel = window.comparePanel();

    // The Relax flow offloads only what its patterns match (it has no AnnotateTarget), so the
    // lone calls dnnl supports without a pattern stay on the host there.
    panel->compareWith(choiceIndex(*panel, QStringLiteral("dnnl, relax flow")));
    QTRY_VERIFY_WITH_TIMEOUT(!panel->isRunning(), 30000);
    QVERIFY2(!panel->summary().startsWith(QStringLiteral("Side B failed")), qPrintable(panel->summary()));
    QStringList placedDifferently;
    for (int row = 0; row < panel->model()->rowCount(); ++row)
      if (cell(*panel, row, 0).startsWith(QStringLiteral("placed differently: ")))
        placedDifferently << cell(*panel, row, 0).mid(20) + QLatin1Char(' ') + cell(*panel, row, 1) + QLatin1Char('/') + cell(*panel, row, 2);
    QCOMPARE(placedDifferently, (QStringList{QStringLiteral("nn.batch_flatten dnnl/host"), QStringLiteral("nn.global_avg_pool2d dnnl/host"),
                                             QStringLiteral("nn.softmax dnnl/host")}));

    // PartitionGraph against the last step (PruneRegions), which keeps the one region as it is.
    const int step = choiceIndex(*panel, QStringLiteral("step %1: PartitionGraph").arg(window.snapshotModel()->rowCount() - 2));
    panel->compareWith(step);
    QVERIFY(!panel->isRunning());
    QCOMPARE(panel->model()->rowCount(), 0);
    QVERIFY2(panel->summary().contains(QStringLiteral("0 of ")), qPrintable(panel->summary()));

    // Partitioning again makes the comparison stale: it goes, and the step's overlay is drawn.
    QVERIFY(testing::partitionAndShowLastStep(window, QStringLiteral("byoc-target")));
    QCOMPARE(panel->model()->rowCount(), 0);
    QVERIFY(panel->overlay().empty());
  }

  void aBadTargetFileIsReported() {
    MainWindow window;
    QVERIFY(testing::openAndLayOut(window, QString::fromStdString(testing::testDataPath(QStringLiteral("partition/dnnl_convnet.relay")))));
    QVERIFY(testing::partitionAndShowLastStep(window, QStringLiteral("dnnl")));
    ComparePanel* panel = window.comparePanel();
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("broken.json"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("{\"format\": \"byoc-studio-target\", \"version\": 1, \"name\": \"t\", \"op_rules\": [\"nn.relu when\"]}");
    file.close();
    panel->compareWith(panel->addTargetChoice(path));
    QTRY_VERIFY_WITH_TIMEOUT(!panel->isRunning(), 30000);
    QVERIFY2(panel->summary().startsWith(QStringLiteral("Side B failed: ") + path), qPrintable(panel->summary()));
    QCOMPARE(panel->model()->rowCount(), 0);
  }
};

QTEST_MAIN(TestComparePanel)
#include "test_compare_panel.moc"
