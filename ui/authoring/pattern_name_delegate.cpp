/// \file
/// PatternNameDelegate: a QLineEdit with a completer over the codegen's composite names.

#include "authoring/pattern_name_delegate.h"

#include <QCompleter>
#include <QLineEdit>

#include "authoring/pattern_table_model.h"

namespace byoc::ui {

PatternNameDelegate::PatternNameDelegate(const PatternTableModel* table, QObject* parent)
    : QStyledItemDelegate(parent), table_(table) {}

QWidget* PatternNameDelegate::createEditor(QWidget* parent, const QStyleOptionViewItem& option, const QModelIndex& index) const {
  QWidget* editor = QStyledItemDelegate::createEditor(parent, option, index);
  auto* line = qobject_cast<QLineEdit*>(editor);
  const QStringList names = table_->codegenCompositeNames();
  if (!line || names.isEmpty()) return editor;
  auto* completer = new QCompleter(names, line);
  completer->setCaseSensitivity(Qt::CaseInsensitive);
  completer->setFilterMode(Qt::MatchContains);  // `bias_relu` finds every anchor's
  line->setCompleter(completer);
  line->setToolTip(tr("The target's codegen builds the composites named as offered: %1, …").arg(names.mid(0, 4).join(QStringLiteral(", "))));
  return editor;
}

}  // namespace byoc::ui
