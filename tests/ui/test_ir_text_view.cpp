/// \file
/// IrTextView colouring: a small text is coloured at once; a large one is shown uncoloured and then
/// coloured in slices (also after switching colours), ending with the same colours as when
/// coloured at once.

#include <QSignalSpy>
#include <QTextBlock>
#include <QTextLayout>
#include <QtTest>

#include "panels/ir_text_view.h"
#include "panels/relay_highlighter.h"

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
    QVERIFY(view.highlighter()->isSlicing());
    QCOMPARE(formatsOf(view.document()->firstBlock()), QString());
    QVERIFY(done.wait(20000));
    QVERIFY(!view.highlighter()->isSlicing());
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

  void newTextRestartsTheSlices() {
    IrTextView view;
    view.setIrText(kLine.repeated(static_cast<int>(kSlicedHighlightAbove / kLine.size()) + 1));
    QVERIFY(view.highlighter()->isSlicing());
    view.setIrText(kLine);
    QVERIFY(!view.highlighter()->isSlicing());
    QVERIFY(!formatsOf(view.document()->firstBlock()).isEmpty());
  }
};

QTEST_MAIN(TestIrTextView)
#include "test_ir_text_view.moc"
