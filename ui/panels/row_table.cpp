#include "panels/row_table.h"

#include <QHeaderView>
#include <QTableView>

namespace byoc::ui {

QTableView* makeRowTable(QAbstractItemModel* model, QWidget* parent) {
  auto* view = new QTableView(parent);
  view->setModel(model);
  view->setSelectionBehavior(QAbstractItemView::SelectRows);
  view->setSelectionMode(QAbstractItemView::SingleSelection);
  view->verticalHeader()->hide();
  view->verticalHeader()->setDefaultSectionSize(view->fontMetrics().height() + 6);
  view->horizontalHeader()->setStretchLastSection(true);
  view->setShowGrid(false);
  view->setAlternatingRowColors(true);
  view->setWordWrap(false);
  return view;
}

}  // namespace byoc::ui
