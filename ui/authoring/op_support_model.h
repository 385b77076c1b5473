#pragma once
/// \file
/// The op-support table: one row per op type called in the loaded model, with its number of calls
/// and what the edited target says about it (supported, under which condition).
///
/// Contract: the Supported and Condition cells read the target of a TargetDocument through
/// `opSupport` (core/target/rule_edit.h) and write it back with `TargetDocument::update` through
/// `withOpSupport`. A condition that does not parse never reaches the target: the row keeps it as
/// a draft, shown in its cell with `ErrorRole` set to `line:column: message`, until it is corrected,
/// cleared, or the target is replaced. Writing a non-empty condition supports the op under it.
/// Unticking an op remembers its condition, and ticking it again restores it. Each edit is one
/// undoable step of the document, named after the op.

#include <QAbstractTableModel>
#include <map>
#include <vector>

#include "ir/module.h"

namespace byoc::ui {

class TargetDocument;

/// Table model of op types with their support by the edited target.
class OpSupportModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  /// Columns, in order.
  enum Column { OpColumn, CallsColumn, SupportedColumn, ConditionColumn, ColumnCount };
  /// Custom roles.
  enum Role {
    /// The syntax error of the row's draft condition (`1:7: found …`), or an empty string.
    ErrorRole = Qt::UserRole + 1,
  };

  /// A model over `document`'s target; it has no rows until `setModule`.
  explicit OpSupportModel(TargetDocument* document, QObject* parent = nullptr);

  /// Shows the op types called anywhere in `module`, sorted by name, with their call counts.
  void setModule(const Module& module);
  /// The row of op `op`, or -1.
  int rowOf(const QString& op) const;
  /// The op of row `row`.
  QString opAt(int row) const;

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  /// Supported takes Qt::CheckStateRole; Condition takes Qt::EditRole text. False when the edit
  /// cannot be made (the error is then in `ErrorRole` for a condition).
  bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;
  Qt::ItemFlags flags(const QModelIndex& index) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

 private:
  /// A condition typed for a row that does not parse.
  struct Draft {
    QString text;
    QString error;
  };
  /// Applies `supported`/`condition` for row `row` to the target; false with a draft on a syntax error.
  bool apply(int row, bool supported, const QString& condition);
  void targetChanged();

  TargetDocument* document_;
  std::vector<std::pair<QString, int>> rows_;  ///< op, calls
  std::map<int, Draft> drafts_;
  /// The condition each op had when it was unticked, restored when it is ticked again.
  std::map<QString, QString> untickedConditions_;
};

}  // namespace byoc::ui
