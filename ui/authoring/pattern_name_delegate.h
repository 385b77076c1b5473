#pragma once
/// \file
/// The editor of a pattern row's name: a line edit that offers, as it is typed, the names the
/// target's codegen builds composites for (`dnnl.conv2d_bias_relu`), so that a new row gets a
/// name its codegen can build.

#include <QStyledItemDelegate>

namespace byoc::ui {

class PatternTableModel;

/// Delegate of the name column of a PatternTableModel.
class PatternNameDelegate : public QStyledItemDelegate {
  Q_OBJECT
 public:
  /// Offers the composite names of `table`'s target (the model must outlive the delegate).
  PatternNameDelegate(const PatternTableModel* table, QObject* parent = nullptr);

  QWidget* createEditor(QWidget* parent, const QStyleOptionViewItem& option, const QModelIndex& index) const override;

 private:
  const PatternTableModel* table_;
};

}  // namespace byoc::ui
