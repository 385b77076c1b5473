#pragma once
/// \file
/// The inputs of the Run panel: one row per parameter of the loaded model's `@main` (name, type),
/// each filled either with random values from a seed (editable, a spin box in the view) or from a
/// `.npy` file. A file whose dtype or shape differs from the input's type is refused with a
/// message naming the file, the input, what it expects and what the file holds.

#include <QAbstractTableModel>
#include <map>
#include <string>
#include <vector>

#include "ir/module.h"
#include "runtime/ndarray.h"
#include "support/result.h"

namespace byoc::ui {

/// Table model: Input, Type, Source, Seed.
class RunInputsModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  enum Column { NameColumn, TypeColumn, SourceColumn, SeedColumn, ColumnCount };

  explicit RunInputsModel(QObject* parent = nullptr);

  /// One row per parameter of `module`'s `@main` (none without it), each random with seed = its index.
  void setModule(const Module& module);
  /// Fills row `row` from the `.npy` file `path`; an error leaves the row as it was.
  Status setFile(int row, const QString& path);
  /// Makes row `row` random again (with its seed).
  void setRandom(int row);
  /// Sets the seed of row `row`.
  void setSeed(int row, int seed);
  /// The tensor of every input, by name (random ones drawn from their seeds); an error for an input
  /// whose type is not a tensor type.
  Result<std::map<std::string, NDArray>> tensors() const;

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role) const override;
  bool setData(const QModelIndex& index, const QVariant& value, int role) override;
  Qt::ItemFlags flags(const QModelIndex& index) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

 private:
  struct Row {
    Var param;
    int seed = 0;
    QString file;   ///< Empty when random.
    NDArray array;  ///< The file's contents.
  };
  std::vector<Row> rows_;
};

}  // namespace byoc::ui
