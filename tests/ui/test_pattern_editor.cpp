#include <QAbstractItemModelTester>
#include <QCompleter>
#include <QLineEdit>
#include <QSettings>
#include <QTabWidget>
#include <QTableView>
#include <QToolButton>
#include <QDockWidget>
#include <QUndoStack>
#include <QtTest>
#include <algorithm>

#include "window/main_window.h"
#include "window/model_document.h"
#include "authoring/pattern_dock.h"
#include "authoring/pattern_highlighter.h"
#include "authoring/pattern_match_job.h"
#include "authoring/pattern_match_model.h"
#include "authoring/pattern_sketch.h"
#include "authoring/pattern_sketch_view.h"
#include "authoring/pattern_table_model.h"
#include "authoring/pattern_text_edit.h"
#include "authoring/rewrite_preview.h"
#include "authoring/target_document.h"
#include "graph/graph_legend.h"
#include "graph/graph_page.h"
#include "graph/graph_scene.h"
#include "pattern/pattern_parser.h"
#include "window_fixture.h"

using namespace byoc;
using namespace byoc::ui;
using namespace byoc::testing;

namespace {

/// Replaces the editor's text by typing `text`, and waits for the debounced parse.
bool typePattern(PatternDock& dock, const QString& text) {
  QSignalSpy parsed(&dock, &PatternDock::parsed);
  dock.editor()->selectAll();
  QTest::keyClick(dock.editor(), Qt::Key_Delete);
  const QStringList lines = text.split(u'\n');
  for (qsizetype i = 0; i < lines.size(); ++i) {
    if (i > 0) QTest::keyClick(dock.editor(), Qt::Key_Return);
    QTest::keyClicks(dock.editor(), lines[i]);
  }
  return parsed.wait(5000) || !parsed.isEmpty();
}

/// The titles of `nodes`, sorted and joined: what a match covers.
QString titles(const GraphModel& model, const std::vector<int>& nodes) {
  QStringList result;
  for (int node : nodes) result << model.nodes()[node].title;
  result.sort();
  return result.join(u',');
}

std::vector<int> nodesTitled(const GraphModel& model, const QString& title) {
  std::vector<int> result;
  for (const GraphNode& node : model.nodes()) {
    if (node.title == title) result.push_back(node.id);
  }
  return result;
}

}  // namespace

/// The pattern editor: table edits, drafts, live matches on the graph, errors in place, the
/// pattern's drawing and "Why not here?".
class TestPatternEditor : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QSettings().clear();
  }

  // -- the table model ------------------------------------------------------------------------

  void tableEditsGoIntoTheTarget() {
    TargetDocument document;
    QVERIFY(document.load(QStringLiteral("byoc-target")));
    PatternTableModel model(&document);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(model.rowCount(), 2);
    QCOMPARE(model.index(0, PatternTableModel::NameColumn).data().toString(),
             QStringLiteral("byoc-target.conv2d_relu_with_bias"));

    Result<int> added = model.addPattern(model.freshName(), QStringLiteral("nn.relu(*)"));
    QVERIFY(added);
    QCOMPARE(*added, 2);
    QCOMPARE(document.target().patterns.back().name, std::string("byoc-target.pattern_1"));
    QCOMPARE(model.freshName(), QStringLiteral("byoc-target.pattern_2"));
    QVERIFY(document.isModified());

    // Priority: the new row moves to the top, the others keep their order.
    QVERIFY(model.movePattern(2, -2));
    QCOMPARE(document.target().patterns[0].name, std::string("byoc-target.pattern_1"));
    QCOMPARE(document.target().patterns[1].name, std::string("byoc-target.conv2d_relu_with_bias"));
    QVERIFY(model.movePattern(0, 1));
    QCOMPARE(document.target().patterns[1].name, std::string("byoc-target.pattern_1"));
    QVERIFY(!model.movePattern(0, -1));
    QVERIFY(!model.movePattern(2, 1));

    QVERIFY(model.setData(model.index(1, PatternTableModel::NameColumn), QStringLiteral("mine.relu")));
    QCOMPARE(document.target().patterns[1].name, std::string("mine.relu"));
    QVERIFY(model.setCheck(1, QStringLiteral("dtype(arg0) == \"float32\"")));
    QCOMPARE(document.target().patterns[1].check->text(), std::string("dtype(arg0) == \"float32\""));
    const Status unknownFunction = model.setCheck(1, QStringLiteral("size(arg0) > 1"));
    QVERIFY(!unknownFunction);
    QVERIFY(unknownFunction.error().str().find("unknown function 'size'") != std::string::npos);
    QCOMPARE(document.target().patterns[1].check->text(), std::string("dtype(arg0) == \"float32\""));
    QVERIFY(model.setCheck(1, QString()));
    QVERIFY(!document.target().patterns[1].check);

    QVERIFY(model.removePattern(1));
    QCOMPARE(model.rowCount(), 2);
    QVERIFY(!model.removePattern(5));
  }

  void badEditsAreRefusedWithTheirMessage_data() {
    QTest::addColumn<QString>("what");
    QTest::addColumn<QString>("value");
    QTest::addColumn<QString>("message");
    QTest::newRow("empty name") << "name" << "  " << "a pattern needs a name";
    QTest::newRow("taken name") << "name" << "byoc-target.conv2d_relu_wo_bias"
                                << "another pattern is already called 'byoc-target.conv2d_relu_wo_bias'";
    QTest::newRow("bad check") << "check" << "groups ==" << "1:10: found the end of the condition, expected a value, a name or '('";
    QTest::newRow("function pattern") << "pattern" << "fn(..) { * }"
                                      << "<pattern>: expected a pattern of a call or another value, found a function "
                                         "pattern (nothing would call it)";
    QTest::newRow("syntax error") << "pattern" << "nn.relu(nn.conv2d(*, *)"
                                  << "<pattern>:1:24: found the end of the input, expected ',' or ')'";
  }

  void badEditsAreRefusedWithTheirMessage() {
    QFETCH(QString, what);
    QFETCH(QString, value);
    QFETCH(QString, message);
    TargetDocument document;
    QVERIFY(document.load(QStringLiteral("byoc-target")));
    const std::string before = serializeTarget(document.target());
    PatternTableModel model(&document);
    Status result = what == u"name"    ? model.rename(0, value)
                    : what == u"check" ? model.setCheck(0, value)
                                       : model.setPatternText(0, value);
    QVERIFY(!result);
    QCOMPARE(QString::fromStdString(result.error().str()), message);
    QCOMPARE(serializeTarget(document.target()), before);
    QVERIFY(!document.isModified());
    QCOMPARE(model.hasDraft(0), what == u"pattern");
    if (what == u"pattern") QCOMPARE(model.editorText(0), value);
  }

  // A row the target's codegen cannot build is flagged at its name, with what the codegen builds;
  // the dnnl codegen reads the kernel from the name after the target's prefix.
  void rowsTheCodegenCannotBuildAreFlagged() {
    TargetDocument document;
    QVERIFY(document.load(QStringLiteral("byoc-target")));
    Target mine = document.target();
    mine.codegen = "dnnl";
    document.update(mine);
    PatternTableModel model(&document);
    Result<int> row = model.addPattern(model.freshName(), QStringLiteral("nn.relu(nn.bias_add(nn.conv2d(*, *), *))"));
    QVERIFY(row.isOk());
    const QModelIndex name = model.index(*row, PatternTableModel::NameColumn);
    QVERIFY2(name.data(PatternTableModel::CodegenProblemRole).toString().startsWith(
                 QStringLiteral("the dnnl codegen builds no composite called 'byoc-target.pattern_")),
             qPrintable(name.data(PatternTableModel::CodegenProblemRole).toString()));
    QCOMPARE(name.data(Qt::ToolTipRole), name.data(PatternTableModel::CodegenProblemRole));
    QVERIFY(!name.data(Qt::DecorationRole).isNull());
    QVERIFY(model.rename(*row, QStringLiteral("byoc-target.conv2d_bias_relu")));
    QVERIFY(name.data(PatternTableModel::CodegenProblemRole).toString().isEmpty());
    QVERIFY(name.data(Qt::DecorationRole).isNull());
    // The reference codegen builds any composite.
    mine = document.target();
    mine.codegen = "reference";
    document.update(mine);
    QVERIFY(model.rename(*row, QStringLiteral("byoc-target.anything")));
    QVERIFY(name.data(PatternTableModel::CodegenProblemRole).toString().isEmpty());
  }

  void draftsSurviveEditsElsewhereButNotAnotherTarget() {
    TargetDocument document;
    QVERIFY(document.load(QStringLiteral("byoc-target")));
    PatternTableModel model(&document);
    QVERIFY(!model.setPatternText(1, QStringLiteral("nn.relu(")));
    QVERIFY(model.index(1, 0).data(PatternTableModel::HasDraftRole).toBool());
    Target edited = document.target();
    edited.description = "edited elsewhere";
    document.update(edited);
    QCOMPARE(model.editorText(1), QStringLiteral("nn.relu("));
    // Fixing the text writes it and drops the draft.
    QVERIFY(model.setPatternText(1, QStringLiteral("nn.relu(nn.conv2d(*, *){groups=1})")));
    QVERIFY(!model.hasDraft(1));
    QCOMPARE(document.target().patterns[1].pattern, std::string("nn.relu(nn.conv2d(*, *){groups=1})"));
    QVERIFY(!model.setPatternText(1, QStringLiteral("nn.relu(")));
    QVERIFY(document.load(QStringLiteral("dnnl")));
    QVERIFY(!model.hasDraft(1));
  }

  void aSavedTableReloadsIdentically() {
    TargetDocument document;
    QVERIFY(document.load(QStringLiteral("byoc-target")));
    PatternTableModel model(&document);
    QVERIFY(model.addPattern(QStringLiteral("mine.add_relu"), QStringLiteral("x = *;\nnn.relu(add(x, x))")));
    QVERIFY(model.setCheck(2, QStringLiteral("rank(arg0) == 4")));
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("mine.json"));
    QVERIFY(document.saveAs(path));
    TargetDocument reloaded;
    QVERIFY(reloaded.load(path));
    QCOMPARE(serializeTarget(reloaded.target()), serializeTarget(document.target()));
    PatternTableModel again(&reloaded);
    QCOMPARE(again.editorText(2), QStringLiteral("x = *;\nnn.relu(add(x, x))"));
  }

  // -- the drawing ----------------------------------------------------------------------------

  void sketchLayersSharedAndRecursivePatterns_data() {
    QTest::addColumn<QString>("pattern");
    QTest::addColumn<QString>("sketch");
    QTest::newRow("chain") << "nn.relu(nn.bias_add(nn.conv2d(*, *), *))"
                           << "0.0 *\n0.1 *\n1.0 nn.conv2d\n0.2 *\n2.0 nn.bias_add\n3.0 nn.relu\n"
                              "0 -> 2\n1 -> 2\n2 -> 4\n3 -> 4\n4 -> 5\n";
    QTest::newRow("shared") << "conv = nn.conv2d(*, *){groups=1};\nadd(nn.relu(conv), nn.leaky_relu(conv))"
                            << "0.0 *\n0.1 *\n1.0 nn.conv2d\n2.0 conv: {groups=1}\n3.0 nn.relu\n3.1 nn.leaky_relu\n4.0 add\n"
                               "0 -> 2\n1 -> 2\n2 -> 3\n3 -> 4\n3 -> 5\n4 -> 6\n5 -> 6\n";
    QTest::newRow("recursive") << "chain = add(chain, *) | *;\nnn.relu(chain)"
                               << "0.0 *\n1.0 add\n0.1 *\n2.0 |\n3.0 chain: \u21ba\n4.0 nn.relu\n"
                                  "4 -> 1\n0 -> 1\n1 -> 3\n2 -> 3\n3 -> 4\n4 -> 5\n";
  }

  void sketchLayersSharedAndRecursivePatterns() {
    QFETCH(QString, pattern);
    QFETCH(QString, sketch);
    Result<Pattern> parsed = parsePattern(pattern.toStdString());
    QVERIFY2(parsed, parsed ? "" : parsed.error().str().c_str());
    QCOMPARE(sketchPattern(*parsed).dump(), sketch);
    clearRedirects(*parsed);
  }

  // -- live matching ------------------------------------------------------------------------

  void onlyTheNewestMatchingReports() {
    Result<ModelDocument> demo = openDemoDocument();
    QVERIFY(demo);
    Function main = demo->module.find("main");
    QVERIFY(main);
    Result<Pattern> everything = parsePattern("*");
    Result<Pattern> relu = parsePattern("nn.relu(*)");
    QVERIFY(everything && relu);
    PatternMatchJob job;
    std::vector<std::size_t> reports;
    connect(&job, &PatternMatchJob::finished, this,
            [&reports](const std::vector<PatternMatch>& matches) { reports.push_back(matches.size()); });
    job.start(OwnedPattern(*everything), main);
    job.start(OwnedPattern(*relu), main);
    QVERIFY(job.isRunning());
    QTRY_VERIFY_WITH_TIMEOUT(!job.isRunning(), 5000);
    QTest::qWait(100);  // the first request's result, had it not been dropped, would be here too
    QCOMPARE(reports, std::vector<std::size_t>{findMatches(*relu, Expr(main)).size()});
    QCOMPARE(reports.front(), std::size_t(2));
    job.start(OwnedPattern(*relu), main);
    job.cancel();
    QVERIFY(!job.isRunning());
    QTest::qWait(300);
    QCOMPARE(reports.size(), std::size_t(1));
  }

  // -- the editor -----------------------------------------------------------------------------

  void highlighterColoursOpsKeywordsAndComments() {
    PatternTextEdit editor;
    editor.setPlainText(QStringLiteral("x = nn.relu(var) # note"));
    const QList<QTextLayout::FormatRange> formats = editor.document()->firstBlock().layout()->formats();
    auto formatAt = [&formats](int position) {
      for (const QTextLayout::FormatRange& range : formats) {
        if (position >= range.start && position < range.start + range.length) return range.format;
      }
      return QTextCharFormat();
    };
    QCOMPARE(formatAt(4).fontWeight(), int(QFont::Bold));            // nn.relu: a registered op
    QCOMPARE(formatAt(12).fontWeight(), int(QFont::Bold));           // var: a keyword
    QVERIFY(formatAt(12).foreground() != formatAt(4).foreground());  // in another colour
    QVERIFY(formatAt(19).fontItalic());                              // the comment
    QVERIFY(formatAt(0).foreground().style() != Qt::NoBrush);        // a name being defined
    QCOMPARE(formatAt(3).foreground().style(), Qt::NoBrush);         // '=' is plain
  }

  void completionOffersOpNames() {
    PatternTextEdit editor;
    editor.show();
    QTest::keyClicks(&editor, QStringLiteral("nn.con"));
    QCOMPARE(editor.wordBeforeCursor(), QStringLiteral("nn.con"));
    QCOMPARE(editor.completer()->completionPrefix(), QStringLiteral("nn.con"));
    QStringList offered;
    for (int i = 0; editor.completer()->setCurrentRow(i); ++i) offered << editor.completer()->currentCompletion();
    QVERIFY2(offered.contains(QStringLiteral("nn.conv2d")), qPrintable(offered.join(u' ')));
    QVERIFY(!offered.contains(QStringLiteral("nn.relu")));
    emit editor.completer()->activated(QStringLiteral("nn.conv2d"));
    QCOMPARE(editor.toPlainText(), QStringLiteral("nn.conv2d"));
  }

  // -- the dock in the window -----------------------------------------------------------------

  void typingAPatternHighlightsItsMatches() {
    MainWindow window;
    QVERIFY(showAndOpen(window));
    PatternDock* dock = window.patternDock();
    auto* dockWidget = qobject_cast<QDockWidget*>(dock->parentWidget());
    QVERIFY(dockWidget);
    dockWidget->raise();  // the user brings the editor to the front to type
    QAbstractItemModelTester tester(dock->matchModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    QVERIFY(dock->addPattern(QStringLiteral("*")));
    GraphPage* page = window.mainPage();
    const GraphModel& model = page->model();

    QSignalSpy updated(dock, &PatternDock::matchesUpdated);
    QVERIFY(typePattern(*dock, QStringLiteral("nn.relu(nn.bias_add(nn.conv2d(*, *), *))")));
    QTRY_VERIFY_WITH_TIMEOUT(dock->matchModel()->rowCount() == 2, 5000);
    const auto& highlights = page->scene()->matchHighlights();
    QCOMPARE(highlights.size(), std::size_t(2));
    for (const auto& match : highlights) QCOMPARE(titles(model, match.nodes), QStringLiteral("nn.bias_add,nn.conv2d,nn.relu"));
    std::vector<int> covered;
    for (const auto& match : highlights) covered.insert(covered.end(), match.nodes.begin(), match.nodes.end());
    std::sort(covered.begin(), covered.end());
    std::vector<int> expected;
    for (const char* title : {"nn.conv2d", "nn.bias_add", "nn.relu"}) {
      for (int node : nodesTitled(model, QString::fromLatin1(title))) expected.push_back(node);
    }
    std::sort(expected.begin(), expected.end());
    QCOMPARE(covered, expected);
    QCOMPARE(page->scene()->matchOutlineCount(), 2);
    QCOMPARE(dock->statusText(), QStringLiteral("2 match(es) on main"));

    // With another tab of the dock area in front the graph shows no outlines; they come back with the editor.
    for (auto* other : window.tabifiedDockWidgets(dockWidget)) {
      other->raise();
      break;
    }
    QTRY_COMPARE_WITH_TIMEOUT(page->scene()->matchOutlineCount(), 0, 2000);
    dockWidget->raise();
    QTRY_COMPARE_WITH_TIMEOUT(page->scene()->matchOutlineCount(), 2, 2000);
    QCOMPARE(dock->matchModel()->index(0, PatternMatchModel::RootColumn).data().toString(), QStringLiteral("nn.relu"));
    QCOMPARE(dock->matchModel()->index(0, PatternMatchModel::NodesColumn).data().toInt(), 3);
    // The target holds the typed pattern, and its drawing is beside the text.
    QCOMPARE(window.targetDocument()->target().patterns.back().pattern,
             std::string("nn.relu(nn.bias_add(nn.conv2d(*, *), *))"));
    QCOMPARE(dock->sketchView()->sketch().nodes.back().label, QStringLiteral("nn.relu"));

    // Clicking a match selects its root.
    const QModelIndex second = dock->matchModel()->index(1, 0);
    QTest::mouseClick(dock->matchView()->viewport(), Qt::LeftButton, {}, dock->matchView()->visualRect(second).center());
    QCOMPARE(page->scene()->selectedNode(), dock->matchModel()->index(1, 0).data(PatternMatchModel::RootRole).toInt());
    QCOMPARE(model.nodes()[page->scene()->selectedNode()].title, QStringLiteral("nn.relu"));

    // Selecting a node on the graph selects the match covering it.
    page->scene()->selectNode(-1);
    page->scene()->selectNode(highlights.front().nodes.front());
    QCOMPARE(dock->matchView()->selectionModel()->selectedRows().size(), 1);
    QCOMPARE(dock->matchView()->selectionModel()->selectedRows().front().row(), 0);
    page->scene()->selectNode(nodesTitled(model, QStringLiteral("reshape")).front());
    QVERIFY(dock->matchView()->selectionModel()->selectedRows().isEmpty());

    // What a wildcard matched is the match's input, not part of it: ringed apart, and named in the legend.
    QVERIFY(typePattern(*dock, QStringLiteral("nn.relu(*)")));
    QTRY_VERIFY_WITH_TIMEOUT(dock->matchModel()->rowCount() == 2 && page->scene()->matchHighlights().front().nodes.size() == 1, 5000);
    for (const MatchHighlight& match : page->scene()->matchHighlights()) {
      QCOMPARE(titles(model, match.nodes), QStringLiteral("nn.relu"));
      QCOMPARE(titles(model, match.inputs), QStringLiteral("nn.bias_add"));
    }
    QCOMPARE(page->scene()->matchOutlineCount(), 2);
    QCOMPARE(page->scene()->matchInputRingCount(), 2);
    bool legendNamesInputs = false;
    for (const LegendEntry& entry : page->legend()->entries())
      legendNamesInputs = legendNamesInputs || entry.text.startsWith(QStringLiteral("input of a match"));
    QVERIFY(legendNamesInputs);

    // A narrower pattern: one match fewer nodes; the outlines follow.
    QVERIFY(typePattern(*dock, QStringLiteral("nn.bias_add(nn.conv2d(*, *), *)")));
    QTRY_VERIFY_WITH_TIMEOUT(dock->matchModel()->rowCount() == 2 &&
                                 page->scene()->matchHighlights().front().nodes.size() == 2, 5000);
    QCOMPARE(titles(model, page->scene()->matchHighlights().front().nodes), QStringLiteral("nn.bias_add,nn.conv2d"));

    // The highlights survive a new layout of the same graph.
    QSignalSpy laidOut(page, &GraphPage::layoutReady);
    page->startLayout();
    QVERIFY(laidOut.wait(20000));
    QCOMPARE(page->scene()->matchOutlineCount(), 2);
  }

  void aSyntaxErrorShowsItsMessageAndPosition() {
    MainWindow window;
    QVERIFY(showAndOpen(window));
    PatternDock* dock = window.patternDock();
    QVERIFY(dock->addPattern(QStringLiteral("nn.relu(*)")));
    QTRY_VERIFY_WITH_TIMEOUT(dock->matchModel()->rowCount() == 2, 5000);
    const Target before = window.targetDocument()->target();

    QSignalSpy parsed(dock, &PatternDock::parsed);
    QVERIFY(typePattern(*dock, QStringLiteral("x = *;\nnn.relu(y)")));
    QCOMPARE(parsed.last().at(0).toBool(), false);
    QCOMPARE(dock->statusText(), QStringLiteral("2:9: found 'y', expected a registered op or a name defined before"));
    PatternTextEdit* editor = dock->editor();
    QCOMPARE(editor->errorMessage(), QStringLiteral("found 'y', expected a registered op or a name defined before"));
    QCOMPARE(editor->errorStart(), 7 + 8);  // line 2, column 9
    QCOMPARE(editor->errorLength(), 1);
    const QList<QTextEdit::ExtraSelection> marks = editor->extraSelections();
    QCOMPARE(marks.size(), 1);
    QCOMPARE(marks.front().format.underlineStyle(), QTextCharFormat::WaveUnderline);
    QCOMPARE(marks.front().format.toolTip(), editor->errorMessage());
    // The text stays in the editor; the target keeps the last pattern that parsed.
    QCOMPARE(editor->toPlainText(), QStringLiteral("x = *;\nnn.relu(y)"));
    QCOMPARE(window.targetDocument()->target().patterns.back().pattern, before.patterns.back().pattern);
    QVERIFY(dock->tableModel()->hasDraft(dock->currentRow()));
    QCOMPARE(dock->matchModel()->rowCount(), 0);
    QCOMPARE(window.mainPage()->scene()->matchOutlineCount(), 0);

    // Switching rows and back keeps the draft.
    const int row = dock->currentRow();
    dock->selectRow(0);
    QVERIFY(!editor->toPlainText().contains(u'y'));
    dock->selectRow(row);
    QCOMPARE(editor->toPlainText(), QStringLiteral("x = *;\nnn.relu(y)"));
    QCOMPARE(editor->errorStart(), 15);

    // An error at the end of the input marks the last character.
    QVERIFY(typePattern(*dock, QStringLiteral("nn.relu(")));
    QCOMPARE(dock->statusText(), QStringLiteral("1:9: found the end of the input, expected a pattern"));
    QCOMPARE(editor->errorStart(), 7);

    // Fixing it clears the error and matches again.
    QVERIFY(typePattern(*dock, QStringLiteral("nn.relu(x)")));
    QVERIFY(typePattern(*dock, QStringLiteral("x = *;\nnn.relu(x)")));
    QCOMPARE(editor->errorMessage(), QString());
    QVERIFY(editor->extraSelections().isEmpty());
    QTRY_VERIFY_WITH_TIMEOUT(dock->matchModel()->rowCount() == 2, 5000);
    QVERIFY(!dock->tableModel()->hasDraft(row));
  }

  void aBadCheckIsShownInPlace() {
    MainWindow window;
    window.show();
    PatternDock* dock = window.patternDock();
    dock->selectRow(0);
    QTest::keyClicks(dock->checkEdit(), QStringLiteral("groups =="));
    QCOMPARE(dock->checkStatusText(), QStringLiteral("1:10: found the end of the condition, expected a value, a name or '('"));
    // The target keeps the last text that parsed while typing ("groups", a bare attribute).
    QCOMPARE(window.targetDocument()->target().patterns[0].check->text(), std::string("groups"));
    QTest::keyClicks(dock->checkEdit(), QStringLiteral(" 1"));
    QCOMPARE(dock->checkStatusText(), QString());
    QCOMPARE(window.targetDocument()->target().patterns[0].check->text(), std::string("groups == 1"));
  }

  void theTableButtonsAddRemoveAndReorder() {
    MainWindow window;
    QVERIFY(showAndOpen(window));
    PatternDock* dock = window.patternDock();
    GraphPage* page = window.mainPage();
    auto button = [dock](const char* name) { return dock->findChild<QToolButton*>(QString::fromLatin1(name)); };
    QVERIFY(button("addPattern") && button("removePattern") && button("raisePattern") && button("lowerPattern"));
    const auto& patterns = window.targetDocument()->target().patterns;

    // "+" takes the selected node's op.
    page->scene()->selectNode(nodesTitled(page->model(), QStringLiteral("nn.conv2d")).front());
    button("addPattern")->click();
    QCOMPARE(patterns.size(), std::size_t(3));
    QCOMPARE(dock->currentRow(), 2);
    QCOMPARE(dock->editor()->toPlainText(), QStringLiteral("nn.conv2d(..)"));
    QTRY_VERIFY_WITH_TIMEOUT(dock->matchModel()->rowCount() == 2, 5000);
    QVERIFY(!button("lowerPattern")->isEnabled());

    button("raisePattern")->click();
    QCOMPARE(dock->currentRow(), 1);
    QCOMPARE(patterns[1].pattern, std::string("nn.conv2d(..)"));
    button("raisePattern")->click();
    QCOMPARE(patterns[0].pattern, std::string("nn.conv2d(..)"));
    QVERIFY(!button("raisePattern")->isEnabled());
    button("lowerPattern")->click();
    QCOMPARE(patterns[1].pattern, std::string("nn.conv2d(..)"));

    button("removePattern")->click();
    QCOMPARE(patterns.size(), std::size_t(2));
    QCOMPARE(patterns[1].name, std::string("byoc-target.conv2d_relu_wo_bias"));
    QCOMPARE(dock->currentRow(), 1);
    QCOMPARE(dock->editor()->toPlainText(), QString::fromStdString(patterns[1].pattern));
  }

  void patternEditsUndoAndRedo() {
    MainWindow window;
    QVERIFY(showAndOpen(window));
    PatternDock* dock = window.patternDock();
    qobject_cast<QDockWidget*>(dock->parentWidget())->raise();
    TargetDocument* document = window.targetDocument();
    QUndoStack* stack = document->undoStack();
    const auto rows = document->target().patterns.size();
    Result<int> row = dock->addPattern(QStringLiteral("nn.relu(*)"));
    QVERIFY(row);
    QCOMPARE(stack->undoText(), QStringLiteral("Add Pattern byoc-target.pattern_1"));

    // Two edits of the text, each parsed, are one step.
    const QString longer = QStringLiteral("nn.relu(nn.bias_add(nn.conv2d(*, *), *))");
    QVERIFY(typePattern(*dock, QStringLiteral("nn.relu(nn.bias_add(*, *))")));
    QVERIFY(typePattern(*dock, longer));
    QCOMPARE(QString::fromStdString(document->target().patterns[*row].pattern), longer);
    QCOMPARE(stack->count(), 2);
    QCOMPARE(stack->undoText(), QStringLiteral("Edit Pattern byoc-target.pattern_1"));
    stack->undo();
    QCOMPARE(document->target().patterns[*row].pattern, std::string("nn.relu(*)"));
    QCOMPARE(dock->editor()->toPlainText(), QStringLiteral("nn.relu(*)"));
    stack->redo();
    QCOMPARE(QString::fromStdString(document->target().patterns[*row].pattern), longer);
    QCOMPARE(dock->editor()->toPlainText(), longer);

    // Order and names undo too.
    PatternTableModel* table = dock->tableModel();
    QVERIFY(table->movePattern(*row, -1));
    QVERIFY(table->rename(*row - 1, QStringLiteral("mine.relu")));
    QCOMPARE(stack->undoText(), QStringLiteral("Rename Pattern byoc-target.pattern_1"));
    stack->undo();
    QCOMPARE(document->target().patterns[*row - 1].name, std::string("byoc-target.pattern_1"));
    QCOMPARE(stack->undoText(), QStringLiteral("Move Pattern byoc-target.pattern_1"));
    stack->undo();
    QCOMPARE(document->target().patterns[*row].name, std::string("byoc-target.pattern_1"));
    QCOMPARE(table->index(*row, PatternTableModel::NameColumn).data().toString(), QStringLiteral("byoc-target.pattern_1"));

    // Undoing the addition removes the row, and the target is as loaded; redo brings it back.
    stack->undo();
    stack->undo();
    QCOMPARE(document->target().patterns.size(), rows);
    QCOMPARE(table->rowCount(), static_cast<int>(rows));
    QVERIFY(!document->isModified());
    stack->redo();
    QCOMPARE(table->rowCount(), static_cast<int>(rows) + 1);
    QCOMPARE(document->target().patterns.back().pattern, std::string("nn.relu(*)"));
  }

  void whyNotHereNamesTheFailingPatternNode() {
    MainWindow window;
    QVERIFY(showAndOpen(window));
    PatternDock* dock = window.patternDock();
    QVERIFY(dock->addPattern(QStringLiteral("nn.relu(nn.bias_add(nn.conv2d(*, *), *))")));
    GraphPage* page = window.mainPage();
    QCOMPARE(dock->explainSelectedNode(), QStringLiteral("Select a node on the graph first."));
    page->scene()->selectNode(nodesTitled(page->model(), QStringLiteral("reshape")).front());
    QCOMPARE(dock->explainSelectedNode(),
             QStringLiteral("nn.relu at op reshape: expected op nn.relu, found op reshape"));
    page->scene()->selectNode(nodesTitled(page->model(), QStringLiteral("nn.relu")).front());
    QCOMPARE(dock->explainSelectedNode(), QStringLiteral("The pattern matches at a call of nn.relu."));
    dock->selectRow(dock->currentRow());
    QVERIFY(typePattern(*dock, QStringLiteral("nn.relu(nn.bias_add(nn.conv2d(*, *){groups=2}, *))")));
    QCOMPARE(dock->explainSelectedNode().section(u':', 1).trimmed(),
             QStringLiteral("attribute groups is 1, expected 2"));
  }

  void whyNotHereFollowsTheSelectionAndThePattern() {
    MainWindow window;
    QVERIFY(showAndOpen(window));
    PatternDock* dock = window.patternDock();
    QVERIFY(dock->addPattern(QStringLiteral("nn.relu(nn.bias_add(nn.conv2d(*, *), *))")));
    GraphPage* page = window.mainPage();
    // Nothing is said until asked.
    page->scene()->selectNode(nodesTitled(page->model(), QStringLiteral("reshape")).front());
    QCOMPARE(dock->whyText(), QString());
    QCOMPARE(dock->explainSelectedNode(), QStringLiteral("nn.relu at op reshape: expected op nn.relu, found op reshape"));
    // Once asked, the answer is for the node selected now…
    page->scene()->selectNode(nodesTitled(page->model(), QStringLiteral("nn.relu")).front());
    QCOMPARE(dock->whyText(), QStringLiteral("The pattern matches at a call of nn.relu."));
    // …and the pattern parsed now.
    QVERIFY(typePattern(*dock, QStringLiteral("nn.relu(nn.bias_add(nn.conv2d(*, *){groups=2}, *))")));
    QCOMPARE(dock->whyText().section(u':', 1).trimmed(), QStringLiteral("attribute groups is 1, expected 2"));
    QVERIFY(typePattern(*dock, QStringLiteral("nn.relu(")));
    QCOMPARE(dock->whyText(), QString());  // no pattern to explain
    QVERIFY(typePattern(*dock, QStringLiteral("nn.relu(*)")));
    QCOMPARE(dock->whyText(), QString());  // cleared, not asked again
    QCOMPARE(dock->explainSelectedNode(), QStringLiteral("The pattern matches at a call of nn.relu."));
    // Without a selection it goes.
    page->scene()->selectNode(-1);
    QCOMPARE(dock->whyText(), QString());
  }

  // -- rewriting ------------------------------------------------------------------------------

  void aRewriteIsPreviewedInATabOfItsOwn() {
    MainWindow window;
    QVERIFY(showAndOpen(window));
    PatternDock* dock = window.patternDock();
    QVERIFY(dock->addPattern(QStringLiteral("x = *; nn.relu(x)")));
    QTRY_VERIFY_WITH_TIMEOUT(dock->matchModel()->rowCount() == 2, 5000);
    RewritePreview* preview = dock->rewritePreview();

    // A replacement that does not read is refused where it is written.
    QTest::keyClicks(preview->replacementEdit(), QStringLiteral("tanh(y)"));
    QCOMPARE(preview->statusText(), QStringLiteral("replacement:1:6: found 'y', expected a registered op or a name defined before"));
    QVERIFY(!preview->preview());
    preview->replacementEdit()->clear();
    QTest::keyClicks(preview->replacementEdit(), QStringLiteral("tanh(x)"));
    QCOMPARE(preview->statusText(), QString());

    // The preview is the function in front rewritten, in a tab of its own; the model stays.
    const int pages = window.pageCount();
    QVERIFY(preview->preview());
    QTRY_COMPARE_WITH_TIMEOUT(window.pageCount(), pages + 1, 10000);
    GraphPage* shown = window.currentPage();
    auto* tabs = qobject_cast<QTabWidget*>(shown->parentWidget()->parentWidget());
    QVERIFY(tabs);
    QCOMPARE(tabs->tabText(tabs->currentIndex()), QStringLiteral("Rewrite preview · @main"));
    QCOMPARE(nodesTitled(shown->model(), QStringLiteral("tanh")).size(), std::size_t(2));
    QVERIFY(nodesTitled(shown->model(), QStringLiteral("nn.relu")).empty());
    QCOMPARE(nodesTitled(window.mainPage()->model(), QStringLiteral("nn.relu")).size(), std::size_t(2));
    QCOMPARE(window.targetDocument()->target().rewrites.size(), std::size_t(0));
    QVERIFY(preview->statusText().startsWith(QStringLiteral("Rewritten until nothing changes")));

    // On the preview, nothing is left to rewrite: no new tab.
    QTRY_VERIFY_WITH_TIMEOUT(dock->matchModel()->rowCount() == 0, 5000);
    QVERIFY(preview->preview());
    QTRY_VERIFY_WITH_TIMEOUT(!preview->isRunning(), 10000);
    QCOMPARE(preview->statusText(), QStringLiteral("Nothing to rewrite: the pattern matches nowhere in @main."));
    QCOMPARE(window.pageCount(), pages + 1);

    // Previewing the model again replaces the preview tab.
    tabs->setCurrentWidget(window.mainPage());
    QTRY_VERIFY_WITH_TIMEOUT(dock->matchModel()->rowCount() == 2, 5000);
    QVERIFY(preview->preview());
    QTRY_VERIFY_WITH_TIMEOUT(window.currentPage() != window.mainPage() && window.currentPage() != shown, 10000);
    QCOMPARE(window.pageCount(), pages + 1);

    // A rewrite that would never end stops with the reason, and opens nothing.
    tabs->setCurrentWidget(window.mainPage());
    preview->replacementEdit()->clear();
    QTest::keyClicks(preview->replacementEdit(), QStringLiteral("nn.relu(nn.relu(x))"));
    QVERIFY(preview->preview());
    QTRY_VERIFY_WITH_TIMEOUT(!preview->isRunning(), 20000);
    QVERIFY2(preview->statusText().startsWith(QStringLiteral("PatternRewrite: rewrite: the expression grew to ")),
             qPrintable(preview->statusText()));
    QCOMPARE(window.pageCount(), pages + 1);
  }
};

QTEST_MAIN(TestPatternEditor)
#include "test_pattern_editor.moc"
