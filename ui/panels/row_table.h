#pragma once
/// \file
/// The look every list panel of the app shares.

class QAbstractItemModel;
class QTableView;
class QWidget;

namespace byoc::ui {

/// A table view of `model` with whole rows selected one at a time, no row numbers or grid,
/// alternating row colours, compact unwrapped rows and the last column stretched.
QTableView* makeRowTable(QAbstractItemModel* model, QWidget* parent);

}  // namespace byoc::ui
