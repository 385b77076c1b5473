/// \file
/// IrTextView: a small text is shown and coloured at once; a large one is appended in slices, shown
/// uncoloured and then coloured in slices (also after switching colours), ending with the same
/// text and colours as when set at once; a location asked for before its line arrived is shown
/// when it arrives.

#include <QSignalSpy>
#include <QTextBlock>
#include <QTextLayout>
#include <QtTest>

#include "graph/graph_model.h"
#include "panels/ir_text_view.h"
#include "panels/relay_highlighter.h"
#include "panels/text_links.h"
#include "text/parser.h"

using namespace byoc;
using namespace byoc::ui;

namespace {

const QString kLine = QStringLiteral("  %3 = nn.conv2d(%2, %w, padding=[1, 1, 1, 1]) /* ty=Tensor[(1, 16), float32] */;\n");

/// The colour ranges of `block` as text, e.g. "2+2 7+9".
QString formatsOf(const QTextBlock& block) {
  QStringList ranges;
  for (const QTextLayout::FormatRange& range : block.layout()->formats())
    ranges << QStringLiteral("%1+%2:%3").arg(range.start).arg(range.length).arg(range.format.foreground().color().name());
  return ranges.join(u' ');
}

}  // namespace

class TestIrTextView : public QObject {
  Q_OBJECT
 private slots:
  void smallTextIsColouredAtOnce() {
    IrTextView view;
    view.setIrText(kLine);
    QVERIFY(!view.highlighter()->isSlicing());
    QVERIFY(!formatsOf(view.document()->firstBlock()).isEmpty());
  }

  void largeTextIsColouredInSlices() {
    IrTextView reference;
    reference.setIrText(kLine);
    const QString expected = formatsOf(reference.document()->firstBlock());

    IrTextView view;
    const QString large = kLine.repeated(static_cast<int>(kSlicedHighlightAbove / kLine.size()) + 1);
    QVERIFY(large.size() > kSlicedHighlightAbove);
    QSignalSpy done(view.highlighter(), &RelayHighlighter::highlighted);
    view.setIrText(large);
    QVERIFY(view.isFilling());
    QVERIFY(view.document()->characterCount() < large.size());
    QCOMPARE(formatsOf(view.document()->firstBlock()), QString());
    QVERIFY(done.wait(20000));
    QVERIFY(!view.isFilling());
    QVERIFY(!view.highlighter()->isSlicing());
    QCOMPARE(view.toPlainText(), large);
    QCOMPARE(formatsOf(view.document()->firstBlock()), expected);
    QCOMPARE(formatsOf(view.document()->lastBlock().previous()), expected);
  }

  void switchingColoursOfALargeTextSlices() {
    IrTextView dark;
    dark.setDarkColours(true);
    dark.setIrText(kLine);
    const QString expected = formatsOf(dark.document()->firstBlock());

    IrTextView view;
    view.setIrText(kLine.repeated(static_cast<int>(kSlicedHighlightAbove / kLine.size()) + 1));
    QSignalSpy light(view.highlighter(), &RelayHighlighter::highlighted);
    QVERIFY(light.wait(20000));
    QVERIFY(formatsOf(view.document()->firstBlock()) != expected);
    view.setDarkColours(true);
    QVERIFY(view.highlighter()->isSlicing());
    QSignalSpy done(view.highlighter(), &RelayHighlighter::highlighted);
    QVERIFY(done.wait(20000));
    QCOMPARE(formatsOf(view.document()->firstBlock()), expected);
    QCOMPARE(formatsOf(view.document()->lastBlock().previous()), expected);
  }

  void switchingColoursWhileALargeTextArrivesColoursItAfterwards() {
    IrTextView dark;
    dark.setDarkColours(true);
    dark.setIrText(kLine);
    const QString expected = formatsOf(dark.document()->firstBlock());

    IrTextView view;
    view.setIrText(kLine.repeated(static_cast<int>(kSlicedHighlightAbove / kLine.size()) * 3));
    QVERIFY(view.isFilling());
    view.setDarkColours(true);
    QVERIFY(!view.highlighter()->isSlicing());
    QSignalSpy done(view.highlighter(), &RelayHighlighter::highlighted);
    QVERIFY(done.wait(20000));
    QCOMPARE(formatsOf(view.document()->firstBlock()), expected);
    QCOMPARE(formatsOf(view.document()->lastBlock().previous()), expected);
  }

  void aRangeIsShownAtItsStartAndHighlighted() {
    IrTextView view;
    view.setIrText(QStringLiteral("def @main(%x: float32) {\n  %0 = nn.relu(%x);\n  negative(%0)\n}\n"));
    QSignalSpy clicked(&view, &IrTextView::locationClicked);
    const TextRange range{2, 3, 2, 19};
    view.showRange(range);
    QCOMPARE(view.textCursor().blockNumber(), 1);
    QCOMPARE(view.textCursor().positionInBlock(), 2);
    QCOMPARE(view.textOf(range), QStringLiteral("%0 = nn.relu(%x)"));
    QCOMPARE(view.extraSelections().size(), 2);  // the line and the node
    QCOMPARE(view.extraSelections().last().cursor.selectedText(), QStringLiteral("%0 = nn.relu(%x)"));
    view.showRange(range);  // again, at the same place: still one line and one node
    QCOMPARE(view.extraSelections().size(), 2);
    QCOMPARE(clicked.count(), 0);
  }

  void textLinksMapNodesAndPositionsBothWays() {
    Result<Module> module = parseModule("def @main(%x: float32) { %0 = nn.relu(%x); %1 = (%0, %0); %2 = %1.1; negative(%2) }", "in.relay");
    QVERIFY(module);
    const auto links = TextLinks::printed(*module);
    QCOMPARE(links->text(), QStringLiteral("#[version = \"0.0.5\"]\ndef @main(%x: float32) {\n  %0 = nn.relu(%x);\n"
                                           "  %1 = (%0, %0);\n  %2 = %1.1;\n  negative(%2)\n}\n"));
    const GraphModel graph = GraphModel::build(module->find("main"));
    auto titled = [&](const char* title) {
      for (const GraphNode& node : graph.nodes())
        if (node.kind != GraphNodeKind::Stub && node.title == QLatin1String(title)) return node.id;
      return -1;
    };
    IrTextView view;
    view.setIrText(links->text());
    for (const char* title : {"nn.relu", "tuple", ".1", "negative"}) {
      const int node = titled(title);
      QVERIFY2(node >= 0, title);
      std::optional<TextRange> range = links->rangeOf(graph.nodes()[node].expr);
      QVERIFY2(range, title);
      QCOMPARE(links->graphNodeAt(graph, range->line, range->column), node);  // at its start
      QCOMPARE(links->graphNodeAt(graph, range->line, 1), node);              // before it on its line
      QCOMPARE(links->graphNodeAt(graph, range->line, 200), node);            // after it on its line
    }
    QCOMPARE(view.textOf(*links->rangeOf(graph.nodes()[titled("tuple")].expr)), QStringLiteral("%1 = (%0, %0)"));
    // Inside a call, the innermost node written there; on the closing brace, nothing the graph draws.
    QCOMPARE(links->graphNodeAt(graph, 6, 12), titled("negative"));
    QCOMPARE(links->graphNodeAt(graph, 7, 1), -1);
  }

  void newTextRestartsTheSlices() {
    IrTextView view;
    view.setIrText(kLine.repeated(static_cast<int>(kSlicedHighlightAbove / kLine.size()) * 3));
    QVERIFY(view.isFilling());
    view.setIrText(kLine);
    QVERIFY(!view.isFilling());
    QVERIFY(!view.highlighter()->isSlicing());
    QCOMPARE(view.toPlainText(), kLine);
    QVERIFY(!formatsOf(view.document()->firstBlock()).isEmpty());
  }

  void aLineNotYetArrivedIsShownWhenItArrives() {
    IrTextView view;
    const int lines = static_cast<int>(kSlicedHighlightAbove / kLine.size()) * 4;
    QString large = kLine.repeated(lines - 1) + QStringLiteral("  %9 = nn.relu(%8);\n");
    view.setIrText(large);
    QVERIFY(view.isFilling());
    QVERIFY(view.document()->blockCount() < lines);
    QSignalSpy clicked(&view, &IrTextView::locationClicked);
    const TextRange last{lines, 3, lines, 19};
    view.showRange(last);
    QTRY_VERIFY_WITH_TIMEOUT(!view.isFilling(), 20000);
    QCOMPARE(view.textCursor().blockNumber(), lines - 1);
    QCOMPARE(view.textCursor().positionInBlock(), 2);
    QCOMPARE(view.extraSelections().last().cursor.selectedText(), QStringLiteral("%9 = nn.relu(%8)"));
    QCOMPARE(clicked.count(), 0);
  }
};

QTEST_MAIN(TestIrTextView)
#include "test_ir_text_view.moc"
