#pragma once
/// \file
/// The IR text panel: Relay text with syntax highlighting, linked to the graph by line and column.
///
/// `showLocation` moves the cursor to a 1-based line and column and highlights that line;
/// when the user moves the cursor, `locationClicked` reports the new line and column.

#include <QPlainTextEdit>

namespace byoc::ui {

/// Read-only Relay text view.
class IrTextView : public QPlainTextEdit {
  Q_OBJECT
 public:
  explicit IrTextView(QWidget* parent = nullptr);

  /// Replaces the text.
  void setIrText(const QString& text);
  /// Moves the cursor to `line`:`column` (1-based) and highlights the line, without emitting.
  void showLocation(int line, int column);

 signals:
  /// The user put the cursor at `line`:`column` (1-based).
  void locationClicked(int line, int column);

 private:
  void highlightCurrentLine();
  bool programmatic_ = false;
};

}  // namespace byoc::ui
