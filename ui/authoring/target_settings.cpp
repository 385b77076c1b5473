/// \file
/// withSettings and the TargetSettingsDialog.

#include "authoring/target_settings.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QStringList>
#include <QVBoxLayout>
#include <algorithm>

#include "ir/op.h"
#include "pass/builtin_passes.h"
#include "pass/pipeline.h"
#include "pass/registry.h"
#include "runtime/runtime_module.h"

namespace byoc::ui {

namespace {

std::string joined(const std::vector<std::string>& names) {
  std::string text;
  for (const std::string& name : names) text += (text.empty() ? "" : ", ") + name;
  return text;
}

/// `error`, found at a line:column of the text of `field`, as `field: line:column: message`.
Diagnostic inField(const char* field, Diagnostic error) {
  const std::string at =
      error.location.line > 0 ? std::to_string(error.location.line) + ":" + std::to_string(error.location.column) + ": " : "";
  error.message = std::string(field) + ": " + at + error.message;
  error.location = {};
  return error;
}

}  // namespace

TargetSettings settingsOf(const Target& target) {
  return {QString::fromStdString(target.name), QString::fromStdString(target.description),
          QString::fromStdString(target.codegen), QString::fromStdString(target.preparePipeline),
          QString::fromStdString(joined(target.pruneKeepOps))};
}

Result<Target> withSettings(Target target, const TargetSettings& settings) {
  const std::string before = target.name;
  target.name = settings.name.trimmed().toStdString();
  if (target.name.empty()) return makeError("name: a target needs a name");
  // AnnotateTarget gives a target the composites named `<target>.…`: renamed, the target keeps
  // its patterns only if their prefix follows.
  if (!before.empty() && before != target.name) {
    for (PatternEntry& row : target.patterns)
      if (row.name.starts_with(before + ".")) row.name = target.name + row.name.substr(before.size());
  }
  target.description = settings.description.trimmed().toStdString();
  target.codegen = settings.codegen.trimmed().toStdString();
  // A target may name a plugin codegen that is not loaded now: it is data, run where the plugin is.
  if (!target.codegen.empty() && !findCodegen(target.codegen) && !target.codegen.starts_with("plugin:"))
    return makeError("codegen: unknown codegen '" + target.codegen + "'; expected one of: " + joined(codegenNames()));
  target.preparePipeline = settings.preparePipeline.trimmed().toStdString();
  if (!target.preparePipeline.empty()) {
    Result<std::vector<PipelineStep>> steps = parsePipeline(target.preparePipeline, builtinPasses());
    if (!steps) return inField("prepare pipeline", steps.error());
  }
  target.pruneKeepOps.clear();
  for (const QString& op : settings.pruneKeepOps.split(QRegularExpression(QStringLiteral("[,\\s]+")), Qt::SkipEmptyParts)) {
    if (!OpRegistry::global().find(op.toStdString())) return makeError("prune ops: unknown op '" + op.toStdString() + "'");
    target.pruneKeepOps.push_back(op.toStdString());
  }
  return target;
}

QString unusedTargetName(const std::vector<std::string>& taken) {
  for (int n = 1;; ++n) {
    const std::string name = n == 1 ? "my_target" : "my_target_" + std::to_string(n);
    if (std::find(taken.begin(), taken.end(), name) == taken.end()) return QString::fromStdString(name);
  }
}

QString codegenCompositeHint(const QString& codegen, const QString& target) {
  const Codegen* found = codegen.isEmpty() ? nullptr : findCodegen(codegen.toStdString());
  if (!found || found->composites.empty()) return {};
  constexpr std::size_t kShown = 4;
  QStringList shown;
  for (std::size_t i = 0; i < std::min(kShown, found->composites.size()); ++i)
    shown << target.trimmed() + u'.' + QString::fromStdString(found->composites[i]);
  return QObject::tr("%1 builds the composites of patterns named %2, … (%3 names, offered when a pattern is named)")
      .arg(codegen, shown.join(QStringLiteral(", ")))
      .arg(found->composites.size());
}

TargetSettingsDialog::TargetSettingsDialog(const Target& target, const QString& title, QWidget* parent)
    : QDialog(parent), original_(target), edited_(target) {
  setWindowTitle(title);
  const TargetSettings settings = settingsOf(target);
  name_ = new QLineEdit(settings.name, this);
  description_ = new QLineEdit(settings.description, this);
  codegen_ = new QComboBox(this);
  codegen_->addItem(tr("none: regions run on the reference codegen"), QString());
  for (const std::string& name : codegenNames()) {
    const Codegen* codegen = findCodegen(name);
    codegen_->addItem(QString::fromStdString(name + " — " + codegen->summary), QString::fromStdString(name));
  }
  // A plugin codegen the target names but no loaded plugin provides stays visible, marked.
  if (!settings.codegen.isEmpty() && codegen_->findData(settings.codegen) < 0)
    codegen_->addItem(settings.codegen + tr(" — not loaded (see docs/plugins.md)"), settings.codegen);
  codegen_->setCurrentIndex(std::max(0, codegen_->findData(settings.codegen)));
  codegen_->setToolTip(tr("The codegen that compiles the target's regions when the model runs. The Run dock compares the run "
                          "with the reference kernels: on the reference codegen that checks the partitioning only. "
                          "Codegen plugins (plugin:NAME) come from --plugin, the plugin path setting and BYOC_PLUGIN_PATH."));
  prepare_ = new QLineEdit(settings.preparePipeline, this);
  prepare_->setPlaceholderText(tr("passes run before partitioning, e.g. SimplifyInference, FoldConstant"));
  prune_ = new QLineEdit(settings.pruneKeepOps, this);
  prune_->setPlaceholderText(tr("keep only regions holding one of these ops, e.g. nn.conv2d, nn.dense"));
  error_ = new QLabel(this);
  error_->setWordWrap(true);
  error_->setStyleSheet(QStringLiteral("color: #c0392b"));
  composites_ = new QLabel(this);
  composites_->setWordWrap(true);
  composites_->setObjectName(QStringLiteral("codegenComposites"));
  buttons_ = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
  connect(buttons_, &QDialogButtonBox::accepted, this, &QDialog::accept);
  connect(buttons_, &QDialogButtonBox::rejected, this, &QDialog::reject);

  auto* form = new QFormLayout;
  form->addRow(tr("&Name:"), name_);
  form->addRow(tr("&Description:"), description_);
  form->addRow(tr("&Codegen:"), codegen_);
  form->addRow(tr("&Prepare pipeline:"), prepare_);
  form->addRow(tr("P&rune: keep ops:"), prune_);
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(form);
  layout->addWidget(composites_);
  layout->addWidget(error_);
  layout->addWidget(buttons_);
  for (QLineEdit* edit : {name_, description_, prepare_, prune_})
    connect(edit, &QLineEdit::textChanged, this, &TargetSettingsDialog::check);
  connect(codegen_, &QComboBox::currentIndexChanged, this, &TargetSettingsDialog::check);
  resize(560, sizeHint().height());
  check();
}

TargetSettings TargetSettingsDialog::settings() const {
  return {name_->text(), description_->text(), codegen_->currentData().toString(), prepare_->text(), prune_->text()};
}

QString TargetSettingsDialog::error() const { return error_->text(); }

QString TargetSettingsDialog::compositeHint() const { return composites_->text(); }

bool TargetSettingsDialog::canAccept() const { return buttons_->button(QDialogButtonBox::Ok)->isEnabled(); }

void TargetSettingsDialog::check() {
  edited_ = withSettings(original_, settings());
  error_->setText(edited_ ? QString() : QString::fromStdString(edited_.error().str()));
  error_->setVisible(!edited_);
  composites_->setText(codegenCompositeHint(codegen_->currentData().toString(), name_->text()));
  composites_->setVisible(!composites_->text().isEmpty());
  buttons_->button(QDialogButtonBox::Ok)->setEnabled(static_cast<bool>(edited_));
}

}  // namespace byoc::ui
