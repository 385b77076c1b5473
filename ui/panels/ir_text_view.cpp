/// \file
/// IrTextView.

#include "panels/ir_text_view.h"

#include <QElapsedTimer>
#include <QFontDatabase>
#include <QTextBlock>
#include <utility>

#include "panels/relay_highlighter.h"

namespace byoc::ui {

namespace {

/// How much text one append takes (cut at the next line end), and how long one slice of appends
/// may hold the UI thread.
constexpr qsizetype kFillChunkChars = 32'000;
constexpr qint64 kFillSliceNs = 8'000'000;

/// The end of the chunk of `text` that starts at `from`: just after the first line end past
/// `kFillChunkChars` characters, or the end of the text.
qsizetype chunkEnd(const QString& text, qsizetype from) {
  if (text.size() - from <= kFillChunkChars) return text.size();
  const qsizetype lineEnd = text.indexOf(u'\n', from + kFillChunkChars);
  return lineEnd < 0 ? text.size() : lineEnd + 1;
}

}  // namespace

IrTextView::IrTextView(QWidget* parent) : QPlainTextEdit(parent) {
  setReadOnly(true);
  setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
  setLineWrapMode(QPlainTextEdit::NoWrap);
  QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
  mono.setPointSizeF(std::max(mono.pointSizeF(), 9.5));
  setFont(mono);
  document()->setUndoRedoEnabled(false);  // read-only: an undo stack would only copy the text
  highlighter_ = new RelayHighlighter(document(), false);
  filler_.setInterval(0);
  connect(&filler_, &QTimer::timeout, this, &IrTextView::fillSlice);
  connect(this, &QPlainTextEdit::cursorPositionChanged, this, [this] {
    highlightCurrentLine();
    if (programmatic_) return;
    QTextCursor cursor = textCursor();
    emit locationClicked(cursor.blockNumber() + 1, cursor.positionInBlock() + 1);
  });
}

void IrTextView::setIrText(const QString& text) {
  filler_.stop();
  highlighter_->stopSlicing();
  pendingRange_.reset();
  const bool sliced = text.size() > kSlicedHighlightAbove;
  pendingText_ = sliced ? text : QString();
  filledUpTo_ = sliced ? chunkEnd(text, 0) : 0;
  programmatic_ = true;
  highlighter_->setDeferred(sliced);
  setPlainText(sliced ? text.first(filledUpTo_) : text);
  highlighter_->setDeferred(false);
  programmatic_ = false;
  if (sliced) filler_.start();
}

void IrTextView::fillSlice() {
  QElapsedTimer clock;
  clock.start();
  programmatic_ = true;
  highlighter_->setDeferred(true);
  QTextCursor end(document());
  end.movePosition(QTextCursor::End);
  while (filledUpTo_ < pendingText_.size() && clock.nsecsElapsed() < kFillSliceNs) {
    const qsizetype next = chunkEnd(pendingText_, filledUpTo_);
    end.insertText(pendingText_.sliced(filledUpTo_, next - filledUpTo_));
    filledUpTo_ = next;
  }
  highlighter_->setDeferred(false);
  programmatic_ = false;
  showPendingRange();
  if (filledUpTo_ < pendingText_.size()) return;
  filler_.stop();
  pendingText_.clear();
  pendingRange_.reset();
  highlighter_->highlightInSlices();
}

void IrTextView::showPendingRange() {
  if (!pendingRange_ || !document()->findBlockByNumber(pendingRange_->line - 1).isValid()) return;
  // The node's last line may still be on its way; the range is cut at the end of what is in.
  const TextRange range = *std::exchange(pendingRange_, std::nullopt);
  showRange(range);
}

void IrTextView::setDarkColours(bool dark) {
  delete highlighter_;
  highlighter_ = new RelayHighlighter(nullptr, dark);
  highlighter_->setParent(this);  // attached to the document only below, maybe in slices
  if (document()->characterCount() <= kSlicedHighlightAbove && !isFilling()) {
    highlighter_->setDocument(document());
    return;
  }
  // Attaching colours the whole text at once: attach deferred, and colour it in slices (once it is
  // all in, if it is still arriving).
  highlighter_->setDeferred(true);
  highlighter_->setDocument(document());
  highlighter_->rehighlight();
  highlighter_->setDeferred(false);
  if (!isFilling()) highlighter_->highlightInSlices();
}

void IrTextView::showLocation(int line, int column) {
  if (!document()->findBlockByNumber(line - 1).isValid()) {
    if (isFilling()) pendingRange_ = TextRange{line, column, line, column};
    return;
  }
  pendingRange_.reset();
  QTextCursor cursor(document());
  cursor.setPosition(positionOf(line, column));
  programmatic_ = true;
  setTextCursor(cursor);
  centerCursor();
  programmatic_ = false;
}

void IrTextView::showRange(const TextRange& range) {
  if (!document()->findBlockByNumber(range.line - 1).isValid()) {
    if (isFilling()) pendingRange_ = range;
    return;
  }
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
