/// \file
/// IrTextView.

#include "panels/ir_text_view.h"

#include <QFontDatabase>
#include <QTextBlock>

#include "panels/relay_highlighter.h"

namespace byoc::ui {

IrTextView::IrTextView(QWidget* parent) : QPlainTextEdit(parent) {
  setReadOnly(true);
  setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
  setLineWrapMode(QPlainTextEdit::NoWrap);
  QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
  mono.setPointSizeF(std::max(mono.pointSizeF(), 9.5));
  setFont(mono);
  highlighter_ = new RelayHighlighter(document(), false);
  connect(this, &QPlainTextEdit::cursorPositionChanged, this, [this] {
    highlightCurrentLine();
    if (programmatic_) return;
    QTextCursor cursor = textCursor();
    emit locationClicked(cursor.blockNumber() + 1, cursor.positionInBlock() + 1);
  });
}

void IrTextView::setIrText(const QString& text) {
  const bool sliced = text.size() > kSlicedHighlightAbove;
  programmatic_ = true;
  highlighter_->setDeferred(sliced);
  setPlainText(text);
  highlighter_->setDeferred(false);
  programmatic_ = false;
  if (sliced) {
    highlighter_->highlightInSlices();
  } else {
    highlighter_->stopSlicing();
  }
}

void IrTextView::setDarkColours(bool dark) {
  delete highlighter_;
  highlighter_ = new RelayHighlighter(nullptr, dark);
  highlighter_->setParent(this);  // attached to the document only below, maybe in slices
  if (document()->characterCount() <= kSlicedHighlightAbove) {
    highlighter_->setDocument(document());
    return;
  }
  // Attaching colours the whole text at once: attach deferred, and colour it in slices.
  highlighter_->setDeferred(true);
  highlighter_->setDocument(document());
  highlighter_->rehighlight();
  highlighter_->setDeferred(false);
  highlighter_->highlightInSlices();
}

void IrTextView::showLocation(int line, int column) {
  if (!document()->findBlockByNumber(line - 1).isValid()) return;
  QTextCursor cursor(document());
  cursor.setPosition(positionOf(line, column));
  programmatic_ = true;
  setTextCursor(cursor);
  centerCursor();
  programmatic_ = false;
}

void IrTextView::showRange(const TextRange& range) {
  if (!document()->findBlockByNumber(range.line - 1).isValid()) return;
  showLocation(range.line, range.column);
  highlightCurrentLine();  // drops the range shown before, also when the cursor did not move
  const int begin = positionOf(range.line, range.column), end = positionOf(range.endLine, range.endColumn);
  if (end <= begin) return;
  QTextEdit::ExtraSelection node;
  QColor colour = palette().color(QPalette::Highlight);
  colour.setAlphaF(0.3);
  node.format.setBackground(colour);
  node.cursor = QTextCursor(document());
  node.cursor.setPosition(begin);
  node.cursor.setPosition(end, QTextCursor::KeepAnchor);
  setExtraSelections(extraSelections() << node);
}

QString IrTextView::textOf(const TextRange& range) const {
  QTextCursor cursor(document());
  cursor.setPosition(positionOf(range.line, range.column));
  cursor.setPosition(positionOf(range.endLine, range.endColumn), QTextCursor::KeepAnchor);
  return cursor.selectedText().replace(QChar::ParagraphSeparator, u'\n');
}

int IrTextView::positionOf(int line, int column) const {
  QTextBlock block = document()->findBlockByNumber(std::max(line, 1) - 1);
  if (!block.isValid()) block = document()->lastBlock();
  return block.position() + std::clamp(column - 1, 0, block.length() - 1);
}

void IrTextView::highlightCurrentLine() {
  QTextEdit::ExtraSelection selection;
  QColor colour = palette().color(QPalette::Highlight);
  colour.setAlphaF(0.18);
  selection.format.setBackground(colour);
  selection.format.setProperty(QTextFormat::FullWidthSelection, true);
  selection.cursor = textCursor();
  selection.cursor.clearSelection();
  setExtraSelections({selection});
}

}  // namespace byoc::ui
