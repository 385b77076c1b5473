#include "run/run_inputs_model.h"

#include <QFileInfo>

#include <algorithm>

#include "runtime/executor.h"
#include "runtime/npy.h"

namespace byoc::ui {

RunInputsModel::RunInputsModel(QObject* parent) : QAbstractTableModel(parent) {}

void RunInputsModel::setModule(const Module& module) {
  beginResetModel();
  rows_.clear();
  if (Function main = module.find("main")) {
    int seed = 0;
    for (const Var& param : main->params) rows_.push_back({param, seed++, {}, {}});
  }
  endResetModel();
}

Status RunInputsModel::setFile(int row, const QString& path) {
  if (row < 0 || row >= rowCount()) return makeError("no input row " + std::to_string(row));
  BYOC_ASSIGN_OR_RETURN(NDArray array, readNpy(path.toStdString()));
  Row& input = rows_[static_cast<std::size_t>(row)];
  const auto* type = input.param->type() ? input.param->type()->as<TensorTypeNode>() : nullptr;
  if (!type || array.dtype() != type->dtype || array.shape() != type->shape)
    return makeError(QFileInfo(path).fileName().toStdString() + ": input %" + input.param->name + " expects " +
                     typeToString(input.param->type()) + ", the file holds " + typeToString(array.type()));
  input.file = path;
  input.array = std::move(array);
  emit dataChanged(index(row, SourceColumn), index(row, SeedColumn));
  return Status::ok();
}

void RunInputsModel::setRandom(int row) {
  if (row < 0 || row >= rowCount()) return;
  rows_[static_cast<std::size_t>(row)].file.clear();
  rows_[static_cast<std::size_t>(row)].array = {};
  emit dataChanged(index(row, SourceColumn), index(row, SeedColumn));
}

void RunInputsModel::setSeed(int row, int seed) { setData(index(row, SeedColumn), seed, Qt::EditRole); }

Result<std::map<std::string, NDArray>> RunInputsModel::tensors() const {
  std::map<std::string, NDArray> named;
  for (const Row& row : rows_) {
    if (!row.file.isEmpty()) {
      named.emplace(row.param->name, row.array);
      continue;
    }
    const auto* type = row.param->type() ? row.param->type()->as<TensorTypeNode>() : nullptr;
    if (!type) return makeError("input %" + row.param->name + " has type " + typeToString(row.param->type()) +
                                "; only tensor inputs can be filled");
    if (std::find(type->shape.begin(), type->shape.end(), kAnyDim) != type->shape.end())
      return makeError("input %" + row.param->name + " has the type " + typeToString(row.param->type()) +
                       ", whose size is known only at run time; load a .npy file for it");
    named.emplace(row.param->name, randomTensorOf(*type, static_cast<uint64_t>(row.seed)));
  }
  return named;
}

int RunInputsModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

int RunInputsModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant RunInputsModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= rowCount()) return {};
  const Row& row = rows_[static_cast<std::size_t>(index.row())];
  const bool random = row.file.isEmpty();
  if (role == Qt::DisplayRole || role == Qt::EditRole) {
    switch (index.column()) {
      case NameColumn: return QString(u'%' + QString::fromStdString(row.param->name));
      case TypeColumn: return QString::fromStdString(typeToString(row.param->type()));
      case SourceColumn: return random ? tr("random") : QFileInfo(row.file).fileName();
      case SeedColumn: return random ? QVariant(row.seed) : QVariant();
      default: return {};
    }
  }
  if (role == Qt::ToolTipRole && index.column() == TypeColumn) return QString::fromStdString(typeToString(row.param->type()));
  if (role == Qt::ToolTipRole && index.column() == SourceColumn)
    return random ? tr("Uniform in [-1, 1) for floats, from seed %1").arg(row.seed) : row.file;
  return {};
}

bool RunInputsModel::setData(const QModelIndex& index, const QVariant& value, int role) {
  if (!index.isValid() || index.column() != SeedColumn || role != Qt::EditRole || index.row() >= rowCount()) return false;
  bool isNumber = false;
  const int seed = value.toInt(&isNumber);
  if (!isNumber || seed < 0) return false;
  rows_[static_cast<std::size_t>(index.row())].seed = seed;
  emit dataChanged(this->index(index.row(), SourceColumn), index);
  return true;
}

Qt::ItemFlags RunInputsModel::flags(const QModelIndex& index) const {
  Qt::ItemFlags result = QAbstractTableModel::flags(index);
  if (index.isValid() && index.column() == SeedColumn && rows_[static_cast<std::size_t>(index.row())].file.isEmpty())
    result |= Qt::ItemIsEditable;
  return result;
}

QVariant RunInputsModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
    case NameColumn: return tr("Input");
    case TypeColumn: return tr("Type");
    case SourceColumn: return tr("Source");
    case SeedColumn: return tr("Seed");
    default: return {};
  }
}

}  // namespace byoc::ui
