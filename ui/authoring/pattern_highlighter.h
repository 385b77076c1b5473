#pragma once
/// \file
/// Syntax colours for the pattern language (docs/patterns.md): registered op names, keywords
/// (`var`, `const`, `fn`, `dominates`, `has_type`, …), names being defined or attribute keys,
/// `%vars` and `@globals`, numbers, strings and `#` comments. An identifier that is not a keyword
/// is coloured as an op only when the op registry knows it.

#include <QRegularExpression>
#include <QSet>
#include <QSyntaxHighlighter>
#include <QTextCharFormat>

namespace byoc::ui {

/// QSyntaxHighlighter for pattern text.
class PatternHighlighter : public QSyntaxHighlighter {
  Q_OBJECT
 public:
  /// `dark` picks colours readable on a dark background.
  PatternHighlighter(QTextDocument* document, bool dark);

 protected:
  void highlightBlock(const QString& text) override;

 private:
  QSet<QString> ops_;
  QRegularExpression token_;
  QTextCharFormat op_;
  QTextCharFormat keyword_;
  QTextCharFormat name_;
  QTextCharFormat variable_;
  QTextCharFormat number_;
  QTextCharFormat string_;
  QTextCharFormat comment_;
};

/// The words of the pattern language that are not op names, in the order completion lists them.
QStringList patternKeywords();

}  // namespace byoc::ui
