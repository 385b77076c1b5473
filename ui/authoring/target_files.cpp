/// \file
/// TargetFiles: menu actions, the unsaved-changes prompt and the recovery copy.

#include "authoring/target_files.h"

#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QMessageBox>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QStringBuilder>
#include <QWidget>

#include "authoring/target_document.h"
#include "authoring/target_settings.h"
#include "export/tvm_python.h"
#include "support/file_io.h"
#include "target/target_library.h"

namespace byoc::ui {

namespace {

const QString kTargetFilter = QStringLiteral("Target files (*.json)");

QString recoveryFile() { return TargetFiles::recoveryDir() + QStringLiteral("/target.json"); }
QString recoveryPathFile() { return TargetFiles::recoveryDir() + QStringLiteral("/target.path"); }

}  // namespace

TargetFiles::TargetFiles(TargetDocument* document, QWidget* window)
    : QObject(window), document_(document), window_(window), menu_(new QMenu(tr("&Target"), window)) {
  dialogs_ = defaultDialogs();
  menu_->addAction(tr("&New Target…"), this, &TargetFiles::newTarget);
  menu_->addAction(tr("&Open Target…"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O), this, &TargetFiles::open);
  menu_->addAction(tr("Target Se&ttings…"), this, &TargetFiles::editSettings);
  menu_->addSeparator();
  menu_->addAction(tr("&Save Target"), QKeySequence::Save, this, &TargetFiles::save);
  menu_->addAction(tr("Save Target &As…"), QKeySequence::SaveAs, this, &TargetFiles::saveAs);
  menu_->addSeparator();
  menu_->addAction(tr("&Export as TVM Python…"), this, &TargetFiles::exportTvmPython);
  // A copy left by a run that stopped without saving stays until it has been offered: the first
  // target the window loads must not replace or remove it.
  recoveryUnoffered_ = QFileInfo::exists(recoveryFile());
  recoveryTimer_.setSingleShot(true);
  recoveryTimer_.setInterval(kRecoveryDelayMs);
  connect(&recoveryTimer_, &QTimer::timeout, this, &TargetFiles::writeRecovery);
  connect(document_, &TargetDocument::changed, this, &TargetFiles::onChanged);
  connect(document_, &TargetDocument::modifiedChanged, this, [this](bool modified) {
    if (!modified) removeRecovery();
    emit displayNameChanged();
  });
}

TargetFiles::Dialogs TargetFiles::defaultDialogs() {
  Dialogs dialogs;
  dialogs.unsaved = [this](const QString& text) {
    const auto answer = QMessageBox::warning(window_, tr("Unsaved Target"), text,
                                             QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
    return answer == QMessageBox::Save ? Choice::Save : answer == QMessageBox::Discard ? Choice::Discard : Choice::Cancel;
  };
  dialogs.openPath = [this] { return QFileDialog::getOpenFileName(window_, tr("Open Target"), {}, kTargetFilter); };
  dialogs.savePath = [this](const QString& suggested) {
    return QFileDialog::getSaveFileName(window_, tr("Save Target As"), suggested, kTargetFilter);
  };
  dialogs.pythonPath = [this](const QString& suggested) {
    return QFileDialog::getSaveFileName(window_, tr("Export Target as TVM Python"), suggested, tr("Python files (*.py)"));
  };
  auto editInDialog = [this](const Target& target, const QString& title) -> std::optional<Target> {
    TargetSettingsDialog dialog(target, title, window_);
    if (dialog.exec() != QDialog::Accepted || !dialog.edited()) return std::nullopt;
    return *dialog.edited();
  };
  dialogs.newTarget = [this, editInDialog] {
    Target fresh;
    fresh.codegen = "reference";
    std::vector<std::string> taken = builtinTargetNames();
    taken.push_back(document_->target().name);
    fresh.name = unusedTargetName(taken).toStdString();
    return editInDialog(fresh, tr("New Target"));
  };
  dialogs.settings = [editInDialog](const Target& target) { return editInDialog(target, tr("Target Settings")); };
  dialogs.restore = [this](const QString& text) {
    return QMessageBox::question(window_, tr("Recover Target"), text, QMessageBox::Yes | QMessageBox::No, QMessageBox::Yes) ==
           QMessageBox::Yes;
  };
  dialogs.error = [this](const QString& message) { QMessageBox::warning(window_, tr("Target"), message); };
  return dialogs;
}

bool TargetFiles::confirmReplace() {
  if (!document_->isModified()) return true;
  const QString name = QString::fromStdString(document_->target().name);
  switch (dialogs_.unsaved(tr("The target '%1' has unsaved changes. Save them?").arg(name))) {
    case Choice::Save:
      return save();
    case Choice::Discard:
      removeRecovery();
      return true;
    case Choice::Cancel:
      break;
  }
  return false;
}

bool TargetFiles::newTarget() {
  if (!confirmReplace()) return false;
  std::optional<Target> fresh = dialogs_.newTarget();
  if (!fresh) return false;
  document_->reset(std::move(*fresh), {});
  return true;
}

bool TargetFiles::editSettings() {
  std::optional<Target> edited = dialogs_.settings(document_->target());
  if (!edited || serializeTarget(*edited) == serializeTarget(document_->target())) return false;
  document_->update(std::move(*edited), tr("Edit Target Settings"));
  return true;
}

bool TargetFiles::open() {
  if (!confirmReplace()) return false;
  const QString path = dialogs_.openPath();
  return !path.isEmpty() && openPath(path);
}

bool TargetFiles::openPath(const QString& path) {
  if (!confirmReplace()) return false;
  if (Status loaded = document_->load(path); !loaded) {
    dialogs_.error(tr("Could not open the target: %1").arg(QString::fromStdString(loaded.error().str())));
    return false;
  }
  return true;
}

bool TargetFiles::save() { return document_->path().isEmpty() ? saveAs() : saveTo(document_->path()); }

bool TargetFiles::saveAs() {
  const QString suggested = document_->path().isEmpty() ? QString::fromStdString(document_->target().name) + QStringLiteral(".json")
                                                        : document_->path();
  const QString path = dialogs_.savePath(suggested);
  return !path.isEmpty() && saveTo(path);
}

bool TargetFiles::saveTo(const QString& path) {
  if (Status saved = document_->saveAs(path); !saved) {
    dialogs_.error(tr("Could not save the target: %1").arg(QString::fromStdString(saved.error().str())));
    return false;
  }
  return true;  // modifiedChanged(false) removes the recovery copy
}

bool TargetFiles::exportTvmPython() {
  Result<std::string> module = targetAsTvmPython(document_->target());
  if (!module) {
    dialogs_.error(tr("The target has no TVM form: %1").arg(QString::fromStdString(module.error().str())));
    return false;
  }
  // A Python module name: the target's name with what Python forbids replaced.
  QString suggested = QString::fromStdString(document_->target().name);
  suggested.replace(QRegularExpression(QStringLiteral("[^A-Za-z0-9_]")), QStringLiteral("_"));
  const QString path = dialogs_.pythonPath(suggested + QStringLiteral(".py"));
  if (path.isEmpty()) return false;
  if (Status written = writeFileAtomic(path.toStdString(), *module); !written) {
    dialogs_.error(tr("Could not export the target: %1").arg(QString::fromStdString(written.error().str())));
    return false;
  }
  return true;
}

QString TargetFiles::recoveryDir() {
  return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QStringLiteral("/recovery");
}

bool TargetFiles::offerRecovery() {
  recoveryUnoffered_ = false;
  if (!QFileInfo::exists(recoveryFile())) return false;
  Result<std::string> text = readFile(recoveryFile().toStdString());
  Result<Target> target = text ? parseTarget(*text, recoveryFile().toStdString()) : Result<Target>(text.error());
  if (!target) {
    dialogs_.error(tr("The recovered target could not be read: %1").arg(QString::fromStdString(target.error().str())));
    removeRecovery();
    return false;
  }
  QFile pathFile(recoveryPathFile());
  const QString original = pathFile.open(QIODevice::ReadOnly) ? QString::fromUtf8(pathFile.readAll()) : QString();
  const QString name = QString::fromStdString(target->name);
  const QString question = original.isEmpty()
                               ? tr("The target '%1' had unsaved changes when BYOC Studio last stopped. Restore them?").arg(name)
                               : tr("The target '%1' (%2) had unsaved changes when BYOC Studio last stopped. Restore them?")
                                     .arg(name, original);
  if (!dialogs_.restore(question)) {
    removeRecovery();
    return false;
  }
  document_->reset(*target, original);
  document_->update(std::move(target).value(), tr("Restore Recovered Target"));
  writeRecovery();
  return true;
}

void TargetFiles::writeRecovery() {
  recoveryTimer_.stop();
  if (!document_->isModified() || recoveryUnoffered_) return;
  QDir().mkpath(recoveryDir());
  // A recovery copy that cannot be written leaves the edits in memory, where they still are.
  if (writeFileAtomic(recoveryFile().toStdString(), serializeTarget(document_->target())))
    (void)writeFileAtomic(recoveryPathFile().toStdString(), document_->path().toStdString());
}

void TargetFiles::removeRecovery() {
  recoveryTimer_.stop();
  if (recoveryUnoffered_) return;
  QFile::remove(recoveryFile());
  QFile::remove(recoveryPathFile());
}

void TargetFiles::onChanged() {
  if (document_->isModified()) {
    recoveryTimer_.start();
  } else {
    removeRecovery();
  }
  emit displayNameChanged();
}

QString TargetFiles::displayName() const {
  return QString::fromStdString(document_->target().name) + (document_->isModified() ? QStringLiteral("*") : QString());
}

}  // namespace byoc::ui
