#include <QPainter>
#include <QtTest>
#include <map>
#include <set>

#include "window/main_window.h"
#include "graph/graph_items.h"
#include "graph/graph_legend.h"
#include "graph/graph_page.h"
#include "graph/graph_scene.h"
#include "graph/graph_view.h"
#include "graph/label_placer.h"
#include "graph/minimap.h"
#include "models/snapshot_list_model.h"
#include "panels/timeline_widget.h"
#include "test_files.h"
#include "window_fixture.h"
#include "pass/infer_type.h"
#include "text/parser.h"

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

  // Zoomed out past the level where node labels go (a graph of collapsed blocks fitted in the
  // view), a collapsed group's box still shows its title; an op's box shows none.
  void aCollapsedGroupKeepsItsTitleZoomedOut() {
    const GraphPalette& palette = graphPalette(Theme::Light);
    const GraphFonts fonts = graphFonts();
    const QRectF box(0, 0, 150, 40);
    // The pixels of `item` painted at `zoom` that are neither the fill, the background nor near the border.
    const auto inkInside = [&](int unit, qreal zoom) {
      QGraphicsScene scene;
      scene.addItem(new NodeItem(unit, GraphNodeKind::Call, QStringLiteral("features.denseblock3"), QStringLiteral("24 blocks"), box,
                                 &palette, &fonts));
      QImage image(QSize(200, 60), QImage::Format_ARGB32);
      image.fill(Qt::white);
      QPainter painter(&image);
      painter.scale(zoom, zoom);
      scene.render(&painter, box, box);
      painter.end();
      const QRect inside = QRectF(box.topLeft() * zoom, box.size() * zoom).toRect().adjusted(4, 4, -4, -4);
      const QRgb fill = image.pixel(inside.topLeft());
      int ink = 0;
      for (int y = inside.top(); y <= inside.bottom(); ++y)
        for (int x = inside.left(); x <= inside.right(); ++x) ink += image.pixel(x, y) != fill;
      return ink;
    };
    QVERIFY(kLabelDetail > 0.44);
    QCOMPARE(inkInside(3, 0.44), 0);  // an op: no label this far out
    QVERIFY2(inkInside(-1, 0.44) > 20, qPrintable(QString::number(inkInside(-1, 0.44))));
  }

  // An edge's tensor shape is its tooltip, and a short edge (no room between its boxes) shows its
  // label beside the boxes, on its level, rather than none.
  void shortEdgesShowTheirShape() {
    Result<Module> parsed = parseModule(
        "#[version = \"0.0.5\"]\ndef @main(%x: Tensor[(1, 8), float32]) {\n  tanh(nn.relu(%x))\n}\n", "short.relay");
    QVERIFY(parsed);
    Result<Module> typed = inferTypes(*parsed);
    QVERIFY(typed);
    auto model = std::make_shared<const GraphModel>(GraphModel::build(typed->find("main")));
    QCOMPARE(model->nodes().size(), std::size_t{3});  // the stub of %x, relu, tanh
    Layout layout;
    // Boxes as wide as a convolution's with its attributes.
    layout.units = {{QStringLiteral("n1"), QRectF(0, 0, 300, 30)}, {QStringLiteral("n2"), QRectF(0, 40, 300, 30)}};
    layout.edges = {{QStringLiteral("n1"), QStringLiteral("n2"), QPolygonF({QPointF(150, 30), QPointF(150, 33)})}};
    layout.size = QSizeF(300, 70);
    GraphScene scene;
    scene.populate(model, layout, {});
    EdgeItem* edge = nullptr;
    for (QGraphicsItem* item : scene.items())
      if (item->type() == EdgeItem::Type) edge = static_cast<EdgeItem*>(item);
    QVERIFY(edge);
    QCOMPARE(edge->label(), QStringLiteral("1×8"));
    QCOMPARE(edge->toolTip(), edge->label());
    QVERIFY(!edge->labelRect().isNull());
    QVERIFY2(edge->labelRect().left() >= 300, "the label covers a box");  // right of both boxes
    QVERIFY(edge->labelRect().left() < 360);  // and next to them
    QVERIFY(edge->labelRect().top() < 40 && edge->labelRect().bottom() > 30);  // on the edge's level

    // In a real picture every labelled edge names its shape on hover, and no placed label covers another.
    MainWindow window;
    window.resize(1200, 800);
    window.show();
    QVERIFY(openAndLayOut(window));
    int labelled = 0;
    for (QGraphicsItem* item : window.mainPage()->scene()->items()) {
      if (item->type() != EdgeItem::Type || static_cast<EdgeItem*>(item)->label().isEmpty()) continue;
      ++labelled;
      QCOMPARE(item->toolTip(), static_cast<EdgeItem*>(item)->label());
    }
    QVERIFY(labelled > 5);
    verifyNoLabelOverlaps(window.mainPage()->scene());
  }

  // The minimap draws what the scene holds when it appears, whatever changed while it was hidden
  // (it is hidden while a graph fits its view, as one of collapsed groups does).
  void theMinimapShowsTheSceneAsItIsWhenItAppears() {
    GraphScene scene;
    GraphView view(&scene);
    view.resize(400, 300);
    view.show();
    scene.setSceneRect(0, 0, 1000, 1000);
    Minimap minimap(&view, &view);
    minimap.setGeometry(0, 0, 100, 100);
    minimap.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    const QPoint middle(50, 50);
    QVERIFY(minimap.grab().toImage().pixelColor(middle) != QColor(Qt::red));
    QTest::qWait(400);  // the picture settled
    minimap.hide();
    scene.addRect(0, 0, 1000, 1000, QPen(Qt::NoPen), QBrush(Qt::red));
    QTest::qWait(400);  // longer than the minimap waits for changes to settle
    minimap.show();
    QCOMPARE(minimap.grab().toImage().pixelColor(middle), QColor(Qt::red));
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
