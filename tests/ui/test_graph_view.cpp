#include <QLineEdit>
#include <QtTest>

#include "window/main_window.h"
#include "graph/graph_items.h"
#include "graph/graph_page.h"
#include "graph/graph_scene.h"
#include "graph/graph_view.h"
#include "models/region_list_model.h"
#include "models/snapshot_list_model.h"
#include "panels/timeline_widget.h"
#include "test_files.h"
#include "window_fixture.h"

using namespace byoc;
using namespace byoc::ui;
using namespace byoc::testing;

/// Navigating the graph view: wheel zoom anchored at the cursor, search and region clicks that
/// bring what they find into view at a zoom where it can be read.
class TestGraphView : public QObject {
  Q_OBJECT

  /// Shows the demo laid out in `window`. The demo graph is smaller than the window: its scene is
  /// widened to give the view room to scroll in every direction, as a real model's scene does.
  static bool openDemoWithRoomToScroll(MainWindow& window) {
    window.resize(1000, 700);
    window.show();
    if (!openAndLayOut(window)) return false;
    GraphScene* scene = window.mainPage()->scene();
    scene->setSceneRect(scene->itemsBoundingRect().adjusted(-20000, -20000, 20000, 20000));
    return true;
  }

 private slots:
  void wheelZoomKeepsThePointUnderTheCursor() {
    MainWindow window;
    QVERIFY(openDemoWithRoomToScroll(window));
    GraphView* view = window.mainPage()->view();
    view->setZoom(0.5);
    const QPoint cursor(view->viewport()->width() / 4, view->viewport()->height() / 3);
    const QPointF before = view->mapToScene(cursor);
    for (int notch = 0; notch < 3; ++notch) {
      QWheelEvent wheel(cursor, view->viewport()->mapToGlobal(cursor), {}, {0, 120}, Qt::NoButton, Qt::NoModifier,
                        Qt::NoScrollPhase, false);
      QApplication::sendEvent(view->viewport(), &wheel);
    }
    QVERIFY(view->zoom() > 0.8);
    const QPointF after = view->mapToScene(cursor);
    QVERIFY2(QLineF(before, after).length() < 3.0 / view->zoom(),
             qPrintable(QStringLiteral("moved from (%1, %2) to (%3, %4)").arg(before.x()).arg(before.y()).arg(after.x()).arg(after.y())));
  }

  void searchCentresItsMatchAtALegibleZoom() {
    MainWindow window;
    QVERIFY(openDemoWithRoomToScroll(window));
    GraphPage* page = window.mainPage();
    page->view()->setZoom(0.05);
    QCOMPARE(page->search(QStringLiteral("conv2d"), false), 2);
    page->findNext();
    QVERIFY(page->view()->zoom() >= 0.6);
    NodeItem* match = page->scene()->itemOf(page->scene()->selectedNode());
    QVERIFY(match);
    const QRectF visible = page->view()->mapToScene(page->view()->viewport()->rect()).boundingRect();
    QVERIFY(visible.contains(match->sceneBoundingRect()));
    QVERIFY(QLineF(visible.center(), match->sceneBoundingRect().center()).length() < 2.0);
    // The match flashes for a moment, then the ring goes away by itself.
    auto rings = [page] {
      int count = 0;
      for (QGraphicsItem* item : page->scene()->items()) count += item->type() == FlashRing::Type;
      return count;
    };
    QCOMPARE(rings(), 1);
    QTRY_COMPARE_WITH_TIMEOUT(rings(), 0, 5000);
    // F3 goes on to the next match.
    const int first = page->scene()->selectedNode();
    QTest::keyClick(page->view(), Qt::Key_F3);
    QVERIFY(page->scene()->selectedNode() != first);
    QCOMPARE(rings(), 1);
    // Esc in the search field closes the search and drops the matches.
    page->showSearch();
    auto* field = page->findChild<QLineEdit*>();
    QVERIFY(field && field->isVisible());
    QTest::keyClick(field, Qt::Key_Escape);
    QVERIFY(!field->isVisible());
    QVERIFY(page->scene()->searchMatches().empty());
  }

  void outlinedFunctionsOpenLikeTheModel() {
    MainWindow window;
    window.resize(1200, 800);
    window.show();
    QVERIFY(openAndLayOut(window, QString::fromStdString(testDataPath(QStringLiteral("ui/conv_net.onnx")))));
    QVERIFY(partitionAndShowLastStep(window, QStringLiteral("dnnl")));
    GraphPage* page = window.openFunctionTab(QStringLiteral("tvmgen_default_dnnl_main_0"));
    QVERIFY(page);
    QSignalSpy ready(page, &GraphPage::layoutReady);
    QVERIFY(page->isLaidOut() || ready.wait(20000));
    // Each composite is drawn in place, as a group around its body: no call box stands for one.
    int composites = 0;
    for (const GraphGroup& group : page->model().groups()) composites += group.composite;
    QVERIFY(composites >= 2);
    for (const GraphNode& node : page->model().nodes()) QVERIFY2(node.kind != GraphNodeKind::Call, qPrintable(node.title));
    // The first picture is legible, inputs first: a chain of composites is tall, not one long row.
    QVERIFY(page->view()->zoom() >= 0.6);
    const QRectF picture = page->scene()->itemsBoundingRect();
    QVERIFY2(picture.height() > picture.width(), qPrintable(QStringLiteral("%1 × %2").arg(picture.width()).arg(picture.height())));
  }

  void aRegionClickCentresOnItsMembers() {
    MainWindow window;
    QVERIFY(openDemoWithRoomToScroll(window));
    QVERIFY(partitionAndShowLastStep(window, QStringLiteral("byoc-target")));
    GraphView* view = window.mainPage()->view();
    view->setZoom(0.05);
    const int last = window.regionModel()->rowCount() - 1;
    const QList<int> nodes = window.regionModel()->index(last, 0).data(RegionListModel::NodesRole).value<QList<int>>();
    QVERIFY(!nodes.isEmpty());
    window.selectRegion(window.regionModel()->index(last, 0));
    QRectF members;
    for (int node : nodes) members |= window.mainPage()->scene()->itemOf(node)->sceneBoundingRect();
    const QRectF visible = view->mapToScene(view->viewport()->rect()).boundingRect();
    QVERIFY(view->zoom() >= 0.6);
    QVERIFY(visible.contains(members));
    QVERIFY(QLineF(visible.center(), members.center()).length() < 2.0);
  }

  void weightsCanBeShownAsNodes() {
    MainWindow window;
    window.resize(1200, 800);
    window.show();
    QVERIFY(openAndLayOut(window, QString::fromStdString(testDataPath(QStringLiteral("ui/conv_net.onnx")))));
    QVERIFY(partitionAndShowLastStep(window, QStringLiteral("dnnl")));
    auto stubs = [&window] {
      int count = 0;
      for (const GraphNode& node : window.mainPage()->model().nodes()) count += node.kind == GraphNodeKind::Stub;
      return count;
    };
    const int inBoxes = stubs();
    QVERIFY(window.mainPage()->scene()->hullCount() > 0);
    auto* toggle = window.findChild<QAction*>(QStringLiteral("weightsAsNodesAction"));
    QVERIFY(toggle);
    toggle->trigger();
    QSignalSpy ready(window.mainPage(), &GraphPage::layoutReady);
    QVERIFY(window.mainPage()->isLaidOut() || ready.wait(20000));
    QVERIFY2(stubs() > inBoxes, qPrintable(QStringLiteral("%1 stubs, %2 before").arg(stubs()).arg(inBoxes)));
    // The step shown is drawn on the new picture.
    QVERIFY(window.mainPage()->scene()->hullCount() > 0);
    toggle->trigger();
    QCOMPARE(stubs(), inBoxes);
  }

  void showAreaCentresAndFitsIt() {
    MainWindow window;
    QVERIFY(openDemoWithRoomToScroll(window));
    GraphView* view = window.mainPage()->view();
    view->setZoom(0.05);
    const QRectF area(100, 200, 300, 150);
    view->showArea(area);
    QCOMPARE(view->zoom(), 1.0);  // a small area is shown at 100 %, not enlarged
    QRectF visible = view->mapToScene(view->viewport()->rect()).boundingRect();
    QVERIFY(QLineF(visible.center(), area.center()).length() < 2.0);
    const QRectF wide(0, 0, 16000, 300);
    view->showArea(wide);
    visible = view->mapToScene(view->viewport()->rect()).boundingRect();
    QVERIFY(view->zoom() < 0.2);
    QVERIFY(visible.adjusted(-1, -1, 1, 1).contains(wide));
  }
};

QTEST_MAIN(TestGraphView)
#include "test_graph_view.moc"
