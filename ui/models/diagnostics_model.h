#pragma once
/// \file
/// The diagnostics panel's model: errors and warnings about the open model, newest last.

#include <QAbstractTableModel>
#include <vector>

#include "support/diagnostic.h"

namespace byoc::ui {

/// Table (Severity, Location, Message) of diagnostics.
class DiagnosticsModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  using QAbstractTableModel::QAbstractTableModel;

  /// Appends one diagnostic.
  void add(const Diagnostic& diagnostic);
  /// Removes all rows.
  void clear();
  const std::vector<Diagnostic>& diagnostics() const { return rows_; }

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

 private:
  std::vector<Diagnostic> rows_;
};

}  // namespace byoc::ui
