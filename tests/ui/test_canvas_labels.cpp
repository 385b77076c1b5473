#include <QtTest>
#include <map>
#include <set>

#include "window/main_window.h"
#include "graph/graph_items.h"
#include "graph/graph_legend.h"
#include "graph/graph_page.h"
#include "graph/graph_scene.h"
#include "graph/label_placer.h"
#include "graph/minimap.h"
#include "models/snapshot_list_model.h"
#include "panels/timeline_widget.h"
#include "test_files.h"
#include "window_fixture.h"

using namespace byoc;
using namespace byoc::ui;
using namespace byoc::testing;

/// Overlays that read: outlines that hug their members, and labels that never overlap.
class TestCanvasLabels : public QObject {
  Q_OBJECT

  /// Opens `path` (the demo when empty) and partitions it for `target`, showing the last step.
  static bool partitioned(MainWindow& window, const QString& path, const QString& target) {
    window.resize(1200, 800);
    window.show();
    return openAndLayOut(window, path) && partitionAndShowLastStep(window, target);
  }

  /// Every drawn label's rectangle, each with what it labels, for messages.
  static std::vector<std::pair<QRectF, QString>> labelRects(GraphScene* scene) {
    std::vector<std::pair<QRectF, QString>> labels;
    for (QGraphicsItem* item : scene->items()) {
      if (item->type() == LabelItem::Type) {
        labels.emplace_back(item->sceneBoundingRect(), QStringLiteral("label ") + static_cast<LabelItem*>(item)->text());
      } else if (item->type() == EdgeItem::Type) {
        auto* edge = static_cast<EdgeItem*>(item);
        if (!edge->labelRect().isNull()) labels.emplace_back(edge->labelRect(), QStringLiteral("edge ") + edge->label());
      }
    }
    return labels;
  }

  static void verifyNoLabelOverlaps(GraphScene* scene) {
    const auto labels = labelRects(scene);
    QVERIFY(labels.size() > 3);
    for (std::size_t i = 0; i < labels.size(); ++i) {
      for (std::size_t j = i + 1; j < labels.size(); ++j) {
        QVERIFY2(!labels[i].first.intersects(labels[j].first),
                 qPrintable(labels[i].second + QStringLiteral(" overlaps ") + labels[j].second));
      }
      for (QGraphicsItem* item : scene->items(labels[i].first)) {
        QVERIFY2(item->type() != NodeItem::Type || !item->sceneBoundingRect().intersects(labels[i].first),
                 qPrintable(labels[i].second + QStringLiteral(" covers a node")));
      }
    }
  }

  /// No outline covers the centre of a node that is not its member (hulls of one label, such as
  /// two calls of one composite, are taken together).
  static void verifyOutlinesHugTheirMembers(GraphScene* scene) {
    std::map<QString, std::set<int>> members;
    for (const OverlayHull& hull : scene->overlay().hulls) members[hull.label].insert(hull.nodes.begin(), hull.nodes.end());
    int outlines = 0;
    for (QGraphicsItem* item : scene->items()) {
      if (item->type() != HullItem::Type) continue;
      ++outlines;
      const std::set<int>& inside = members.at(item->toolTip());
      const QPainterPath outline = static_cast<HullItem*>(item)->path();
      for (const GraphNode& node : scene->model()->nodes()) {
        NodeItem* box = scene->itemOf(node.id);
        if (!box || inside.contains(node.id)) continue;
        QVERIFY2(!outline.contains(box->sceneBoundingRect().center()),
                 qPrintable(item->toolTip() + QStringLiteral(" covers ") + node.title));
      }
    }
    QVERIFY(outlines >= 2);
  }

 private slots:
  void placerSlidesPastWhatIsTaken() {
    LabelPlacer placer;
    placer.take(QRectF(0, 0, 100, 20));
    QVERIFY(!placer.isFree(QRectF(50, 10, 10, 10)));
    QVERIFY(placer.isFree(QRectF(101, 0, 10, 10)));
    const QRectF slid = placer.takeSlidingRight(QRectF(10, 5, 40, 10), 500);
    QVERIFY(slid.left() > 100);
    QCOMPARE(slid.top(), 5.0);
    // The spot just taken is taken; with no room before the limit nothing is.
    QVERIFY(!placer.isFree(slid));
    QVERIFY(placer.takeSlidingRight(QRectF(10, 5, 40, 10), 160).isNull());
  }

  void demoPartitionsReadCleanly() {
    MainWindow window;
    QVERIFY(partitioned(window, {}, QStringLiteral("byoc-target")));
    GraphScene* scene = window.mainPage()->scene();
    verifyOutlinesHugTheirMembers(scene);
    verifyNoLabelOverlaps(scene);
  }

  void theLegendExplainsWhatIsDrawn() {
    MainWindow window;
    QVERIFY(partitioned(window, {}, QStringLiteral("byoc-target")));
    GraphPage* page = window.mainPage();
    auto texts = [page] {
      QStringList texts;
      for (const LegendEntry& entry : page->legend()->entries()) texts << entry.text;
      return texts;
    };
    // The demo's while loop: its box and the boxes of its if's branches are named too.
    QCOMPARE(texts(), (QStringList{QStringLiteral("runs on byoc-target"), QStringLiteral("composite (a pattern's match)"),
                                   QStringLiteral("outlined function (a colour each)"),
                                   QStringLiteral("loop (a function calling itself; \u21BB: next iteration)"),
                                   QStringLiteral("then / else: what only that side of an if runs")}));
    QVERIFY(page->legend()->isVisible());
    page->search(QStringLiteral("conv2d"), false);
    QVERIFY(texts().contains(QStringLiteral("search match")));
    page->legend()->setWanted(false);
    QVERIFY(!page->legend()->isVisible());
    // At the loaded model only the op-support tints are left to explain.
    window.timeline()->setCurrentStep(0);
    page->scene()->setMatches({});
    page->legend()->setWanted(true);
    QVERIFY(page->legend()->isVisible());
    QVERIFY(!texts().contains(QStringLiteral("outlined function (a colour each)")));
    QVERIFY(!texts().contains(QStringLiteral("search match")));
  }

  // On a small screen the legend and minimap get out of the graph's way.
  void theOverlaysStaySmallOnSmallViews() {
    MainWindow window;
    QVERIFY(partitioned(window, {}, QStringLiteral("byoc-target")));
    GraphPage* page = window.mainPage();
    GraphLegend* legend = page->legend();
    const QSize full = legend->fullSize();
    window.resize(1366, 560);
    QTRY_VERIFY(legend->compact());
    QCOMPARE(legend->height(), legend->sizeHint().height());
    QVERIFY(legend->height() < full.height() / 2);  // one line
    window.resize(1920, 1080);
    QTRY_VERIFY(!legend->compact());
    QCOMPARE(legend->size(), full);
    QCOMPARE(shortLegendText(QStringLiteral("composite (a pattern's match)")), QStringLiteral("composite"));
    QCOMPARE(shortLegendText(QStringLiteral("no target takes it: stays on the host")), QStringLiteral("no target takes it"));
    QCOMPARE(shortLegendText(QStringLiteral("runs on dnnl")), QStringLiteral("runs on dnnl"));

    // The minimap takes the graph's shape: a tall graph gets a strip along the edge, never thinner
    // than can be clicked, never taller than the view.
    const QSize viewport(780, 420);
    const QSize tall = minimapSize(QSizeF(900, 15000), viewport);
    QVERIFY(tall.height() <= 0.9 * viewport.height() + 1);
    QVERIFY(tall.width() >= 28 && tall.width() <= 40);
    const QSize wide = minimapSize(QSizeF(6000, 300), viewport);
    QVERIFY(wide.width() <= 0.4 * viewport.width() + 1);
    QVERIFY(wide.height() >= 28);
    const QSize square = minimapSize(QSizeF(1000, 1000), viewport);
    QCOMPARE(square.width(), square.height());
    QVERIFY(square.width() * square.height() <= 0.061 * viewport.width() * viewport.height());
  }

  void namedScopesAndCompositesReadCleanly() {
    MainWindow window;
    QVERIFY(partitioned(window, QString::fromStdString(testDataPath(QStringLiteral("ui/conv_net.onnx"))), QStringLiteral("dnnl")));
    GraphScene* scene = window.mainPage()->scene();
    verifyOutlinesHugTheirMembers(scene);
    verifyNoLabelOverlaps(scene);
  }
};

QTEST_MAIN(TestCanvasLabels)
#include "test_canvas_labels.moc"
