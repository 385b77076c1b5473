#pragma once
/// \file
/// The "Replace with" row of the Patterns dock: a replacement for the pattern being edited, written
/// in the pattern language over the pattern's names (pattern/replacement.h), checked as it is
/// typed. "Preview" rewrites the function of the tab in front on a worker, every match replaced
/// until nothing changes, exactly as `byoc rewrite` and a target's rewrite rows do, and hands the
/// result over to be drawn in a tab of its own. Nothing of the model or the target changes.

#include <QWidget>

#include "ir/expr.h"
#include "pattern/owned_pattern.h"
#include "support/job.h"

class QLabel;
class QLineEdit;
class QPushButton;

namespace byoc::ui {

/// Replacement field, Preview button and status line.
class RewritePreview : public QWidget {
  Q_OBJECT
 public:
  explicit RewritePreview(QWidget* parent = nullptr);

  /// The pattern the replacement is for: the editor's, once it parses (null while it does not).
  void setPattern(OwnedPattern pattern);
  /// The function a preview rewrites, named `name` (null: none open).
  void setFunction(Function function, const QString& name);
  /// Rewrites the function now, as the button does; false (and the reason shown) when the
  /// replacement, the pattern or the function is missing or the replacement does not parse.
  bool preview();

  /// The replacement's field.
  QLineEdit* replacementEdit() const { return replacement_; }
  /// The line under the field: the replacement's error, the rewrite's outcome, or empty.
  QString statusText() const;
  /// True while a rewrite runs.
  bool isRunning() const { return job_.isRunning(); }

 signals:
  /// A preview is done: `rewritten` is the function `name` after the rewrite, to be shown as `title`.
  void previewReady(const byoc::Function& rewritten, const QString& name, const QString& title);

 private:
  /// Reads the field against the pattern; shows its error and enables the button.
  void check();
  void setStatus(const QString& text, bool error);

  QLineEdit* replacement_;
  QPushButton* previewButton_;
  QLabel* status_;
  OwnedPattern pattern_;
  Function function_;
  QString name_;
  /// Whether the status line says how the last preview went (kept until the field changes).
  bool showsOutcome_ = false;
  JobTracker job_{this};
};

}  // namespace byoc::ui
