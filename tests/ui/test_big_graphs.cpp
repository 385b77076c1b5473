#include <QTextBlock>
#include <QtTest>

#include "window/main_window.h"
#include "graph/dot_writer.h"
#include "graph/graph_page.h"
#include "graph/graph_scene.h"
#include "graph/graph_view.h"
#include "models/properties.h"
#include "models/snapshot_list_model.h"
#include "panels/ir_text_view.h"
#include "panels/timeline_widget.h"
#include "synthetic_chain.h"
#include "window_fixture.h"

using namespace byoc;
using namespace byoc::ui;
using namespace byoc::testing;

namespace {

/// Writes `text` to `name` in `dir`.
QString writeModel(const QTemporaryDir& dir, const QString& name, const std::string& text) {
  const QString path = dir.filePath(name);
  QFile file(path);
  if (!file.open(QIODevice::WriteOnly) || file.write(text.data(), static_cast<qint64>(text.size())) < 0)
    qFatal("cannot write %s", qPrintable(path));
  return path;
}

/// The drawn node items: real nodes (unit ≥ 0) and collapsed groups (unit < 0).
QList<NodeItem*> drawnNodes(GraphScene& scene) {
  QList<NodeItem*> nodes;
  for (QGraphicsItem* item : scene.items()) {
    if (item->type() == NodeItem::Type) nodes << static_cast<NodeItem*>(item);
  }
  return nodes;
}

/// The value of the property `name` in the properties panel, or empty.
QString propertyValue(const PropertiesModel& model, const QString& name) {
  for (const Property& row : model.properties()) {
    if (row.first == name) return row.second;
  }
  return {};
}

}  // namespace

/// Graphs of 100,000 nodes without name scopes, opened, explored and partitioned in the window.
class TestBigGraphs : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

  void aFlatChainOfAHundredThousandNodesOpensInBlocks() {
    QTemporaryDir dir;
    const QString path = writeModel(dir, QStringLiteral("chain.relay"), bench::flatNetworkText(33334, false));
    MainWindow window;
    QVERIFY(showAndOpen(window, path));
    GraphPage* page = window.mainPage();
    GraphScene* scene = page->scene();
    QVERIFY(page->model().nodes().size() > 100000);

    // The first picture is legible: ops at a readable zoom, among a few hundred units in all.
    QVERIFY(page->view()->zoom() >= 0.6);
    const QList<NodeItem*> first = drawnNodes(*scene);
    QVERIFY2(first.size() < 400, qPrintable(QString::number(first.size())));
    const auto isOp = [](const NodeItem* item) { return item->unit() >= 0; };
    QVERIFY(std::count_if(first.begin(), first.end(), isOp) > 20);

    // Expanding a collapsed block lays out only that block: its nodes appear.
    int block = -1;
    for (const NodeItem* item : first) {
      const int group = -1 - item->unit();
      if (item->unit() < 0 && page->model().groups()[group].parent >= 0 &&
          page->model().groups()[page->model().groups()[group].parent].parent < 0) {
        block = std::max(block, group);  // the last block of the expanded top-level block
      }
    }
    QVERIFY(block >= 0);
    QVERIFY(page->model().groups()[block].synthesized);
    QSignalSpy ready(page, &GraphPage::layoutReady);
    page->toggleGroup(block);
    QVERIFY(ready.wait(20000));
    QVERIFY(!page->collapsed()[block]);
    const GraphGroup& expanded = page->model().groups()[block];
    QVERIFY(!expanded.nodes.empty());
    const int member = expanded.nodes.back();
    QVERIFY(scene->itemOf(member));
    QCOMPARE(scene->itemOf(member)->unit(), member);

    // A search match hidden in collapsed blocks is revealed: its blocks open in one layout.
    QCOMPARE(page->search(QStringLiteral("nn.conv2d"), false), 33334);
    const int firstMatch = scene->selectedNode();  // in the first block, shown as itself
    QVERIFY(firstMatch >= 0);
    QCOMPARE(scene->itemOf(firstMatch)->unit(), firstMatch);
    int last = -1;
    for (const GraphNode& node : page->model().nodes()) {
      if (node.title == u"nn.conv2d") last = node.id;
    }
    QVERIFY(scene->itemOf(last)->unit() < 0);
    page->findNext(true);
    QCOMPARE(scene->selectedNode(), last);
    QVERIFY(ready.wait(20000));
    QCOMPARE(scene->itemOf(last)->unit(), last);
    QCOMPARE(scene->selectedNode(), last);
    for (int group = page->model().nodes()[last].group; group >= 0; group = page->model().groups()[group].parent)
      QVERIFY(!page->collapsed()[group]);
    QVERIFY(scene->itemOf(member));  // the block expanded before stays expanded
    QCOMPARE(scene->itemOf(member)->unit(), member);

    // A node chosen in the text, hidden in a collapsed block, is shown in the graph: its blocks
    // open, and it is selected there.
    QTRY_VERIFY_WITH_TIMEOUT(!window.irText()->isFilling(), 30000);
    const QTextBlock line = window.irText()->document()->find(QStringLiteral("  %60000 = ")).block();
    QVERIFY(line.isValid());
    const int drawnBefore = static_cast<int>(drawnNodes(*scene).size());
    emit window.irText()->locationClicked(line.blockNumber() + 1, 3);
    const int chosen = scene->selectedNode();
    QVERIFY(chosen >= 0);
    QCOMPARE(page->model().nodes()[chosen].title, QStringLiteral("nn.conv2d"));
    QVERIFY(scene->itemOf(chosen)->unit() < 0);  // drawn as its block until the block opens
    QVERIFY(ready.wait(20000));
    QCOMPARE(scene->itemOf(chosen)->unit(), chosen);
    QCOMPARE(scene->selectedNode(), chosen);
    QVERIFY(scene->itemOf(chosen)->isSelected());
    QVERIFY(static_cast<int>(drawnNodes(*scene).size()) > drawnBefore);
    QCOMPARE(window.irText()->textCursor().blockNumber(), line.blockNumber());

    // Nodes chosen elsewhere (a region, a comparison), hidden in a collapsed block, likewise.
    int hidden = -1;
    for (const GraphNode& node : page->model().nodes()) {
      if (node.kind != GraphNodeKind::Stub && scene->itemOf(node.id) && scene->itemOf(node.id)->unit() < 0) hidden = node.id;
    }
    QVERIFY(hidden >= 0);
    const int hiddenGroup = page->model().nodes()[hidden].group;
    std::vector<int> together;
    for (int node : page->model().groups()[hiddenGroup].nodes) together.push_back(node);
    QVERIFY(together.size() > 1);
    std::swap(together.front(), *std::find(together.begin(), together.end(), hidden));
    page->selectNodes(together);
    QVERIFY(ready.wait(20000));
    for (int node : together) {
      QCOMPARE(scene->itemOf(node)->unit(), node);
      QVERIFY(scene->itemOf(node)->isSelected());
    }

    // Nodes spread over the whole graph (a composite used throughout) are not fitted at an
    // unreadable zoom: the first is shown at a legible one, all stay selected.
    std::vector<int> spread;
    for (const GraphNode& node : page->model().nodes())
      if (node.kind != GraphNodeKind::Stub && scene->itemOf(node.id) && scene->itemOf(node.id)->unit() == node.id) spread.push_back(node.id);
    QVERIFY(spread.size() > 2);
    const std::vector<int> ends{spread.front(), spread.back()};
    page->selectNodes(ends);
    QVERIFY(page->view()->zoom() >= 0.6);
    const QRectF visible = page->view()->mapToScene(page->view()->viewport()->rect()).boundingRect();
    QVERIFY(visible.intersects(scene->itemOf(ends.front())->sceneBoundingRect()));
    QVERIFY(scene->itemOf(ends.back())->isSelected());

    // The passes run on the whole graph and their step is drawn over the same picture.
    QVERIFY(partitionAndShowLastStep(window, QStringLiteral("dnnl")));
    int partitionStep = -1;
    for (int row = 0; row < window.snapshotModel()->rowCount(); ++row) {
      if (window.snapshotModel()->index(row, 1).data().toString() == u"PartitionGraph") partitionStep = row;
    }
    QVERIFY(partitionStep > 0);
    window.timeline()->setCurrentStep(partitionStep);
    QVERIFY(scene->hullCount() > 0);
    QTRY_VERIFY_WITH_TIMEOUT(window.irText()->toPlainText().contains(QStringLiteral("def @tvmgen_default_dnnl_main_0(")), 30000);
    QVERIFY(!page->collapsed()[block]);

    // Selecting a node of the expanded block there selects it in every view.
    QVERIFY(scene->itemOf(member)->unit() == member);
    scene->selectNode(member);
    QCOMPARE(scene->selectedNode(), member);
    QVERIFY(scene->itemOf(member)->isSelected());
    QCOMPARE(propertyValue(*window.propertiesModel(), QStringLiteral("Op")), page->model().nodes()[member].title);
    // The text may still be arriving: the cursor goes to the node's line once it is in.
    QTRY_VERIFY2_WITH_TIMEOUT(window.irText()->textCursor().block().text().contains(page->model().nodes()[member].title),
                              qPrintable(window.irText()->textCursor().block().text()), 30000);
  }
};

QTEST_MAIN(TestBigGraphs)
#include "test_big_graphs.moc"
