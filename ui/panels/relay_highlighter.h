#pragma once
/// \file
/// Syntax colours for Relay text: keywords, `%locals`, `@globals`, numbers, strings, comments,
/// attribute names and op names.

#include <QRegularExpression>
#include <QSyntaxHighlighter>
#include <vector>

namespace byoc::ui {

/// QSyntaxHighlighter for the Relay text format.
class RelayHighlighter : public QSyntaxHighlighter {
  Q_OBJECT
 public:
  /// `dark` picks colours readable on a dark background.
  RelayHighlighter(QTextDocument* document, bool dark);

 protected:
  void highlightBlock(const QString& text) override;

 private:
  struct Rule {
    QRegularExpression pattern;
    QTextCharFormat format;
  };
  std::vector<Rule> rules_;
  QTextCharFormat comment_;
};

}  // namespace byoc::ui
