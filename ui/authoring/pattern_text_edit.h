#pragma once
/// \file
/// The code editor of the pattern dock: a QPlainTextEdit with the pattern highlighter, completion
/// of op names and keywords (QCompleter, as you type or with Ctrl+Space), and one error shown in
/// place: a red wavy underline at the error's line:column whose tooltip is the message.

#include <QPlainTextEdit>

class QCompleter;

namespace byoc::ui {

class PatternHighlighter;

/// Pattern text editor with completion and an in-place error.
class PatternTextEdit : public QPlainTextEdit {
  Q_OBJECT
 public:
  /// An empty editor in the system fixed-width font, light colours.
  explicit PatternTextEdit(QWidget* parent = nullptr);
  ~PatternTextEdit() override;

  /// Underlines the token at 1-based `line`:`column` (the whole first line when `line` is 0) and
  /// shows `message` as its tooltip. Replaces the previous error.
  void setError(int line, int column, const QString& message);
  /// Removes the error.
  void clearError();
  /// The error's message, or empty.
  const QString& errorMessage() const { return errorMessage_; }
  /// Where the underline starts and how many characters it covers (0 when there is no error).
  int errorStart() const { return errorStart_; }
  /// How many characters the underline covers.
  int errorLength() const { return errorLength_; }

  /// Switches the highlighter colours.
  void setDark(bool dark);
  /// The completer of op names and keywords.
  QCompleter* completer() const { return completer_; }
  /// The word (op names include their dots) that ends at the cursor.
  QString wordBeforeCursor() const;

 protected:
  void keyPressEvent(QKeyEvent* event) override;
  bool event(QEvent* event) override;

 private:
  void insertCompletion(const QString& completion);
  void showCompletions(bool force);

  PatternHighlighter* highlighter_ = nullptr;
  QCompleter* completer_;
  QString errorMessage_;
  int errorStart_ = 0;
  int errorLength_ = 0;
};

}  // namespace byoc::ui
