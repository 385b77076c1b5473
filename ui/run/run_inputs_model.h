#pragma once
/// \file
/// The inputs of the Run panel: one row per parameter of the loaded model's `@main` (name, type,
/// shape), each filled either with random values from a seed (editable, a spin box in the view) or
/// from a `.npy` file. A file whose dtype or shape does not fit the input's type is refused with a
/// message naming the file, the input, what it expects and what the file holds.
///
/// A random input whose type has unknown (`?`) dimensions takes its shape from its Shape cell,
/// typed as `16x1x256` (or `16×1×256`, `(16, 1, 256)`): same rank as the type, each fixed size as
/// the type has it, each `?` a positive size, within the tensor limits (docs/input-limits.md). A
/// shape that does not fit stays in its cell, marked, with the reason (shapeProblem); until it is
/// corrected, tensors() refuses to fill the input with that reason.

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
  enum Column { NameColumn, TypeColumn, ShapeColumn, SourceColumn, SeedColumn, ColumnCount };

  explicit RunInputsModel(QObject* parent = nullptr);

  /// One row per parameter of `module`'s `@main` (none without it), each random with seed = its index.
  void setModule(const Module& module);
  /// Fills row `row` from the `.npy` file `path`; an error leaves the row as it was.
  Status setFile(int row, const QString& path);
  /// Makes row `row` random again (with its seed).
  void setRandom(int row);
  /// Sets the seed of row `row`.
  void setSeed(int row, int seed);
  /// Sets the shape of random row `row` from `text` (see the file comment); the reason it does
  /// not fit, or ok. The text stays in the cell either way; an empty text goes back to the type's shape.
  Status setShape(int row, const QString& text);
  /// Whether some input's type has a `?` dimension (only then is there a shape to choose).
  bool hasDynamicInputs() const;
  /// The row of the input named `name` (without `%`), or -1.
  int rowOf(const std::string& name) const;
  /// Why the shape typed in random row `row` does not fit its input, or empty.
  QString shapeProblem(int row) const;
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
    QString shapeText;  ///< What the user typed in the Shape cell; empty: the declared shape.
    Shape shape;        ///< The shape of a random tensor, when shapeText fits (or the type is static).
    QString shapeError; ///< Why shapeText does not fit, or empty.
  };
  /// The shape row `row`'s random tensor takes from `text`, or why it cannot.
  static Result<Shape> shapeFrom(const Row& row, const QString& text);
  std::vector<Row> rows_;
};

}  // namespace byoc::ui
