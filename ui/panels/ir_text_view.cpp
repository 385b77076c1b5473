/// \file
/// IrTextView.

#include "panels/ir_text_view.h"

#include <QFontDatabase>
#include <QTextBlock>

namespace byoc::ui {

IrTextView::IrTextView(QWidget* parent) : QPlainTextEdit(parent) {
  setReadOnly(true);
  setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
  setLineWrapMode(QPlainTextEdit::NoWrap);
  QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
  mono.setPointSizeF(std::max(mono.pointSizeF(), 9.5));
  setFont(mono);
  connect(this, &QPlainTextEdit::cursorPositionChanged, this, [this] {
    highlightCurrentLine();
    if (programmatic_) return;
    QTextCursor cursor = textCursor();
    emit locationClicked(cursor.blockNumber() + 1, cursor.positionInBlock() + 1);
  });
}

void IrTextView::setIrText(const QString& text) {
  programmatic_ = true;
  setPlainText(text);
  programmatic_ = false;
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
