#pragma once
/// \file
/// The function/module tree: global functions, and under each the function literals nested in it
/// (let-bound functions, composites), with their attributes.

#include <QAbstractItemModel>
#include <vector>

#include "ir/module.h"

namespace byoc::ui {

/// Tree model over a module's functions.
class ModuleTreeModel : public QAbstractItemModel {
  Q_OBJECT
 public:
  /// Custom roles.
  enum Role {
    /// The global function's name (on nested rows too): QString.
    GlobalNameRole = Qt::UserRole + 1,
  };

  using QAbstractItemModel::QAbstractItemModel;

  /// Shows `module` (replacing the previous content). Functions shown before are not walked
  /// again, and the model is not reset when the functions are all the same.
  void setModule(const Module& module);

  QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
  QModelIndex parent(const QModelIndex& child) const override;
  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

  /// The tree as indented text (name, then kind), for tests.
  QString dump() const;

 private:
  struct Row {
    QString name;
    QString kind;  ///< `function`, `composite`, `external (dnnl)`, `local function`
    QString global;
    Function function;  ///< its tooltip lists the parameter count and attributes
    std::vector<Row> children;
  };
  /// The row of `function` (named `name`) and of the functions nested in it.
  static Row rowOf(const std::string& name, const Function& function);

  std::vector<Row> rows_;
  /// The functions `rows_` show, in order.
  std::vector<Function> shown_;
};

}  // namespace byoc::ui
