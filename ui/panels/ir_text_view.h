#pragma once
/// \file
/// The IR text panel: Relay text with syntax highlighting, linked to the graph by line and column.
///
/// `showLocation` moves the cursor to a 1-based line and column and highlights that line
/// (`showRange` also highlights a node's whole range);
/// when the user moves the cursor, `locationClicked` reports the new line and column.
///
/// A text longer than `kSlicedHighlightAbove` characters (a 100,000-node model prints to megabytes)
/// never holds the UI thread for long: its first lines are shown at once, the rest is appended a
/// slice per turn of the event loop, and then it is coloured in slices (see RelayHighlighter). A
/// location asked for before its line has arrived is shown when it arrives.

#include <QPlainTextEdit>
#include <QTimer>
#include <optional>

#include "text/printer.h"

namespace byoc::ui {

class RelayHighlighter;

/// Texts longer than this (in characters) are appended, then coloured, in slices.
inline constexpr qsizetype kSlicedHighlightAbove = 100'000;

/// Read-only Relay text view.
class IrTextView : public QPlainTextEdit {
  Q_OBJECT
 public:
  explicit IrTextView(QWidget* parent = nullptr);

  /// Replaces the text.
  void setIrText(const QString& text);
  /// Colours the text for a dark (or light) background.
  void setDarkColours(bool dark);
  /// The syntax highlighter of the text.
  RelayHighlighter* highlighter() const { return highlighter_; }
  /// Moves the cursor to `line`:`column` (1-based) and highlights the line, without emitting.
  void showLocation(int line, int column);
  /// Moves the cursor to the start of `range`, highlights its line and the range, without emitting.
  void showRange(const TextRange& range);
  /// The text `range` covers (empty for an empty range), e.g. for tests.
  QString textOf(const TextRange& range) const;
  /// True while slices of a large text remain to be appended.
  bool isFilling() const { return filler_.isActive(); }

 signals:
  /// The user put the cursor at `line`:`column` (1-based).
  void locationClicked(int line, int column);

 private:
  void highlightCurrentLine();
  /// Appends the next slices of `pendingText_` for a few milliseconds; when all of it is in,
  /// starts colouring.
  void fillSlice();
  /// Shows `pendingRange_` once its line is in the document.
  void showPendingRange();
  /// The document position of `line`:`column` (1-based), clamped into the text.
  int positionOf(int line, int column) const;
  bool programmatic_ = false;
  RelayHighlighter* highlighter_ = nullptr;
  QTimer filler_;
  QString pendingText_;
  qsizetype filledUpTo_ = 0;
  std::optional<TextRange> pendingRange_;
};

}  // namespace byoc::ui
