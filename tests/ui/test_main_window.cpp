#include <QAbstractItemModelTester>
#include <QClipboard>
#include <QProgressBar>
#include <QPushButton>
#include <QStatusBar>
#include <QMimeData>
#include <QSettings>
#include <QSvgRenderer>
#include <QTableView>
#include <QHeaderView>
#include <QScrollBar>
#include <QShortcut>
#include <QTextBlock>
#include <QXmlStreamReader>
#include <QMenu>
#include <QMenuBar>
#include <QTextBrowser>
#include <QtTest>

#include <sys/stat.h>

#include <algorithm>
#include <map>

#include "window/main_window.h"
#include "window/graph_image_job.h"
#include "window/help_browser.h"
#include "window/shortcut_list.h"
#include "window/steps_job.h"
#include "frontend/json_format.h"
#include "graph/graph_items.h"
#include "graph/graph_page.h"
#include "graph/graph_scene.h"
#include "graph/graph_view.h"
#include "models/diagnostics_model.h"
#include "models/module_tree_model.h"
#include "models/properties.h"
#include "models/region_list_model.h"
#include "models/snapshot_list_model.h"
#include "panels/ir_text_view.h"
#include "panels/timeline_widget.h"
#include "run/latency_chart.h"
#include "run/run_panel.h"
#include "snapshot_fixture.h"
#include "test_files.h"
#include "window_fixture.h"

using namespace byoc;
using namespace byoc::ui;
using namespace byoc::testing;

namespace {

int findTitle(const GraphModel& model, const QString& title) {
  for (const GraphNode& node : model.nodes()) {
    if (node.title == title) return node.id;
  }
  return -1;
}

QString propertyValue(const PropertiesModel& model, const QString& name) {
  for (const Property& row : model.properties()) {
    if (row.first == name) return row.second;
  }
  return {};
}

/// The 1-based line of the first line of `text` containing `needle`, and the column where it starts; {0, 0} if none.
QPair<int, int> lineOf(const QString& text, const QString& needle) {
  const QStringList lines = text.split(u'\n');
  for (int i = 0; i < lines.size(); ++i) {
    if (const int column = lines[i].indexOf(needle); column >= 0) return {i + 1, column + 1};
  }
  return {0, 0};
}

/// A Relay model of `blocks` conv2d → add → relu blocks in a chain, written to `dir`.
QString writeChainModel(const QTemporaryDir& dir, int blocks) {
  std::string text =
      "#[version = \"0.0.5\"]\ndef @main(%x: Tensor[(1, 4, 8, 8), float32], %w: Tensor[(4, 4, 3, 3), float32], "
      "%b: Tensor[(4, 1, 1), float32]) {\n";
  std::string value = "%x";
  for (int block = 0; block < blocks; ++block) {
    const std::string conv = "%" + std::to_string(3 * block), add = "%" + std::to_string(3 * block + 1);
    text += "  " + conv + " = nn.conv2d(" + value + ", %w, padding=[1, 1, 1, 1]);\n";
    text += "  " + add + " = add(" + conv + ", %b);\n";
    if (block + 1 == blocks) {
      text += "  nn.relu(" + add + ")\n}\n";
    } else {
      value = "%" + std::to_string(3 * block + 2);
      text += "  " + value + " = nn.relu(" + add + ");\n";
    }
  }
  const QString path = dir.filePath(QStringLiteral("chain.relay"));
  QFile file(path);
  if (!file.open(QIODevice::WriteOnly) || file.write(text.data(), static_cast<qint64>(text.size())) < 0) qFatal("cannot write %s", qPrintable(path));
  return path;
}

/// The pass names of the timeline's steps.
QStringList stepNames(const MainWindow& window) {
  QStringList names;
  for (int row = 0; row < window.snapshotModel()->rowCount(); ++row)
    names << window.snapshotModel()->index(row, 1).data().toString();
  return names;
}

/// The line of the IR text the cursor is on.
QString cursorLine(MainWindow& window) { return window.irText()->textCursor().block().text(); }

/// The nodes of `model` titled `title`, in build order.
QList<int> titled(const GraphModel& model, const QString& title) {
  QList<int> nodes;
  for (const GraphNode& node : model.nodes())
    if (node.kind != GraphNodeKind::Stub && node.title == title) nodes << node.id;
  return nodes;
}

}  // namespace

/// The main window: opening, linked panels, search, export, timeline and overlays.
class TestMainWindow : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QSettings().clear();
  }

  // Run Passes opens the steps at the result; a run for another target or flow keeps the pass
  // shown, wherever it now is in the list, and falls back to the result when the flow has no such pass.
  void theTimelineKeepsThePassShown() {
    MainWindow window;
    window.resize(1200, 800);
    window.show();
    QVERIFY(openAndLayOut(window, {}));
    QSignalSpy stepsOpened(&window, &MainWindow::stepsOpened);
    auto passShown = [&window] {
      const int step = window.timeline()->currentStep();
      return window.timeline()->stepList()->model()->index(step, 1).data().toString();
    };
    auto stepOf = [&window](const QString& pass) {
      QAbstractItemModel* steps = window.timeline()->stepList()->model();
      for (int row = 0; row < steps->rowCount(); ++row)
        if (steps->index(row, 1).data().toString() == pass) return row;
      return -1;
    };
    window.runPartition(QStringList{QStringLiteral("byoc-target")}, QStringLiteral("relay"));
    QVERIFY(stepsOpened.wait(20000));
    QCOMPARE(window.timeline()->currentStep(), window.timeline()->stepList()->model()->rowCount() - 1);
    QCOMPARE(passShown(), QStringLiteral("PartitionGraph"));

    window.timeline()->setCurrentStep(stepOf(QStringLiteral("AnnotateTarget")));
    const int before = window.timeline()->currentStep();
    window.runPartition(QStringList{QStringLiteral("dnnl")}, QStringLiteral("relay"));  // its preparation comes first
    QVERIFY(stepsOpened.wait(20000));
    QCOMPARE(passShown(), QStringLiteral("AnnotateTarget"));
    QVERIFY(window.timeline()->currentStep() != before);

    window.runPartition(QStringList{QStringLiteral("dnnl")}, QStringLiteral("relax"));  // no AnnotateTarget there
    QVERIFY(stepsOpened.wait(20000));
    QCOMPARE(window.timeline()->currentStep(), window.timeline()->stepList()->model()->rowCount() - 1);

    window.timeline()->setCurrentStep(0);
    window.runPartition(QStringList{QStringLiteral("byoc-target")}, QStringLiteral("relay"));
    QVERIFY(stepsOpened.wait(20000));
    QCOMPARE(window.timeline()->currentStep(), 0);
  }

  // Ctrl+C on the graph copies the selected node's properties, as the Properties dock lists them.
  void ctrlCCopiesTheSelectedNode() {
    MainWindow window;
    window.resize(1200, 800);
    window.show();
    QVERIFY(openAndLayOut(window, {}));
    GraphPage* page = window.mainPage();
    QVERIFY(page->search(QStringLiteral("conv2d"), false) > 0);
    QVERIFY(page->scene()->selectedNode() >= 0);
    QApplication::clipboard()->clear();
    window.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&window));
    page->view()->setFocus();
    QTest::keyClick(page->view(), Qt::Key_C, Qt::ControlModifier);
    const QString copied = QApplication::clipboard()->text();
    QVERIFY2(copied.contains(QStringLiteral("Op: nn.conv2d")), qPrintable(copied));
    QVERIFY2(copied.contains(QStringLiteral("Kind: op call")), qPrintable(copied));
  }

  // A key bound to two commands of the window does nothing ("Ambiguous shortcut overload"):
  // every key the window's actions and shortcuts answer to names one command, on every platform's
  // standard bindings, and Redo answers to both Ctrl+Shift+Z and Ctrl+Y, Find Next to F3.
  void everyKeyBindsOneCommand() {
    MainWindow window;
    window.resize(1200, 800);
    window.show();
    QVERIFY(openAndLayOut(window, {}));
    std::map<QString, QStringList> owners;  // key → what answers to it
    for (QAction* action : window.findChildren<QAction*>()) {
      if (action->shortcutContext() == Qt::WidgetShortcut) continue;
      for (const QKeySequence& key : action->shortcuts()) owners[key.toString()] << action->text();
    }
    for (QShortcut* shortcut : window.findChildren<QShortcut*>()) {
      if (shortcut->context() == Qt::WidgetShortcut) continue;
      for (const QKeySequence& key : shortcut->keys()) owners[key.toString()] << QStringLiteral("shortcut of ") + shortcut->parent()->metaObject()->className();
    }
    for (const auto& [key, names] : owners) {
      QVERIFY2(names.size() == 1, qPrintable(key + QStringLiteral(": ") + names.join(QStringLiteral(", "))));
    }
    auto* redo = window.findChild<QAction*>(QStringLiteral("redoAction"));
    QVERIFY(redo);
    QVERIFY(redo->shortcuts().contains(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z)));
    QVERIFY(redo->shortcuts().contains(QKeySequence(Qt::CTRL | Qt::Key_Y)));
    QVERIFY(owners.count(QKeySequence(Qt::Key_F3).toString()));
    QVERIFY(owners.count(QKeySequence(Qt::SHIFT | Qt::Key_F3).toString()));
    // Help → Keyboard Shortcuts lists them from the actions themselves.
    const QString list = shortcutListHtml(window);
    QVERIFY2(list.contains(QStringLiteral("<tr><td>Redo</td><td>Ctrl+Shift+Z, Ctrl+Y")), qPrintable(list));
    QVERIFY2(list.contains(QStringLiteral("<tr><td>Find Next</td><td>F3")), qPrintable(list));
    QVERIFY2(list.contains(QStringLiteral("<tr><td>Copy Node</td><td>Ctrl+C</td></tr>")), qPrintable(list));
  }

  // Help holds the guide and the references of the rule and pattern languages, read in the app:
  // each opens with its own text and its pictures, and a link to another goes there.
  void helpShowsTheGuideAndTheReferences() {
    MainWindow window;
    QStringList titles;
    for (QAction* action : window.menuBar()->actions())
      if (action->text() == QStringLiteral("&Help"))
        for (QAction* item : action->menu()->actions()) titles << item->text();
    QCOMPARE(titles.mid(0, 3), (QStringList{QStringLiteral("BYOC Studio &Guide"), QStringLiteral("&Pattern Language"),
                                            QStringLiteral("&Targets and Op-Support Rules")}));
    const QList<QPair<QString, QString>> expected{{QStringLiteral("app.md"), QStringLiteral("The desktop app")},
                                                  {QStringLiteral("patterns.md"), QStringLiteral("The pattern language")},
                                                  {QStringLiteral("targets.md"), QStringLiteral("Op-support rules")}};
    for (const auto& [file, text] : expected) {
      QWidget* shown = showHelpDocument(file, &window);
      auto* browser = shown->findChild<QTextBrowser*>();
      QVERIFY(browser);
      QVERIFY2(browser->toPlainText().contains(text), qPrintable(file));
      shown->close();
    }
    QWidget* guide = showHelpDocument(QStringLiteral("app.md"), &window);
    const QTextDocument* document = guide->findChild<QTextBrowser*>()->document();
    const QVariant picture = document->resource(QTextDocument::ImageResource, QUrl(QStringLiteral("images/studio-demo.png")));
    QVERIFY(!picture.isNull());
    guide->close();
  }

  // An edge can be selected: the Properties panel then describes the tensor it carries. Clicking
  // beside a long edge's curve selects nothing.
  void anEdgeShowsItsTensor() {
    MainWindow window;
    window.resize(1200, 800);
    window.show();
    QVERIFY(openAndLayOut(window, {}));
    GraphScene* scene = window.mainPage()->scene();
    EdgeItem* edge = nullptr;
    for (QGraphicsItem* item : scene->items())
      if (item->type() == EdgeItem::Type && static_cast<EdgeItem*>(item)->label().contains(u'\u00D7'))  // a tensor's shape
        edge = static_cast<EdgeItem*>(item);
    QVERIFY(edge);
    QVERIFY(!edge->shape().contains(edge->boundingRect().topLeft() + QPointF(-1, -1)));
    edge->setSelected(true);
    const GraphEdge& carried = window.mainPage()->model().edges()[edge->modelEdge()];
    std::map<QString, QString> rows;
    for (const Property& row : window.propertiesModel()->properties()) rows[row.first] = row.second;
    QCOMPARE(rows[QStringLiteral("Kind")], QStringLiteral("tensor"));
    QCOMPARE(rows[QStringLiteral("Shape")], carried.label);
    QCOMPARE(rows[QStringLiteral("From")], window.mainPage()->model().nodes()[carried.from].title);
    QVERIFY2(rows[QStringLiteral("Type")].startsWith(QStringLiteral("Tensor[")), qPrintable(rows[QStringLiteral("Type")]));
    scene->clearSelection();
    QVERIFY(window.propertiesModel()->properties().empty());
  }

  void demoOpensWithLinkedPanels() {
    MainWindow window;
    QAbstractItemModelTester treeTester(window.moduleTreeModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    QAbstractItemModelTester propertiesTester(window.propertiesModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    window.resize(1200, 800);
    window.show();
    QVERIFY(openAndLayOut(window, {}));
    QCOMPARE(window.windowTitle(), QStringLiteral("Demo — byoc-target — BYOC Studio"));
    QCOMPARE(window.moduleTreeModel()->dump(), QStringLiteral("main (function)\n  %while_loop (loop)\n"));
    QVERIFY(window.irText()->toPlainText().startsWith(QStringLiteral("#[version = \"0.0.5\"]")));

    // Graph → properties and text.
    GraphPage* page = window.mainPage();
    const int reshape = findTitle(page->model(), QStringLiteral("reshape"));
    page->scene()->selectNode(reshape);
    QCOMPARE(propertyValue(*window.propertiesModel(), QStringLiteral("Op")), QStringLiteral("reshape"));
    QCOMPARE(window.irText()->textCursor().blockNumber() + 1, 15);

    // Text → graph: a click on line 6 (the first conv2d) selects it.
    emit window.irText()->locationClicked(6, 20);
    const int conv = page->scene()->selectedNode();
    QVERIFY(conv >= 0);
    QCOMPARE(page->model().nodes()[conv].title, QStringLiteral("nn.conv2d"));
    QCOMPARE(propertyValue(*window.propertiesModel(), QStringLiteral("Source")), QStringLiteral("demo.relay:6:12"));

    // A click before the first call on a line selects that call.
    page->scene()->selectNode(reshape);
    emit window.irText()->locationClicked(6, 1);
    QCOMPARE(page->scene()->selectedNode(), conv);

    // Keyboard: Down goes to the consumer (bias_add), Up back to the producer.
    QVERIFY(page->view()->step(Qt::Key_Down));
    QCOMPARE(page->model().nodes()[page->scene()->selectedNode()].title, QStringLiteral("nn.bias_add"));
    QVERIFY(page->view()->step(Qt::Key_Up));
    QCOMPARE(page->scene()->selectedNode(), conv);
  }

  void layoutPlacesEveryNodeWithoutOverlaps() {
    MainWindow window;
    window.show();
    QVERIFY(openAndLayOut(window, {}));
    GraphScene* scene = window.mainPage()->scene();
    std::vector<QRectF> rects;
    for (const GraphNode& node : window.mainPage()->model().nodes()) {
      NodeItem* item = scene->itemOf(node.id);
      QVERIFY2(item, qPrintable(QStringLiteral("node %1 has no item").arg(node.id)));
      rects.push_back(item->sceneBoundingRect().adjusted(3, 3, -3, -3));
    }
    for (std::size_t i = 0; i < rects.size(); ++i) {
      for (std::size_t j = i + 1; j < rects.size(); ++j) QVERIFY(!rects[i].intersects(rects[j]));
    }
  }

  void groupsCollapseIntoOneNodeAndExpandAgain() {
    MainWindow window;
    window.show();
    QVERIFY(openAndLayOut(window, {}));
    GraphPage* page = window.mainPage();
    const int conv = findTitle(page->model(), QStringLiteral("nn.conv2d"));
    const int call = findTitle(page->model(), QStringLiteral("%while_loop"));
    // The first conv2d lies in the `then` box of the loop's if, inside the loop's box, group 0.
    const int branch = page->model().nodes()[conv].group;
    QCOMPARE(page->model().groups()[branch].label, QStringLiteral("then"));
    QCOMPARE(page->model().groups()[branch].parent, 0);
    QVERIFY(page->scene()->itemOf(conv)->unit() == conv);
    QSignalSpy laidOut(page, &GraphPage::layoutReady);
    QSignalSpy started(page, &GraphPage::layoutStarted);
    page->toggleGroup(0);
    QCOMPARE(laidOut.count(), 1);  // folded in place at once
    QCOMPARE(page->scene()->itemOf(conv)->unit(), -1);  // drawn by the collapsed group's node
    QCOMPARE(page->scene()->itemOf(call)->unit(), call);
    page->toggleGroup(0);
    QCOMPARE(laidOut.count(), 2);  // the picture from before, at once
    QCOMPARE(page->scene()->itemOf(conv)->unit(), conv);
    QCOMPARE(started.count(), 0);
  }

  void viewMenuLaysOutAndFoldsTheGraphInFront() {
    MainWindow window;
    window.show();
    QVERIFY(openAndLayOut(window, {}));
    GraphPage* page = window.mainPage();
    auto action = [&](const QString& text) -> QAction* {
      for (QAction* candidate : window.findChildren<QAction*>())
        if (candidate->text() == text) return candidate;
      return nullptr;
    };
    QAction* relayout = action(QStringLiteral("&Re-layout"));
    QAction* collapseAll = action(QStringLiteral("C&ollapse All Groups"));
    QVERIFY(relayout && collapseAll);
    QSignalSpy laidOut(page, &GraphPage::layoutReady);
    QSignalSpy started(page, &GraphPage::layoutStarted);
    relayout->trigger();
    QVERIFY(laidOut.wait(10000));
    QCOMPARE(started.count(), 1);
    collapseAll->trigger();
    QVERIFY(laidOut.wait(10000));
    QCOMPARE(started.count(), 2);
    QVERIFY(std::all_of(page->collapsed().begin(), page->collapsed().end(), [](bool folded) { return folded; }));
  }

  void zoomIsClampedAndFitNeverEnlarges() {
    MainWindow window;
    QVERIFY(showAndOpen(window, {}));
    GraphView* view = window.mainPage()->view();
    QSignalSpy zoomed(view, &GraphView::zoomChanged);
    view->setZoom(100);
    QCOMPARE(view->zoom(), 4.0);
    view->setZoom(0.0001);
    QCOMPARE(view->zoom(), 0.02);
    QCOMPARE(zoomed.count(), 2);
    view->fitAll();
    QVERIFY(view->zoom() <= 1.0);
    QVERIFY(view->zoom() > 0.02);
    QRectF visible = view->mapToScene(view->viewport()->rect()).boundingRect();
    QVERIFY(visible.adjusted(-1, -1, 1, 1).contains(window.mainPage()->scene()->itemsBoundingRect()));
  }

  void searchSelectsMatchesInTurn() {
    MainWindow window;
    window.show();
    QVERIFY(openAndLayOut(window, {}));
    GraphPage* page = window.mainPage();
    QCOMPARE(page->search(QStringLiteral("conv2d"), false), 2);
    const int first = page->scene()->selectedNode();
    QCOMPARE(page->model().nodes()[first].title, QStringLiteral("nn.conv2d"));
    page->findNext();
    QVERIFY(page->scene()->selectedNode() != first);
    page->findNext();
    QCOMPARE(page->scene()->selectedNode(), first);
    page->findNext(true);
    page->findNext(true);
    QCOMPARE(page->scene()->selectedNode(), first);
    QCOMPARE(page->search(QStringLiteral("(relu"), true), 0);
  }

  /// Writes the window's main graph to `path` as File → Export Graph Image does, on this thread.
  static bool writeImage(MainWindow& window, const QString& path, QString* error) {
    return writeGraphImage(window.mainPage()->record(), path, graphImageFormatOf(path), 2.0, {}, error);
  }

  void exportWritesValidSvgAndPng() {
    MainWindow window;
    window.show();
    QVERIFY(openAndLayOut(window, {}));
    QTemporaryDir dir;
    QString error;
    const QString svg = dir.filePath(QStringLiteral("graph.svg"));
    QVERIFY2(writeImage(window, svg, &error), qPrintable(error));
    QFile file(svg);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QXmlStreamReader xml(&file);
    bool sawSvgRoot = false;
    while (!xml.atEnd()) {
      if (xml.readNext() == QXmlStreamReader::StartElement && !sawSvgRoot) sawSvgRoot = xml.name() == u"svg";
    }
    QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
    QVERIFY(sawSvgRoot);
    QVERIFY(QSvgRenderer(svg).isValid());
    const QString png = dir.filePath(QStringLiteral("graph.png"));
    QVERIFY2(writeImage(window, png, &error), qPrintable(error));
    QImage image(png);
    QVERIFY(!image.isNull());
    QVERIFY(image.width() > 200);
    QVERIFY(!writeImage(window, dir.filePath(QStringLiteral("missing/graph.svg")), &error));
    QCOMPARE(error, QStringLiteral("cannot create a temporary file beside it: No such file or directory"));
  }

  // The window's export records the graph, then draws, encodes and writes it on the job pool,
  // reporting progress; a cancelled one writes nothing.
  void exportRunsOffTheWindowsThread() {
    MainWindow window;
    window.show();
    QVERIFY(openAndLayOut(window, {}));
    QTemporaryDir dir;
    GraphImageJob job(&window);
    QSignalSpy finished(&job, &GraphImageJob::finished);
    const QString png = dir.filePath(QStringLiteral("graph.png"));
    job.start(*window.mainPage(), png);
    QVERIFY(job.isRunning());
    QVERIFY(finished.wait(20000));
    QCOMPARE(finished.first().at(0).toString(), png);
    QCOMPARE(finished.first().at(1).toString(), QString());
    const QImage image(png);
    QVERIFY(!image.isNull());
    QString error;
    QVERIFY(writeImage(window, dir.filePath(QStringLiteral("same.png")), &error));
    QCOMPARE(image, QImage(dir.filePath(QStringLiteral("same.png"))));

    std::vector<int> reported;
    auto stopAtOnce = [&reported](int percent) {
      reported.push_back(percent);
      return false;
    };
    const QString cancelled = dir.filePath(QStringLiteral("cancelled.png"));
    QVERIFY(!writeGraphImage(window.mainPage()->record(), cancelled, GraphImageFormat::Png, 2.0, stopAtOnce, &error));
    QCOMPARE(error, QStringLiteral("cancelled"));
    QCOMPARE(reported.size(), std::size_t(1));
    QVERIFY(!QFile::exists(cancelled));
    auto keepGoing = [&reported](int percent) {
      reported.push_back(percent);
      return true;
    };
    reported.clear();
    QVERIFY(writeGraphImage(window.mainPage()->record(), cancelled, GraphImageFormat::Svg, 2.0, keepGoing, &error));
    QVERIFY(std::is_sorted(reported.begin(), reported.end()));
    QCOMPARE(reported.back(), 100);
  }

  /// The graph's images are written as every output is (support/file_io.h): a replaced image keeps
  /// its mode, a link is written through, a device is never replaced and its write error is shown.
  void graphImagesAreWrittenAsEveryOutput() {
    MainWindow window;
    window.show();
    QVERIFY(openAndLayOut(window, {}));
    QTemporaryDir dir;
    QString error;
    const QString svg = dir.filePath(QStringLiteral("graph.svg"));
    QVERIFY2(writeImage(window, svg, &error), qPrintable(error));
    QVERIFY(QFile::setPermissions(svg, QFile::ReadOwner | QFile::WriteOwner));
    QVERIFY(QFile::link(QStringLiteral("graph.svg"), dir.filePath(QStringLiteral("link.svg"))));
    QVERIFY2(writeImage(window, dir.filePath(QStringLiteral("link.svg")), &error), qPrintable(error));
    QVERIFY(QFileInfo(dir.filePath(QStringLiteral("link.svg"))).isSymLink());
    struct stat image {};
    QCOMPARE(::stat(svg.toLocal8Bit().constData(), &image), 0);
    QCOMPARE(image.st_mode & 0777, mode_t(0600));
    QVERIFY(QSvgRenderer(svg).isValid());
    QVERIFY(!writeImage(window, dir.path(), &error));
    QCOMPARE(error, QStringLiteral("is a directory; not writing over it"));
    struct stat before {};
    if (::stat("/dev/full", &before) != 0 || !S_ISCHR(before.st_mode)) QSKIP("/dev/full is not a character device here");
    QVERIFY(!writeImage(window, QStringLiteral("/dev/full"), &error));
    QCOMPARE(error, QStringLiteral("write failed: No space left on device"));
    struct stat after {};
    QCOMPARE(::stat("/dev/full", &after), 0);
    QVERIFY(S_ISCHR(after.st_mode));
    QCOMPARE(after.st_rdev, before.st_rdev);
  }

  void badFileIsReportedInDiagnostics() {
    MainWindow window;
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("broken.relay"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("#[version = \"0.0.5\"]\ndef @main(%x: float32) {\n  nn.relu(%x,\n}\n");
    file.close();
    QSignalSpy failed(&window, &MainWindow::openFailed);
    window.openFile(path);
    QVERIFY(failed.wait(10000));
    QCOMPARE(window.diagnosticsModel()->rowCount(), 1);
    QCOMPARE(window.diagnosticsModel()->index(0, 2).data().toString(), QStringLiteral("found '}', expected an expression"));
    QVERIFY(window.diagnosticsModel()->index(0, 1).data().toString().endsWith(QStringLiteral("broken.relay:4:1")));
    QVERIFY(!window.mainPage());
  }

  void openedFilesBecomeRecent() {
    MainWindow window;
    const QString path = QString::fromStdString(testing::testDataPath(QStringLiteral("ui/steps/0_loaded.relay")));
    QVERIFY(openAndLayOut(window, path));
    QCOMPARE(QSettings().value(QStringLiteral("recentFiles")).toStringList().value(0), QFileInfo(path).absoluteFilePath());
  }

  void droppedFilesOpen() {
    MainWindow window;
    const QString path = QString::fromStdString(testing::testDataPath(QStringLiteral("ui/composite.relay")));
    QMimeData data;
    data.setUrls({QUrl::fromLocalFile(path)});
    QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, &data, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(&window, &enter);
    QVERIFY(enter.isAccepted());
    QSignalSpy opened(&window, &MainWindow::opened);
    QDropEvent drop(QPointF(10, 10), Qt::CopyAction, &data, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(&window, &drop);
    QVERIFY(opened.wait(10000));
    QCOMPARE(window.document()->title, QStringLiteral("composite.relay"));
  }

  void timelineDrawsEachStepOnTheLoadedGraph() {
    MainWindow window;
    QAbstractItemModelTester regionTester(window.regionModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    QAbstractItemModelTester stepTester(window.snapshotModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    window.show();
    const QString path = QString::fromStdString(testing::testDataPath(QStringLiteral("ui/steps/0_loaded.relay")));
    QVERIFY(openAndLayOut(window, path));
    const Module& loaded = window.document()->module;
    std::vector<Snapshot> steps{{QStringLiteral("loaded"), loaded, false, 0}};
    const char* const names[] = {"MergeComposite", "AnnotateTarget", "MergeCompilerRegions", "PartitionGraph"};
    const char* const files[] = {"1_merge_composite", "2_annotate_target", "3_merge_compiler_regions", "4_partition_graph"};
    for (int i = 0; i < 4; ++i) {
      Module module = testing::snapshotFromText(testing::readTestData(QStringLiteral("ui/steps/%1.relay").arg(QLatin1String(files[i]))), loaded);
      steps.push_back({QString::fromLatin1(names[i]), module, true, 1.0});
    }
    window.setSnapshots(steps);
    QCOMPARE(window.timeline()->currentStep(), 0);
    GraphScene* scene = window.mainPage()->scene();
    QCOMPARE(scene->hullCount(), 0);

    // Expected rows of the region list per step, (label, node count), a composite inside a region
    // listed under it; and the hulls drawn.
    const QPair<QString, int> composite{QStringLiteral("byoc-target.conv2d_relu_with_bias"), 3};
    const QList<QList<QPair<QString, int>>> expected{
        {},
        {composite},
        {composite},
        {{QStringLiteral("byoc-target #0"), 4}, {QStringLiteral("byoc-target #1"), 1}},
        {{QStringLiteral("tvmgen_default_byoc_target_main_0"), 4}, {QStringLiteral("tvmgen_default_byoc_target_main_2"), 1}},
    };
    const int hulls[] = {0, 1, 1, 3, 3};
    for (int step = 0; step < 5; ++step) {
      window.timeline()->setCurrentStep(step);
      QCOMPARE(window.regionModel()->rowCount(), static_cast<int>(expected[step].size()));
      QCOMPARE(scene->hullCount(), hulls[step]);
      for (int row = 0; row < expected[step].size(); ++row) {
        QCOMPARE(window.regionModel()->index(row, 0).data().toString(), expected[step][row].first);
        QCOMPARE(window.regionModel()->index(row, 3).data().toInt(), expected[step][row].second);
      }
      if (step >= 3) {
        const QModelIndex holder = window.regionModel()->index(0, 0);
        QCOMPARE(window.regionModel()->rowCount(holder), 1);
        QCOMPARE(window.regionModel()->index(0, 0, holder).data().toString(), composite.first);
        QCOMPARE(window.regionModel()->index(0, 3, holder).data().toInt(), composite.second);
      }
    }
    // After PartitionGraph the module tree shows the outlined functions; each opens in its own tab.
    QVERIFY(window.moduleTreeModel()->dump().contains(QStringLiteral("tvmgen_default_byoc_target_main_2 (external (byoc-target))")));
    GraphPage* outlined = window.openFunctionTab(QStringLiteral("tvmgen_default_byoc_target_main_2"));
    QVERIFY(outlined);
    QCOMPARE(findTitle(outlined->model(), QStringLiteral("reshape")) >= 0, true);
    QCOMPARE(window.pageCount(), 2);
    GraphPage* partitioned = window.openStepTab(4);
    QVERIFY(partitioned);
    QCOMPARE(window.pageCount(), 3);
    // Double-clicking the call of an outlined function opens it; other nodes open nothing.
    GraphPage* callee = window.activateNode(partitioned, findTitle(partitioned->model(), QStringLiteral("@tvmgen_default_byoc_target_main_0")));
    QVERIFY(callee);
    QCOMPARE(callee->model().name(), QStringLiteral("tvmgen_default_byoc_target_main_0"));
    QCOMPARE(window.pageCount(), 4);
    QVERIFY(!window.activateNode(partitioned, findTitle(partitioned->model(), QStringLiteral("tanh"))));

    // Clicking a region selects its nodes on the loaded graph.
    window.timeline()->setCurrentStep(3);
    window.selectRegion(window.regionModel()->index(0, 0));
    QCOMPARE(scene->selectedItems().size(), 4);
  }

  void savedStepsOpenInTheTimeline() {
    MainWindow window;
    window.show();
    QVERIFY(openAndLayOut(window, {}));
    QTemporaryDir dir;
    QStringList paths;
    for (const char* name : {"demo_annotate_target", "demo_partition_graph"}) {
      Module step = testing::snapshotFromText(testing::readTestData(QStringLiteral("ui/steps/%1.relay").arg(QLatin1String(name))),
                                              window.document()->module);
      paths << dir.filePath(QLatin1String(name) + QStringLiteral(".json"));
      QFile file(paths.last());
      QVERIFY(file.open(QIODevice::WriteOnly));
      file.write(QByteArray::fromStdString(saveModuleJson(step)));
    }
    QSignalSpy opened(&window, &MainWindow::stepsOpened);
    window.openSteps(paths);
    QVERIFY(opened.wait(10000));
    QCOMPARE(window.snapshotModel()->rowCount(), 3);
    QCOMPARE(window.snapshotModel()->index(1, 1).data().toString(), QStringLiteral("demo_annotate_target"));
    QCOMPARE(window.snapshotModel()->index(2, 3).data().toString(), QStringLiteral("+3 functions, \u221226 annotations, +3 calls"));
    window.timeline()->setCurrentStep(2);
    QCOMPARE(window.regionModel()->rowCount(), 3);  // the partitions, holding the composites
    QCOMPARE(window.regionModel()->index(2, 0).data().toString(), QStringLiteral("tvmgen_default_byoc_target_main_5"));
    QCOMPARE(window.regionModel()->index(2, 3).data().toInt(), 4);

    QSignalSpy failed(&window, &MainWindow::openFailed);
    window.openSteps({dir.filePath(QStringLiteral("missing.json"))});
    QVERIFY(failed.wait(10000));
    QVERIFY2(failed.first().first().toString().endsWith(QStringLiteral("missing.json: cannot open: No such file or directory")),
             qPrintable(failed.first().first().toString()));
    QVERIFY2(window.statusBar()->currentMessage().startsWith(QStringLiteral("Could not read the pass steps: ")),
             qPrintable(window.statusBar()->currentMessage()));
    QCOMPARE(window.snapshotModel()->rowCount(), 3);
  }

  void thePassesRunOnTheOpenModelStepByStep() {
    MainWindow window;
    window.show();
    QVERIFY(openAndLayOut(window, {}));
    QSignalSpy opened(&window, &MainWindow::stepsOpened);
    window.runPartition({QStringLiteral("byoc-target")}, QStringLiteral("relay"));
    QVERIFY(opened.wait(20000));
    QStringList passes;
    for (int row = 0; row < window.snapshotModel()->rowCount(); ++row) passes << window.snapshotModel()->index(row, 1).data().toString();
    QCOMPARE(passes, (QStringList{QStringLiteral("loaded"), QStringLiteral("MergeComposite"), QStringLiteral("AnnotateTarget"),
                                  QStringLiteral("MergeCompilerRegions"), QStringLiteral("PartitionGraph")}));
    // After PartitionGraph: seed 000's three partitions on the loaded graph, the two composites inside them.
    window.timeline()->setCurrentStep(4);
    QStringList regions;
    int composites = 0;
    for (int row = 0; row < window.regionModel()->rowCount(); ++row) {
      const QModelIndex partition = window.regionModel()->index(row, 0);
      regions << partition.data().toString() + QStringLiteral(":") + window.regionModel()->index(row, 3).data().toString();
      composites += window.regionModel()->rowCount(partition);
    }
    QCOMPARE(regions, (QStringList{QStringLiteral("tvmgen_default_byoc_target_main_0:1"),
                                   QStringLiteral("tvmgen_default_byoc_target_main_2:3"),
                                   QStringLiteral("tvmgen_default_byoc_target_main_5:4")}));
    QCOMPARE(composites, 2);

    QSignalSpy failed(&window, &MainWindow::openFailed);
    window.runPartition({QStringLiteral("no-such-target")}, QStringLiteral("relay"));
    QVERIFY(!failed.isEmpty() || failed.wait(10000));
    QVERIFY2(failed.first().first().toString().startsWith(QStringLiteral("unknown target 'no-such-target'")),
             qPrintable(failed.first().first().toString()));
    // The status bar says what failed.
    QVERIFY2(window.statusBar()->currentMessage().startsWith(QStringLiteral("Could not load the target: unknown target")),
             qPrintable(window.statusBar()->currentMessage()));
    failed.clear();
    window.runPartition(QStringLiteral("tflite"));
    QVERIFY(failed.wait(10000));
    QVERIFY2(window.statusBar()->currentMessage().startsWith(QStringLiteral("Partitioning failed: ")),
             qPrintable(window.statusBar()->currentMessage()));
  }

  void irTextFollowsTheSelectedStep() {
    MainWindow window;
    window.show();
    const QString path = QString::fromStdString(testing::testDataPath(QStringLiteral("ui/steps/0_loaded.relay")));
    QVERIFY(openAndLayOut(window, path));
    const QString source = window.irText()->toPlainText();
    QVERIFY(source.startsWith(QStringLiteral("#[version = \"0.0.5\"]")));
    QSignalSpy opened(&window, &MainWindow::stepsOpened);
    window.runPartition({QStringLiteral("byoc-target")}, QStringLiteral("relay"));
    QVERIFY(opened.wait(20000));
    QCOMPARE(window.snapshotModel()->index(4, 1).data().toString(), QStringLiteral("PartitionGraph"));

    // At PartitionGraph the text is that step's module: the outlined functions and their calls.
    window.timeline()->setCurrentStep(4);
    QTRY_VERIFY(window.irText()->toPlainText().contains(QStringLiteral("def @tvmgen_default_byoc_target_main_0(")));
    const QString partitioned = window.irText()->toPlainText();
    QVERIFY(partitioned.contains(QStringLiteral("@tvmgen_default_byoc_target_main_0(%")));
    QVERIFY(partitioned.contains(QStringLiteral("@tvmgen_default_byoc_target_main_4(")));

    // A node of the loaded graph shows in the step's text through its origin: tanh, in its region.
    GraphPage* page = window.mainPage();
    const int tanh = findTitle(page->model(), QStringLiteral("tanh"));
    page->scene()->selectNode(tanh);
    QVERIFY2(cursorLine(window).contains(QStringLiteral("tanh(")), qPrintable(cursorLine(window)));
    // And a click on a line of the step's text selects the loaded node it derives from.
    const QPair<int, int> reshape = lineOf(partitioned, QStringLiteral("reshape("));
    QVERIFY(reshape.first > 0);
    emit window.irText()->locationClicked(reshape.first, reshape.second + 2);
    QCOMPARE(page->scene()->selectedNode(), findTitle(page->model(), QStringLiteral("reshape")));

    // Back at step 0 the text is the model's own source again, linked as before.
    window.timeline()->setCurrentStep(0);
    QCOMPARE(window.irText()->toPlainText(), source);
    page->scene()->selectNode(tanh);
    QCOMPARE(cursorLine(window).trimmed(), QStringLiteral("%4 = tanh(%3);"));
    QCOMPARE(window.irText()->textCursor().blockNumber() + 1, 7);
  }

  /// conv_net.onnx is conv_net.textproto encoded by
  /// `protoc --encode=onnx.ModelProto -I/usr/include onnx/onnx.proto < conv_net.textproto`.
  void onnxNodesAndTheirTextSelectEachOther() {
    MainWindow window;
    window.show();
    QVERIFY(openAndLayOut(window, QString::fromStdString(testing::testDataPath(QStringLiteral("ui/conv_net.onnx")))));
    GraphPage* page = window.mainPage();
    const QString text = window.irText()->toPlainText();
    QVERIFY2(text.contains(QStringLiteral("  %2 = nn.relu(%1);\n")), qPrintable(text));

    // Graph → text: the cursor goes to the node's own line, the whole node highlighted.
    const QList<int> relus = titled(page->model(), QStringLiteral("nn.relu"));
    QCOMPARE(relus.size(), 2);
    page->scene()->selectNode(relus[1]);
    QCOMPARE(cursorLine(window), QStringLiteral("  %5 = nn.relu(%4);"));
    QCOMPARE(window.irText()->textCursor().positionInBlock(), 2);
    page->scene()->selectNode(findTitle(page->model(), QStringLiteral("tanh")));
    QCOMPARE(cursorLine(window), QStringLiteral("  tanh(%5)"));

    // Text → graph: a click anywhere on a node's line selects it; the text keeps its cursor.
    const QList<int> biases = titled(page->model(), QStringLiteral("nn.bias_add"));
    QCOMPARE(biases.size(), 2);
    const QPair<int, int> second = lineOf(text, QStringLiteral("%4 = nn.bias_add"));
    emit window.irText()->locationClicked(second.first, 1);
    QCOMPARE(page->scene()->selectedNode(), biases[1]);
    emit window.irText()->locationClicked(second.first, second.second + 8);
    QCOMPARE(page->scene()->selectedNode(), biases[1]);
    emit window.irText()->locationClicked(lineOf(text, QStringLiteral("%1 = nn.bias_add")).first, 30);
    QCOMPARE(page->scene()->selectedNode(), biases[0]);

    // The same at PartitionGraph, where the text is the partitioned module.
    QSignalSpy opened(&window, &MainWindow::stepsOpened);
    window.runPartition({QStringLiteral("byoc-target")}, QStringLiteral("relay"));
    QVERIFY(opened.wait(20000));
    window.timeline()->setCurrentStep(4);
    QTRY_VERIFY(window.irText()->toPlainText().contains(QStringLiteral("@tvmgen_default_byoc_target_main_")));
    const QString partitioned = window.irText()->toPlainText();
    QVERIFY(partitioned != text);
    page->scene()->selectNode(relus[1]);
    QVERIFY2(cursorLine(window).contains(QStringLiteral("nn.relu(")), qPrintable(cursorLine(window)));
    QVERIFY(cursorLine(window) != QStringLiteral("  %5 = nn.relu(%4);"));  // in an outlined function, not the loaded text
    const QPair<int, int> tanh = lineOf(partitioned, QStringLiteral("tanh("));
    QVERIFY(tanh.first > 0);
    emit window.irText()->locationClicked(tanh.first, tanh.second);
    QCOMPARE(page->scene()->selectedNode(), findTitle(page->model(), QStringLiteral("tanh")));

    // An outlined function's tab shows that function's text, linked to its own nodes.
    const QRegularExpressionMatch name = QRegularExpression(QStringLiteral("def @(tvmgen_\\w+)")).match(partitioned);
    QVERIFY(name.hasMatch());
    GraphPage* outlined = window.openFunctionTab(name.captured(1));
    QVERIFY(outlined);
    QVERIFY(outlined->isLaidOut() || QSignalSpy(outlined, &GraphPage::layoutReady).wait(20000));
    QVERIFY(window.irText()->toPlainText().startsWith(QStringLiteral("#[version = \"0.0.5\"]\nfn (")));
    const int conv = findTitle(outlined->model(), QStringLiteral("nn.conv2d"));
    outlined->scene()->selectNode(conv);
    QVERIFY2(cursorLine(window).contains(QStringLiteral("nn.conv2d(")), qPrintable(cursorLine(window)));
    outlined->scene()->selectNode(-1);
    emit window.irText()->locationClicked(window.irText()->textCursor().blockNumber() + 1, 1);
    QCOMPARE(outlined->scene()->selectedNode(), conv);
  }

  void notesOfAnEarlierRunGoWhenTheStepsAreRecomputed() {
    MainWindow window;
    window.show();
    QVERIFY(openAndLayOut(window, {}));
    QSignalSpy steps(&window, &MainWindow::stepsOpened);
    window.runPartition({QStringLiteral("byoc-target")}, QStringLiteral("relay"));
    QVERIFY(steps.wait(20000));
    const int last = window.snapshotModel()->rowCount() - 1;
    window.timeline()->setCurrentStep(last);
    GraphScene* scene = window.mainPage()->scene();
    const QString function = QStringLiteral("tvmgen_default_byoc_target_main_0");
    emit window.runPanel()->regionNotesChanged({{function, QStringLiteral("1.25 ms")}});
    QCOMPARE(scene->overlay().hullNotes.at(function), QStringLiteral("1.25 ms"));

    // The passes run again (as after an edit of the target): the functions may be others now.
    window.runPartition(QStringLiteral("relay"));
    QVERIFY(steps.wait(20000));
    QVERIFY(scene->overlay().hullNotes.empty());
    window.timeline()->setCurrentStep(last);
    QVERIFY(scene->overlay().hullNotes.empty());
  }

  void cancelStopsAPartitionOfALargeModelAndKeepsTheSteps() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    MainWindow window;
    window.show();
    QSignalSpy opened(&window, &MainWindow::opened);
    window.openFile(writeChainModel(dir, 20000));
    QVERIFY(opened.wait(120000));
    window.mainPage()->cancelLayout();  // not needed here

    // Steps to keep.
    QSignalSpy steps(&window, &MainWindow::stepsOpened);
    window.runPartition({QStringLiteral("dnnl")}, QStringLiteral("relay"));
    QVERIFY(steps.wait(120000));
    const QStringList shown = stepNames(window);
    QCOMPARE(shown.size(), 11);
    window.timeline()->setCurrentStep(5);

    // Run again and cancel as soon as the first pass reports.
    StepsJob* job = window.stepsJob();
    QStringList progress;
    bool byEscape = false;
    connect(job, &StepsJob::progressed, &window, [&](const QString& text) {
      progress << text;
      if (progress.size() != 2) return;
      QVERIFY(job->progressBar()->isVisible());
      QCOMPARE(job->progressBar()->maximum(), 10);
      if (byEscape) QTest::keyClick(&window, Qt::Key_Escape);
      else QTest::mouseClick(job->cancelButton(), Qt::LeftButton);
    });
    QSignalSpy cancelled(job, &StepsJob::cancelled);
    QSignalSpy failed(job, &StepsJob::failed);
    window.runPartition(QStringLiteral("relay"));
    QVERIFY(job->isRunning());
    QVERIFY(cancelled.wait(120000));
    QVERIFY(progress.size() >= 2);
    QCOMPARE(progress[0], QStringLiteral("Partitioning for dnnl (relay)…"));
    QVERIFY2(QRegularExpression(QStringLiteral("^Partitioning for dnnl: \\w+ \\(1 of 10\\)$")).match(progress[1]).hasMatch(),
             qPrintable(progress[1]));
    QCOMPARE(steps.size(), 1);  // no new steps
    QVERIFY(failed.isEmpty());
    QCOMPARE(stepNames(window), shown);
    QCOMPARE(window.timeline()->currentStep(), 5);
    QCOMPARE(window.diagnosticsModel()->rowCount(), 0);
    QCOMPARE(window.statusBar()->currentMessage(), QStringLiteral("Partitioning cancelled"));
    QVERIFY(!job->progressBar()->isVisible());
    QVERIFY(!job->isRunning());

    // Esc cancels too.
    QVERIFY(QTest::qWaitForWindowActive(&window));
    progress.clear();
    byEscape = true;
    window.runPartition(QStringLiteral("relay"));
    QVERIFY(cancelled.wait(120000));
    QCOMPARE(progress.size(), 2);
    QCOMPARE(steps.size(), 1);
    QCOMPARE(stepNames(window), shown);
  }

  void anotherRunReplacesTheRunningOne() {
    MainWindow window;
    window.show();
    QVERIFY(openAndLayOut(window, {}));
    QSignalSpy steps(&window, &MainWindow::stepsOpened);
    window.runPartition({QStringLiteral("dnnl")}, QStringLiteral("relay"));
    window.runPartition({QStringLiteral("byoc-target")}, QStringLiteral("relax"));
    QVERIFY(steps.wait(20000));
    jobPool()->waitForDone();  // the first run's result, had it been kept, is queued by now
    QCoreApplication::processEvents();
    QCOMPARE(steps.size(), 1);
    QCOMPARE(stepNames(window).mid(0, 2), (QStringList{QStringLiteral("loaded"), QStringLiteral("FuseOpsByPattern")}));
  }

  void theTimelineRowFollowsStepsFromTheKeyboard() {
    MainWindow window;
    window.resize(1200, 800);
    window.show();
    QVERIFY(openAndLayOut(window, {}));
    QSignalSpy opened(&window, &MainWindow::stepsOpened);
    window.runPartition({QStringLiteral("byoc-target")}, QStringLiteral("relay"));
    QVERIFY(opened.wait(20000));
    window.timeline()->setCurrentStep(0);  // the run opened at its result
    QTableView* list = window.timeline()->stepList();
    // Room for two rows of the nine.
    list->setFixedHeight(list->horizontalHeader()->height() + 2 * list->rowHeight(0) +
                         list->horizontalScrollBar()->sizeHint().height() + 2 * list->frameWidth());
    window.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&window));
    list->setFocus();
    for (int step = 1; step < window.snapshotModel()->rowCount(); ++step) {
      QTest::keyClick(QApplication::focusWidget(), Qt::Key_Right, Qt::AltModifier);
      QTRY_COMPARE(window.timeline()->currentStep(), step);  // a button's shortcut clicks it shortly after
      const QModelIndex row = window.snapshotModel()->index(step, 0);
      QCOMPARE(list->currentIndex().row(), step);
      QVERIFY(list->selectionModel()->isRowSelected(step, {}));
      QVERIFY2(list->viewport()->rect().contains(list->visualRect(row)), qPrintable(QString::number(step)));
    }
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_Left, Qt::AltModifier);
    QTRY_COMPARE(list->currentIndex().row(), window.snapshotModel()->rowCount() - 2);
  }

  void themeSwitchPersists() {
    MainWindow window;
    window.setTheme(Theme::Dark);
    QCOMPARE(QSettings().value(QStringLiteral("theme")).toString(), QStringLiteral("dark"));
    QCOMPARE(qApp->palette().color(QPalette::Window), QColor(0x2b, 0x2d, 0x30));
    // The latency chart follows the theme.
    QCOMPARE(window.runPanel()->chart()->backgroundColour(), graphPalette(Theme::Dark).background);
    window.setTheme(Theme::Light);
    QCOMPARE(QSettings().value(QStringLiteral("theme")).toString(), QStringLiteral("light"));
    QCOMPARE(window.runPanel()->chart()->backgroundColour(), graphPalette(Theme::Light).background);
  }
};

QTEST_MAIN(TestMainWindow)
#include "test_main_window.moc"
