#pragma once
/// \file
/// The Partition toolbar: the target being edited and partitioned for (a built-in or a target
/// file), the partitioning flow, and Run Passes (Ctrl+R).

#include <QToolBar>

class QComboBox;

namespace byoc {
struct Diagnostic;
}

namespace byoc::ui {

class TargetDocument;
class TargetFiles;

/// The target and flow choosers and Run Passes.
class PartitionBar : public QToolBar {
  Q_OBJECT
 public:
  /// Chooses `document`'s target; `files` asks before unsaved edits are replaced.
  PartitionBar(TargetDocument* document, TargetFiles* files, QWidget* parent = nullptr);

  /// The chosen flow: "relay" or "relax".
  QString pipeline() const;
  /// Chooses the flow `pipeline` if it is one.
  void setPipeline(const QString& pipeline);

 signals:
  /// Run Passes was triggered.
  void runRequested();
  /// A chosen target could not be loaded.
  void failed(const byoc::Diagnostic& error);

 private:
  /// Loads the target of row `index` (the last row asks for a file).
  void choose(int index);
  /// Selects (adding it if needed) the edited target.
  void showTarget();

  TargetDocument* document_;
  TargetFiles* files_;
  QComboBox* targetChooser_;
  QComboBox* pipelineChooser_;
};

}  // namespace byoc::ui
