/// \file
/// ConditionDelegate: validation on every keystroke through Predicate::parse and checkPredicate.

#include "authoring/op_support_delegate.h"

#include <QLineEdit>
#include <QToolTip>

#include "target/predicate.h"
#include "target/predicate_check.h"

namespace byoc::ui {

namespace {

/// Marks `editor` as holding an invalid condition (or not), with the error as its tooltip.
void showValidity(QLineEdit* editor) {
  const QString error = conditionError(editor->text());
  editor->setProperty("conditionError", error);
  editor->setToolTip(error);
  editor->setStyleSheet(error.isEmpty() ? QString() : QStringLiteral("QLineEdit { background: #f8d0cc; color: #a01010; }"));
  if (error.isEmpty()) {
    QToolTip::hideText();
  } else if (editor->isVisible()) {
    QToolTip::showText(editor->mapToGlobal(QPoint(0, editor->height())), error, editor);
  }
}

}  // namespace

QString conditionError(const QString& condition) {
  if (condition.trimmed().isEmpty()) return {};
  Result<Predicate> parsed = Predicate::parse(condition.toStdString());
  if (!parsed) return QString::fromStdString(parsed.error().str());
  const Status checked = checkPredicate(*parsed);
  return checked ? QString() : QString::fromStdString(checked.error().str());
}

QWidget* ConditionDelegate::createEditor(QWidget* parent, const QStyleOptionViewItem&, const QModelIndex&) const {
  auto* editor = new QLineEdit(parent);
  editor->setObjectName(QStringLiteral("conditionEditor"));
  editor->setPlaceholderText(tr("always, or e.g. dtype(arg0) == \"float32\""));
  connect(editor, &QLineEdit::textChanged, editor, [editor] { showValidity(editor); });
  return editor;
}

void ConditionDelegate::setEditorData(QWidget* editor, const QModelIndex& index) const {
  auto* line = static_cast<QLineEdit*>(editor);
  line->setText(index.data(Qt::EditRole).toString());
  showValidity(line);
}

void ConditionDelegate::setModelData(QWidget* editor, QAbstractItemModel* model, const QModelIndex& index) const {
  model->setData(index, static_cast<QLineEdit*>(editor)->text(), Qt::EditRole);
}

}  // namespace byoc::ui
