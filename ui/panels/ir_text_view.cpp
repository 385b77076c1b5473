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
  QTextBlock block = document()->findBlockByNumber(line - 1);
  if (!block.isValid()) return;
  QTextCursor cursor(block);
  cursor.movePosition(QTextCursor::Right, QTextCursor::MoveAnchor, std::clamp(column - 1, 0, block.length() - 1));
  programmatic_ = true;
  setTextCursor(cursor);
  centerCursor();
  programmatic_ = false;
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
