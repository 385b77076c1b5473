/// \file
/// PatternTextEdit: completion as in Qt's custom completer example; the error is an extra selection.

#include "authoring/pattern_text_edit.h"

#include <QAbstractItemView>
#include <QCompleter>
#include <QFontDatabase>
#include <QHelpEvent>
#include <QScrollBar>
#include <QStringListModel>
#include <QTextBlock>
#include <QToolTip>

#include "authoring/pattern_highlighter.h"
#include "ir/op.h"

namespace byoc::ui {

namespace {

/// Completion starts by itself after this many characters of a word.
constexpr int kCompleteAfter = 2;

bool isWordChar(QChar c) { return c.isLetterOrNumber() || c == u'_' || c == u'.'; }

QStringList completionWords() {
  QStringList words;
  for (const OpDef* def : OpRegistry::global().all()) words << QString::fromStdString(def->name);
  words << patternKeywords();
  words.sort();
  return words;
}

}  // namespace

PatternTextEdit::PatternTextEdit(QWidget* parent) : QPlainTextEdit(parent) {
  QFont font = QFontDatabase::systemFont(QFontDatabase::FixedFont);
  setFont(font);
  setLineWrapMode(QPlainTextEdit::NoWrap);
  setTabChangesFocus(true);
  setPlaceholderText(tr("A pattern, e.g. nn.relu(nn.conv2d(*, *))"));
  setDark(false);
  completer_ = new QCompleter(new QStringListModel(completionWords(), this), this);
  completer_->setWidget(this);
  completer_->setCompletionMode(QCompleter::PopupCompletion);
  completer_->setCaseSensitivity(Qt::CaseInsensitive);
  completer_->setModelSorting(QCompleter::CaseInsensitivelySortedModel);
  connect(completer_, qOverload<const QString&>(&QCompleter::activated), this, &PatternTextEdit::insertCompletion);
}

PatternTextEdit::~PatternTextEdit() = default;

void PatternTextEdit::setDark(bool dark) {
  delete highlighter_;
  highlighter_ = new PatternHighlighter(document(), dark);
}

void PatternTextEdit::setError(int line, int column, const QString& message) {
  const QString text = toPlainText();
  int start = 0;
  int length = 0;
  if (line <= 0) {
    const QTextBlock first = document()->firstBlock();
    length = first.length() - 1;
  } else {
    const QTextBlock block = document()->findBlockByNumber(line - 1);
    start = block.isValid() ? block.position() + std::max(column - 1, 0) : static_cast<int>(text.size());
    start = std::min(start, static_cast<int>(text.size()));
    int end = start;
    while (end < text.size() && isWordChar(text[end])) ++end;
    length = std::max(end - start, 1);
  }
  // At the end of the input there is nothing to underline: mark the last character instead.
  if (start >= text.size() && !text.isEmpty()) start = static_cast<int>(text.size()) - 1;
  length = std::max(std::min(length, static_cast<int>(text.size()) - start), text.isEmpty() ? 0 : 1);
  errorStart_ = start;
  errorLength_ = length;
  errorMessage_ = message;
  QTextEdit::ExtraSelection selection;
  selection.format.setUnderlineStyle(QTextCharFormat::WaveUnderline);
  selection.format.setUnderlineColor(QColor(0xe5, 0x39, 0x35));
  selection.format.setToolTip(message);
  selection.cursor = QTextCursor(document());
  selection.cursor.setPosition(start);
  selection.cursor.setPosition(start + length, QTextCursor::KeepAnchor);
  setExtraSelections({selection});
}

void PatternTextEdit::clearError() {
  errorMessage_.clear();
  errorStart_ = 0;
  errorLength_ = 0;
  setExtraSelections({});
}

bool PatternTextEdit::event(QEvent* event) {
  if (event->type() == QEvent::ToolTip && !errorMessage_.isEmpty()) {
    auto* help = static_cast<QHelpEvent*>(event);
    const int position = cursorForPosition(viewport()->mapFromParent(help->pos())).position();
    if (position >= errorStart_ && position <= errorStart_ + errorLength_) {
      QToolTip::showText(help->globalPos(), errorMessage_, this);
    } else {
      QToolTip::hideText();
    }
    return true;
  }
  return QPlainTextEdit::event(event);
}

QString PatternTextEdit::wordBeforeCursor() const {
  const QTextCursor cursor = textCursor();
  const QString line = cursor.block().text();
  int start = cursor.positionInBlock();
  while (start > 0 && isWordChar(line[start - 1])) --start;
  return line.mid(start, cursor.positionInBlock() - start);
}

void PatternTextEdit::insertCompletion(const QString& completion) {
  QTextCursor cursor = textCursor();
  const int typed = static_cast<int>(wordBeforeCursor().size());
  cursor.movePosition(QTextCursor::Left, QTextCursor::KeepAnchor, typed);
  cursor.insertText(completion);
  setTextCursor(cursor);
}

void PatternTextEdit::keyPressEvent(QKeyEvent* event) {
  if (completer_->popup()->isVisible()) {
    switch (event->key()) {
      case Qt::Key_Enter:
      case Qt::Key_Return:
      case Qt::Key_Escape:
      case Qt::Key_Tab:
      case Qt::Key_Backtab: event->ignore(); return;  // the completer takes them
      default: break;
    }
  }
  const bool force = event->key() == Qt::Key_Space && (event->modifiers() & Qt::ControlModifier);
  if (!force) QPlainTextEdit::keyPressEvent(event);
  const bool typedText = !event->text().isEmpty() && (event->modifiers() & ~Qt::ShiftModifier) == Qt::NoModifier;
  if (force || typedText || event->key() == Qt::Key_Backspace) showCompletions(force);
}

void PatternTextEdit::showCompletions(bool force) {
  const QString word = wordBeforeCursor();
  if (!force && word.size() < kCompleteAfter) {
    completer_->popup()->hide();
    return;
  }
  if (word != completer_->completionPrefix()) {
    completer_->setCompletionPrefix(word);
    completer_->popup()->setCurrentIndex(completer_->completionModel()->index(0, 0));
  }
  if (completer_->completionCount() == 0 ||
      (completer_->completionCount() == 1 && completer_->currentCompletion() == word)) {
    completer_->popup()->hide();
    return;
  }
  QRect rect = cursorRect();
  rect.setWidth(completer_->popup()->sizeHintForColumn(0) + completer_->popup()->verticalScrollBar()->sizeHint().width());
  completer_->complete(rect);
}

}  // namespace byoc::ui
