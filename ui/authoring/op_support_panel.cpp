/// \file
/// OpSupportPanel: a summary label over the table view.

#include "authoring/op_support_panel.h"

#include <QHeaderView>
#include <QLabel>
#include <QStringBuilder>
#include <QTableView>
#include <QVBoxLayout>

#include "authoring/op_support_colouring.h"
#include "authoring/op_support_delegate.h"
#include "authoring/op_support_model.h"
#include "authoring/target_document.h"
#include "panels/row_table.h"

namespace byoc::ui {

OpSupportPanel::OpSupportPanel(OpSupportModel* model, SupportColourer* colourer, TargetDocument* document, QWidget* parent)
    : QWidget(parent), model_(model), colourer_(colourer), document_(document) {
  summary_ = new QLabel(this);
  summary_->setObjectName(QStringLiteral("opSupportSummary"));
  error_ = new QLabel(this);
  error_->setObjectName(QStringLiteral("opSupportError"));
  error_->setWordWrap(true);
  error_->setTextFormat(Qt::PlainText);
  error_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);  // a long error does not widen the dock
  error_->setStyleSheet(QStringLiteral("color: #c0392b;"));
  error_->hide();
  summary_->setTextFormat(Qt::PlainText);
  view_ = makeRowTable(model_, this);
  view_->setObjectName(QStringLiteral("opSupportTable"));
  view_->setItemDelegateForColumn(OpSupportModel::ConditionColumn, new ConditionDelegate(view_));
  view_->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed |
                         QAbstractItemView::AnyKeyPressed | QAbstractItemView::SelectedClicked);
  view_->setSelectionBehavior(QAbstractItemView::SelectItems);  // cells are edited one by one
  QHeaderView* header = view_->horizontalHeader();
  header->setSectionResizeMode(OpSupportModel::OpColumn, QHeaderView::ResizeToContents);
  header->setSectionResizeMode(OpSupportModel::CallsColumn, QHeaderView::ResizeToContents);
  header->setSectionResizeMode(OpSupportModel::SupportedColumn, QHeaderView::ResizeToContents);
  header->setStretchLastSection(true);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(4, 4, 4, 4);
  layout->addWidget(summary_);
  layout->addWidget(error_);
  layout->addWidget(view_);
  connect(colourer_, &SupportColourer::coloured, this, &OpSupportPanel::updateSummary);
  connect(model_, &QAbstractItemModel::modelReset, this, &OpSupportPanel::updateSummary);
  connect(model_, &QAbstractItemModel::dataChanged, this, &OpSupportPanel::updateSummary);
  updateSummary();
}

QString OpSupportPanel::summary() const { return summary_->text(); }

QString OpSupportPanel::error() const { return error_->text(); }

void OpSupportPanel::updateSummary() {
  int types = 0;
  for (int row = 0; row < model_->rowCount(); ++row) {
    if (model_->index(row, OpSupportModel::SupportedColumn).data(Qt::CheckStateRole).value<Qt::CheckState>() == Qt::Checked) ++types;
  }
  const SupportColours& colours = colourer_->colours();
  const QString text = QString::fromStdString(document_->target().name) % QStringLiteral(": ") %
                 tr("%1 of %2 op types, %3 of %4 calls supported")
                     .arg(types)
                     .arg(model_->rowCount())
                     .arg(colours.supported)
                     .arg(colours.nodeTargets.size());
  summary_->setText(text);
  error_->setText(colours.error);
  error_->setVisible(!colours.error.isEmpty());
}

}  // namespace byoc::ui
