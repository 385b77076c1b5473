#pragma once
/// \file
/// The settings of a target beside its rules and patterns: name, description, the codegen that
/// runs its regions, the pipeline its flow runs before partitioning and the ops a region must hold
/// to be kept (docs/targets.md). `withSettings` checks and applies them; the dialog edits them,
/// each error shown under the fields as it is typed.

#include <QDialog>
#include <QString>
#include <string>
#include <vector>

#include "support/result.h"
#include "target/target.h"

class QComboBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;

namespace byoc::ui {

/// The fields of the dialog, as text.
struct TargetSettings {
  QString name;
  QString description;
  /// A built-in codegen (`dnnl`, `reference`), or empty: the regions run on the reference codegen.
  QString codegen;
  /// Pass-pipeline text (`SimplifyInference, FoldConstant`), may be empty.
  QString preparePipeline;
  /// Op names separated by commas or spaces, may be empty.
  QString pruneKeepOps;
};

/// The settings of `target`.
TargetSettings settingsOf(const Target& target);

/// `target` with `settings` applied. The error names the field: `name: a target needs a name`,
/// `codegen: unknown codegen 'x'; expected one of: dnnl, reference`, `prepare pipeline: 1:15:
/// unknown pass 'X'`, `prune ops: unknown op 'nn.relux'`.
Result<Target> withSettings(Target target, const TargetSettings& settings);

/// A name for a new target that none of `taken` has: `my_target`, then `my_target_2`, …
QString unusedTargetName(const std::vector<std::string>& taken);

/// What the codegen `codegen` builds, for a target named `target`: the first of its composite
/// names (`mine.conv2d, mine.conv2d_relu, …`), or empty when it lists none.
QString codegenCompositeHint(const QString& codegen, const QString& target);

/// Edits the settings of a target; OK is enabled while they are valid.
class TargetSettingsDialog : public QDialog {
  Q_OBJECT
 public:
  /// Edits `target`'s settings; `title` is the window title ("Target Settings", "New Target").
  TargetSettingsDialog(const Target& target, const QString& title, QWidget* parent = nullptr);

  /// The target with the fields applied, when they are valid.
  const Result<Target>& edited() const { return edited_; }
  /// The fields as shown.
  TargetSettings settings() const;

  QLineEdit* nameEdit() const { return name_; }
  QComboBox* codegenBox() const { return codegen_; }
  QLineEdit* prepareEdit() const { return prepare_; }
  QLineEdit* pruneEdit() const { return prune_; }
  /// The error under the fields, empty while they are valid.
  QString error() const;
  /// The line saying which composites the chosen codegen builds (see codegenCompositeHint).
  QString compositeHint() const;
  /// Whether OK may be pressed.
  bool canAccept() const;

 private:
  void check();

  Target original_;
  Result<Target> edited_;
  QLineEdit* name_;
  QLineEdit* description_;
  QComboBox* codegen_;
  QLineEdit* prepare_;
  QLineEdit* prune_;
  QLabel* error_;
  QLabel* composites_;
  QDialogButtonBox* buttons_;
};

}  // namespace byoc::ui
