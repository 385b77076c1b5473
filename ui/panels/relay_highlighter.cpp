/// \file
/// RelayHighlighter: ordered regex rules; block comments tracked across lines with block state;
/// large texts coloured in time slices.

#include "panels/relay_highlighter.h"

#include <QElapsedTimer>
#include <QTextBlock>
#include <QTextDocument>

#include "panels/char_format.h"

namespace byoc::ui {

namespace {

/// How long one slice of `highlightInSlices` may hold the UI thread.
constexpr qint64 kSliceNs = 8'000'000;

}  // namespace

RelayHighlighter::RelayHighlighter(QTextDocument* document, bool dark) : QSyntaxHighlighter(document) {
  const QColor keyword = dark ? QColor(0xcc, 0x78, 0x32) : QColor(0x00, 0x33, 0xb3);
  const QColor local = dark ? QColor(0x94, 0xc9, 0xff) : QColor(0x87, 0x10, 0x94);
  const QColor global = dark ? QColor(0xff, 0xc6, 0x6d) : QColor(0x00, 0x62, 0x7a);
  const QColor number = dark ? QColor(0x68, 0x97, 0xbb) : QColor(0x17, 0x50, 0xeb);
  const QColor string = dark ? QColor(0x6a, 0xab, 0x73) : QColor(0x06, 0x7d, 0x17);
  const QColor op = dark ? QColor(0x56, 0xa8, 0xf5) : QColor(0x00, 0x5c, 0xc5);
  const QColor attribute = dark ? QColor(0xb3, 0x89, 0xc5) : QColor(0x8c, 0x5a, 0x00);
  const QColor type = dark ? QColor(0x9a, 0xa0, 0xa8) : QColor(0x5c, 0x63, 0x6b);
  comment_ = charFormat(dark ? QColor(0x7a, 0x7e, 0x85) : QColor(0x8c, 0x8c, 0x8c), false, true);
  auto rule = [this](const char* pattern, const QTextCharFormat& style) {
    rules_.push_back({QRegularExpression(QString::fromLatin1(pattern)), style});
  };
  rule(R"(\b[a-z_][a-z0-9_]*(\.[a-z_][a-z0-9_]*)*(?=\())", charFormat(op));
  rule(R"(\b(Tensor|float16|float32|float64|int8|int16|int32|int64|uint8|bool)\b)", charFormat(type));
  rule(R"(\b[A-Za-z_][A-Za-z0-9_]*(?==))", charFormat(attribute));
  rule(R"(\b(def|fn|let|if|else|meta|free_var|True|False|None)\b)", charFormat(keyword, true));
  rule(R"(-?\b[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?[fi]?[0-9]*\b)", charFormat(number));
  rule(R"(%[A-Za-z0-9_.]+)", charFormat(local));
  rule(R"(@[A-Za-z0-9_.]+)", charFormat(global, true));
  rule(R"("[^"]*")", charFormat(string));
  rule(R"(#\[[^\]]*\])", comment_);
  rule(R"(//.*$)", comment_);
  slicer_.setInterval(0);
  connect(&slicer_, &QTimer::timeout, this, &RelayHighlighter::highlightSlice);
}

void RelayHighlighter::highlightInSlices() {
  nextBlock_ = 0;
  slicer_.start();
}

void RelayHighlighter::highlightSlice() {
  QElapsedTimer clock;
  clock.start();
  QTextBlock block = document() ? document()->findBlockByNumber(nextBlock_) : QTextBlock();
  while (block.isValid() && clock.nsecsElapsed() < kSliceNs) {
    rehighlightBlock(block);
    block = block.next();
  }
  if (block.isValid()) {
    nextBlock_ = block.blockNumber();
    return;
  }
  slicer_.stop();
  emit highlighted();
}

void RelayHighlighter::highlightBlock(const QString& text) {
  if (deferred_) {
    // No colours yet; state 0 (outside a comment) so that the slices colour one line at a time.
    setCurrentBlockState(0);
    return;
  }
  for (const Rule& rule : rules_) {
    for (auto it = rule.pattern.globalMatch(text); it.hasNext();) {
      QRegularExpressionMatch match = it.next();
      setFormat(static_cast<int>(match.capturedStart()), static_cast<int>(match.capturedLength()), rule.format);
    }
  }
  // Block comments /* … */, possibly spanning lines (state 1: inside a comment).
  int start = previousBlockState() == 1 ? 0 : static_cast<int>(text.indexOf(QStringLiteral("/*")));
  setCurrentBlockState(0);
  while (start >= 0) {
    int end = static_cast<int>(text.indexOf(QStringLiteral("*/"), start));
    if (end < 0) {
      setFormat(start, static_cast<int>(text.size()) - start, comment_);
      setCurrentBlockState(1);
      return;
    }
    setFormat(start, end + 2 - start, comment_);
    start = static_cast<int>(text.indexOf(QStringLiteral("/*"), end + 2));
  }
}

}  // namespace byoc::ui
