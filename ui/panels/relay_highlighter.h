#pragma once
/// \file
/// Syntax colours for Relay text: keywords, `%locals`, `@globals`, numbers, strings, comments,
/// attribute names and op names.
///
/// A large text (a 10,000-node model prints to megabytes) is not coloured in one go: the owner
/// sets it while the highlighter is `setDeferred(true)`, then calls `highlightInSlices()`, which
/// colours the document from the top in slices of a few milliseconds between events, so the UI
/// thread keeps running. Colouring a slice is the same as colouring the whole text at once.

#include <QRegularExpression>
#include <QSyntaxHighlighter>
#include <QTimer>
#include <vector>

namespace byoc::ui {

/// QSyntaxHighlighter for the Relay text format.
class RelayHighlighter : public QSyntaxHighlighter {
  Q_OBJECT
 public:
  /// `dark` picks colours readable on a dark background.
  RelayHighlighter(QTextDocument* document, bool dark);

  /// While deferred, text added to the document stays uncoloured (until `highlightInSlices`).
  void setDeferred(bool deferred) { deferred_ = deferred; }
  /// Colours the whole document from its first line, a slice per turn of the event loop;
  /// `highlighted` follows when the last line is done. Restarts if already running.
  void highlightInSlices();
  /// Stops colouring slices (the text they were for was replaced).
  void stopSlicing() { slicer_.stop(); }
  /// True while slices remain to be coloured.
  bool isSlicing() const { return slicer_.isActive(); }

 signals:
  /// The slices started by `highlightInSlices` are all coloured.
  void highlighted();

 protected:
  void highlightBlock(const QString& text) override;

 private:
  struct Rule {
    QRegularExpression pattern;
    QTextCharFormat format;
  };
  /// Colours lines from `nextBlock_` for a few milliseconds.
  void highlightSlice();

  std::vector<Rule> rules_;
  QTextCharFormat comment_;
  bool deferred_ = false;
  QTimer slicer_;
  int nextBlock_ = 0;
};

}  // namespace byoc::ui
