#include "authoring/target_document.h"

#include "support/file_io.h"
#include "session/partitioning.h"

namespace byoc::ui {

/// One edit of the target: the target before and after it.
class TargetEdit : public QUndoCommand {
 public:
  TargetEdit(TargetDocument* document, Target before, Target after, const QString& text, QString mergeKey)
      : QUndoCommand(text),
        document_(document),
        before_(std::move(before)),
        after_(std::move(after)),
        mergeKey_(std::move(mergeKey)) {}

  void undo() override { document_->target_ = before_; }
  void redo() override { document_->target_ = after_; }
  int id() const override { return mergeKey_.isEmpty() ? -1 : 1; }
  bool mergeWith(const QUndoCommand* other) override {
    const auto* next = static_cast<const TargetEdit*>(other);
    if (next->mergeKey_ != mergeKey_) return false;
    after_ = next->after_;
    return true;
  }

 private:
  TargetDocument* document_;
  Target before_;
  Target after_;
  QString mergeKey_;
};

TargetDocument::TargetDocument(QObject* parent) : QObject(parent), undoStack_(new QUndoStack(this)) {
  connect(undoStack_, &QUndoStack::indexChanged, this, &TargetDocument::onStackMoved);
}

TargetDocument::~TargetDocument() {
  disconnect(undoStack_, nullptr, this, nullptr);  // the stack, a child, outlives this destructor
}

Status TargetDocument::load(const QString& nameOrPath) {
  BYOC_ASSIGN_OR_RETURN(Target loaded, openTarget(nameOrPath.toStdString()));
  const bool isFile = nameOrPath.endsWith(QStringLiteral(".json")) || nameOrPath.contains(QLatin1Char('/'));
  reset(std::move(loaded), isFile ? nameOrPath : QString(), isFile ? QString() : nameOrPath);
  return Status::ok();
}

QString TargetDocument::label() const {
  if (!path_.isEmpty()) return path_;
  return builtin_.isEmpty() ? QString::fromStdString(target_.name) : builtin_;
}

void TargetDocument::reset(Target target, const QString& path, const QString& builtin) {
  resetting_ = true;
  undoStack_->clear();
  resetting_ = false;
  target_ = std::move(target);
  path_ = path;
  builtin_ = builtin;
  setModified(false);
  emit changed();
}

void TargetDocument::update(Target edited, const QString& text, const QString& mergeKey) {
  undoStack_->push(new TargetEdit(this, target_, std::move(edited), text.isEmpty() ? tr("Edit Target") : text, mergeKey));
}

void TargetDocument::onStackMoved() {
  if (resetting_) return;
  setModified(!undoStack_->isClean());
  emit changed();
}

Status TargetDocument::saveAs(const QString& path) {
  BYOC_TRY(writeFileAtomic(path.toStdString(), serializeTarget(target_)));
  path_ = path;
  undoStack_->setClean();
  setModified(false);
  return Status::ok();
}

void TargetDocument::setModified(bool modified) {
  if (modified_ == modified) return;
  modified_ = modified;
  emit modifiedChanged(modified);
}

}  // namespace byoc::ui
