#pragma once
/// \file
/// The "Op Support" dock: the op-support table of the edited target over the loaded model, with a
/// summary line (how many op types and calls the target supports, and the first error evaluating
/// a condition on the model, if any).

#include <QWidget>

class QLabel;
class QTableView;

namespace byoc::ui {

class OpSupportModel;
class SupportColourer;
class TargetDocument;

/// The dock's widget.
class OpSupportPanel : public QWidget {
  Q_OBJECT
 public:
  /// Shows `model`; the summary follows `document` and the colours of `colourer`.
  OpSupportPanel(OpSupportModel* model, SupportColourer* colourer, TargetDocument* document, QWidget* parent = nullptr);

  QTableView* view() const { return view_; }
  /// The summary line, e.g. `byoc-target: 3 of 5 op types, 7 of 9 calls supported`.
  QString summary() const;
  /// The first error evaluating a condition on the model's calls, or an empty string.
  QString error() const;

 private:
  void updateSummary();

  OpSupportModel* model_;
  SupportColourer* colourer_;
  TargetDocument* document_;
  QLabel* summary_;
  QLabel* error_;
  QTableView* view_;
};

}  // namespace byoc::ui
