#pragma once
/// \file
/// The editor of a Condition cell of the op-support table: a line edit that checks the condition
/// as it is typed. While the text is not a valid condition, the editor turns red and its tooltip (shown at
/// once) gives `line:column: message`; committing such text leaves it as the row's draft (see
/// OpSupportModel), never in the target.

#include <QStyledItemDelegate>

namespace byoc::ui {

/// The error of `condition` as `line:column: message` (a syntax error, an unknown function, a value
/// of the wrong kind), or an empty string if it is a valid condition (an empty one means "always").
QString conditionError(const QString& condition);

/// Delegate of the Condition column.
class ConditionDelegate : public QStyledItemDelegate {
  Q_OBJECT
 public:
  using QStyledItemDelegate::QStyledItemDelegate;

  QWidget* createEditor(QWidget* parent, const QStyleOptionViewItem& option, const QModelIndex& index) const override;
  void setEditorData(QWidget* editor, const QModelIndex& index) const override;
  void setModelData(QWidget* editor, QAbstractItemModel* model, const QModelIndex& index) const override;
};

}  // namespace byoc::ui
