#pragma once
/// \file
/// The pass timeline: the list of steps with previous/next buttons and a slider, all kept in step:
/// however the step changes (a click, Alt+Left/Right, the slider, the window), its row is selected
/// and scrolled to.

#include <QWidget>

class QSlider;
class QTableView;
class QToolButton;
class QLabel;

namespace byoc::ui {

class SnapshotListModel;

/// Step list, previous/next and slider over a SnapshotListModel.
class TimelineWidget : public QWidget {
  Q_OBJECT
 public:
  explicit TimelineWidget(SnapshotListModel* model, QWidget* parent = nullptr);

  /// The selected step, or -1 when there are none.
  int currentStep() const { return current_; }
  /// Selects `step` (clamped) and emits `stepChanged` if it changed.
  void setCurrentStep(int step);
  /// The list of steps.
  QTableView* stepList() const { return list_; }
  /// Marks the steps as made before `reason` (the target was edited), in the caption, until new
  /// steps come; empty: they are up to date.
  void setStale(const QString& reason);
  /// Why the steps are out of date, or empty when they are not.
  const QString& staleReason() const { return stale_; }

 signals:
  /// The selected step changed.
  void stepChanged(int step);
  /// The user asked to open `step`'s module in its own tab (double-click).
  void stepOpened(int step);

 private:
  void syncControls();

  SnapshotListModel* model_;
  QTableView* list_;
  QSlider* slider_;
  QToolButton* previous_;
  QToolButton* next_;
  QLabel* caption_;
  int current_ = -1;
  QString stale_;
};

}  // namespace byoc::ui
