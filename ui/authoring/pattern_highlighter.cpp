/// \file
/// PatternHighlighter: one tokenising regular expression; its named groups pick the colour.

#include "authoring/pattern_highlighter.h"

#include "ir/op.h"
#include "panels/char_format.h"

namespace byoc::ui {

QStringList patternKeywords() {
  return {QStringLiteral("var"),       QStringLiteral("const"),     QStringLiteral("fn"),
          QStringLiteral("if"),        QStringLiteral("let"),       QStringLiteral("dominates"),
          QStringLiteral("has_type"),  QStringLiteral("has_dtype"), QStringLiteral("has_shape"),
          QStringLiteral("optional"),  QStringLiteral("True"),      QStringLiteral("False"),
          QStringLiteral("None")};
}

PatternHighlighter::PatternHighlighter(QTextDocument* document, bool dark)
    : QSyntaxHighlighter(document),
      // Order matters: a comment or string swallows what looks like other tokens inside it.
      token_(QStringLiteral(R"((?<comment>#.*$)|(?<string>"(?:[^"\\]|\\.)*"?))"
                            R"(|(?<variable>[%@][A-Za-z0-9_.]+))"
                            R"(|(?<number>-?\b[0-9]+(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?(?:[fi][0-9]*)?\b))"
                            R"(|(?<word>\b[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)(?<defines>\s*=(?!=))?)")) {
  for (const OpDef* def : OpRegistry::global().all()) ops_.insert(QString::fromStdString(def->name));
  op_ = charFormat(dark ? QColor(0x56, 0xa8, 0xf5) : QColor(0x00, 0x5c, 0xc5), true);
  keyword_ = charFormat(dark ? QColor(0xcc, 0x78, 0x32) : QColor(0x00, 0x33, 0xb3), true);
  name_ = charFormat(dark ? QColor(0xb3, 0x89, 0xc5) : QColor(0x8c, 0x5a, 0x00));
  variable_ = charFormat(dark ? QColor(0x94, 0xc9, 0xff) : QColor(0x87, 0x10, 0x94));
  number_ = charFormat(dark ? QColor(0x68, 0x97, 0xbb) : QColor(0x17, 0x50, 0xeb));
  string_ = charFormat(dark ? QColor(0x6a, 0xab, 0x73) : QColor(0x06, 0x7d, 0x17));
  comment_ = charFormat(dark ? QColor(0x7a, 0x7e, 0x85) : QColor(0x8c, 0x8c, 0x8c), false, true);
}

void PatternHighlighter::highlightBlock(const QString& text) {
  static const QStringList keywords = patternKeywords();
  for (auto it = token_.globalMatch(text); it.hasNext();) {
    const QRegularExpressionMatch match = it.next();
    auto paint = [&](const char* group, const QTextCharFormat& format) {
      const QString name = QString::fromLatin1(group);
      setFormat(static_cast<int>(match.capturedStart(name)), static_cast<int>(match.capturedLength(name)), format);
    };
    if (match.hasCaptured(QStringLiteral("comment"))) {
      paint("comment", comment_);
    } else if (match.hasCaptured(QStringLiteral("string"))) {
      paint("string", string_);
    } else if (match.hasCaptured(QStringLiteral("variable"))) {
      paint("variable", variable_);
    } else if (match.hasCaptured(QStringLiteral("number"))) {
      paint("number", number_);
    } else {
      const QString word = match.captured(QStringLiteral("word"));
      if (match.hasCaptured(QStringLiteral("defines"))) {
        paint("word", name_);
      } else if (keywords.contains(word)) {
        paint("word", keyword_);
      } else if (ops_.contains(word)) {
        paint("word", op_);
      }
    }
  }
}

}  // namespace byoc::ui
