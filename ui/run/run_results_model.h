#pragma once
/// \file
/// The outputs of the last run of the Run panel, one row each: type (shape and dtype), the largest
/// absolute and relative error against the reference, the verdict, and its first values.

#include <QAbstractTableModel>
#include <vector>

#include "runtime/ndarray.h"
#include "runtime/reference_check.h"

namespace byoc::ui {

/// Table model: Output, Type, Max abs error, Max rel error, Verdict, First values.
class RunResultsModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  enum Column { IndexColumn, TypeColumn, AbsColumn, RelColumn, VerdictColumn, ValuesColumn, ColumnCount };
  /// How many leading values the Values column shows.
  static constexpr int kShownValues = 6;

  explicit RunResultsModel(QObject* parent = nullptr);

  /// Shows `outputs` with their comparison (one Difference per output; missing ones show as "—"),
  /// or as "not compared" when `compared` is false.
  void setResults(std::vector<NDArray> outputs, ReferenceComparison comparison, bool compared = true);
  /// Shows nothing.
  void clear();

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

 private:
  std::vector<NDArray> outputs_;
  ReferenceComparison comparison_;
  bool compared_ = true;
};

/// The first `count` elements of `array`, comma-separated, with "…" when there are more.
QString firstValues(const NDArray& array, int count);

}  // namespace byoc::ui
