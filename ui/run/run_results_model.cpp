#include "run/run_results_model.h"

#include <QBrush>
#include <QColor>

namespace byoc::ui {

namespace {

QString number(double value) { return QString::number(value, 'g', 4); }

}  // namespace

QString firstValues(const NDArray& array, int count) {
  QStringList values;
  const int64_t shown = std::min<int64_t>(count, array.numElements());
  for (int64_t i = 0; i < shown; ++i) values << number(array.elementAsDouble(i));
  return values.join(QStringLiteral(", ")) + (array.numElements() > shown ? QStringLiteral(", …") : QString());
}

RunResultsModel::RunResultsModel(QObject* parent) : QAbstractTableModel(parent) {}

void RunResultsModel::setResults(std::vector<NDArray> outputs, ReferenceComparison comparison, bool compared) {
  beginResetModel();
  outputs_ = std::move(outputs);
  comparison_ = std::move(comparison);
  compared_ = compared;
  endResetModel();
}

void RunResultsModel::clear() { setResults({}, {}); }

int RunResultsModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(outputs_.size());
}

int RunResultsModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant RunResultsModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= rowCount()) return {};
  const auto row = static_cast<std::size_t>(index.row());
  const NDArray& output = outputs_[row];
  const Difference* difference = row < comparison_.outputs.size() ? &comparison_.outputs[row] : nullptr;
  if (role == Qt::DisplayRole) {
    switch (index.column()) {
      case IndexColumn: return index.row();
      case TypeColumn: return QString::fromStdString(typeToString(output.type()));
      case ValuesColumn: return firstValues(output, kShownValues);
      case AbsColumn: return difference ? number(difference->maxAbsolute) : QStringLiteral("—");
      case RelColumn: return difference ? number(difference->maxRelative) : QStringLiteral("—");
      case VerdictColumn:
        if (!compared_) return tr("not compared");
        if (difference && difference->within) return tr("agrees");
        // A quantized model's outputs drift by amplified rounding steps; its calls decide.
        return comparison_.quantized() && comparison_.agree() ? tr("steps apart") : tr("differs");
      default: return {};
    }
  }
  if (role == Qt::ForegroundRole && index.column() == VerdictColumn && compared_) {
    if (difference && difference->within) return QBrush(QColor(0x2e, 0x8b, 0x57));
    return QBrush(comparison_.quantized() && comparison_.agree() ? QColor(0x80, 0x80, 0x80) : QColor(0xc0, 0x39, 0x2b));
  }
  return {};
}

QVariant RunResultsModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
    case IndexColumn: return tr("Output");
    case TypeColumn: return tr("Type");
    case ValuesColumn: return tr("First values");
    case AbsColumn: return tr("Max abs error");
    case RelColumn: return tr("Max rel error");
    case VerdictColumn: return tr("Verdict");
    default: return {};
  }
}

}  // namespace byoc::ui
