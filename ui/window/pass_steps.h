#pragma once
/// \file
/// The pass steps the timeline shows, and each step's module printed for the IR text panel.
///
/// A large module takes a noticeable time to print, so a step is printed on a worker the first
/// time it is asked for (`print`), and kept. New steps drop the texts and any print in flight.

#include <QObject>
#include <memory>
#include <vector>

#include "snapshot/snapshot.h"
#include "support/job.h"

namespace byoc::ui {

class TextLinks;

/// Pass steps with their texts printed on demand.
class PassSteps : public QObject {
  Q_OBJECT
 public:
  explicit PassSteps(QObject* parent = nullptr);
  ~PassSteps() override;

  /// Replaces the steps (step 0 is normally the loaded module); forgets every text.
  void setSteps(std::vector<Snapshot> steps);
  /// The steps.
  const std::vector<Snapshot>& steps() const { return steps_; }
  /// How many steps there are.
  int count() const { return static_cast<int>(steps_.size()); }
  /// Whether `step` is one of the steps.
  bool contains(int step) const { return step >= 0 && step < count(); }
  /// Step `step`'s module printed, or null until `print(step)` delivered it.
  std::shared_ptr<const TextLinks> text(int step) const;
  /// Prints step `step`'s module on a worker unless it is printed or being printed; `printed`
  /// follows. A print of another step in flight is dropped.
  void print(int step);

 signals:
  /// `text(step)` is now available.
  void printed(int step);

 private:
  std::vector<Snapshot> steps_;
  /// Each step's module printed, once asked for.
  std::vector<std::shared_ptr<const TextLinks>> texts_;
  /// The step being printed while `printJob_` runs.
  int printing_ = -1;
  JobTracker printJob_{this};
};

}  // namespace byoc::ui
