#include "authoring/target_document.h"

#include "support/file_io.h"
#include "target/target_library.h"

namespace byoc::ui {

TargetDocument::TargetDocument(QObject* parent) : QObject(parent) {}

Status TargetDocument::load(const QString& nameOrPath) {
  BYOC_ASSIGN_OR_RETURN(Target loaded, loadTarget(nameOrPath.toStdString()));
  const bool isFile = nameOrPath.endsWith(QStringLiteral(".json")) || nameOrPath.contains(QLatin1Char('/'));
  reset(std::move(loaded), isFile ? nameOrPath : QString());
  return Status::ok();
}

void TargetDocument::createNew(const QString& name) {
  Target fresh;
  fresh.name = name.toStdString();
  reset(std::move(fresh), {});
}

void TargetDocument::reset(Target target, const QString& path) {
  target_ = std::move(target);
  path_ = path;
  setModified(false);
  emit changed();
}

void TargetDocument::update(Target edited) {
  target_ = std::move(edited);
  setModified(true);
  emit changed();
}

Status TargetDocument::saveAs(const QString& path) {
  BYOC_TRY(writeFileAtomic(path.toStdString(), serializeTarget(target_)));
  path_ = path;
  setModified(false);
  return Status::ok();
}

void TargetDocument::setModified(bool modified) {
  if (modified_ == modified) return;
  modified_ = modified;
  emit modifiedChanged(modified);
}

}  // namespace byoc::ui
