#include "run/run_inputs_model.h"

#include <QBrush>
#include <QColor>
#include <QFileInfo>
#include <QStringList>

#include <algorithm>

#include "ir/ops/op_helpers.h"
#include "runtime/executor.h"
#include "runtime/npy.h"
#include "support/dims_text.h"
#include "support/limits.h"

namespace byoc::ui {

namespace {

const TensorTypeNode* tensorTypeOf(const Var& param) {
  return param->type() ? param->type()->as<TensorTypeNode>() : nullptr;
}

/// `16×1×256`, with `?` for an unknown size.
QString dimsText(const Shape& shape) {
  QStringList dims;
  for (int64_t dim : shape) dims << (dim == kAnyDim ? QStringLiteral("?") : QString::number(dim));
  return dims.join(QChar(0x00D7));
}

bool hasUnknownDims(const Var& param) {
  const auto* type = tensorTypeOf(param);
  return type && !ops::isStaticShape(type->shape);
}

}  // namespace

RunInputsModel::RunInputsModel(QObject* parent) : QAbstractTableModel(parent) {}

void RunInputsModel::setModule(const Module& module) {
  beginResetModel();
  rows_.clear();
  if (Function main = module.find("main")) {
    int seed = 0;
    for (const Var& param : main->params) {
      const auto* type = tensorTypeOf(param);
      rows_.push_back({param, seed++, {}, {}, {}, type ? type->shape : Shape{}, {}});
    }
  }
  endResetModel();
}

Status RunInputsModel::setFile(int row, const QString& path) {
  if (row < 0 || row >= rowCount()) return makeError("no input row " + std::to_string(row));
  BYOC_ASSIGN_OR_RETURN(NDArray array, readNpy(path.toStdString()));
  Row& input = rows_[static_cast<std::size_t>(row)];
  const auto* type = tensorTypeOf(input.param);
  if (!type || array.dtype() != type->dtype || !concreteShape(type->shape, array.shape()))
    return makeError(QFileInfo(path).fileName().toStdString() + ": input %" + input.param->name + " expects " +
                     typeToString(input.param->type()) + ", the file holds " + typeToString(array.type()));
  input.file = path;
  input.array = std::move(array);
  emit dataChanged(index(row, ShapeColumn), index(row, SeedColumn));
  return Status::ok();
}

void RunInputsModel::setRandom(int row) {
  if (row < 0 || row >= rowCount()) return;
  rows_[static_cast<std::size_t>(row)].file.clear();
  rows_[static_cast<std::size_t>(row)].array = {};
  emit dataChanged(index(row, ShapeColumn), index(row, SeedColumn));
}

void RunInputsModel::setSeed(int row, int seed) { setData(index(row, SeedColumn), seed, Qt::EditRole); }

Result<Shape> RunInputsModel::shapeFrom(const Row& row, const QString& text) {
  const std::string input = "input %" + row.param->name;
  const auto* type = tensorTypeOf(row.param);
  if (!type) return makeError(input + " has type " + typeToString(row.param->type()) + "; only tensor inputs can be filled");
  const std::string declared = ops::shapeText(type->shape);
  const DimsText dims = readDims(text.toStdString());
  switch (dims.problem) {
    case DimsText::Problem::None: break;
    case DimsText::Problem::TooMany:
      return makeError(input + ": '" + text.toStdString() + "' has more than " + std::to_string(limits::kMaxRank) +
                       " dimensions (the limit); expected " + declared);
    case DimsText::Problem::Unknown:
      return makeError(input + ": '" + text.toStdString() + "' leaves dimension " + std::to_string(dims.index) +
                       " unknown; give a positive size for each ? of " + declared);
    case DimsText::Problem::NotASize:
      return makeError(input + ": '" + text.toStdString() + "' is not a shape: expected sizes from 0 to " +
                       std::to_string(limits::kMaxElements) + " joined by 'x', one for each dimension of " + declared);
  }
  const Shape& given = dims.sizes;
  Result<Shape> concrete = concreteShape(type->shape, given);
  if (!concrete) return makeError(input + ": " + concrete.error().message);
  for (std::size_t i = 0; i < given.size(); ++i) {
    if (type->shape[i] == kAnyDim && given[i] == 0)
      return makeError(input + ": shape " + ops::shapeText(given) + " gives the unknown dimension " + std::to_string(i) +
                       " the size 0; expected a positive size for each ? of " + declared);
  }
  return concrete;
}

Status RunInputsModel::setShape(int row, const QString& text) {
  if (row < 0 || row >= rowCount()) return makeError("no input row " + std::to_string(row));
  Row& input = rows_[static_cast<std::size_t>(row)];
  if (text.trimmed().isEmpty()) {  // back to the declared shape
    const auto* type = tensorTypeOf(input.param);
    input.shapeText.clear();
    input.shapeError.clear();
    input.shape = type ? type->shape : Shape{};
    emit dataChanged(index(row, ShapeColumn), index(row, ShapeColumn));
    return Status::ok();
  }
  Result<Shape> shape = shapeFrom(input, text);
  input.shapeText = text;
  input.shapeError = shape ? QString() : QString::fromStdString(shape.error().message);
  if (shape) input.shape = *shape;
  emit dataChanged(index(row, ShapeColumn), index(row, ShapeColumn));
  if (!shape) return shape.error();
  return Status::ok();
}

bool RunInputsModel::hasDynamicInputs() const {
  return std::any_of(rows_.begin(), rows_.end(), [](const Row& row) { return hasUnknownDims(row.param); });
}

int RunInputsModel::rowOf(const std::string& name) const {
  for (std::size_t row = 0; row < rows_.size(); ++row) {
    if (rows_[row].param->name == name) return static_cast<int>(row);
  }
  return -1;
}

QString RunInputsModel::shapeProblem(int row) const {
  if (row < 0 || row >= rowCount()) return {};
  const Row& input = rows_[static_cast<std::size_t>(row)];
  return input.file.isEmpty() ? input.shapeError : QString();
}

Result<std::map<std::string, NDArray>> RunInputsModel::tensors() const {
  std::map<std::string, NDArray> named;
  for (const Row& row : rows_) {
    if (!row.file.isEmpty()) {
      named.emplace(row.param->name, row.array);
      continue;
    }
    const auto* type = tensorTypeOf(row.param);
    if (!type) return makeError("input %" + row.param->name + " has type " + typeToString(row.param->type()) +
                                "; only tensor inputs can be filled");
    if (!row.shapeError.isEmpty()) return makeError(row.shapeError.toStdString());
    if (!ops::isStaticShape(row.shape))
      return makeError("input %" + row.param->name + " has the type " + typeToString(row.param->type()) +
                       ", whose size is known only at run time; give its shape in the Shape column or load a .npy file for it");
    Result<NDArray> array = NDArray::allocate(type->dtype, row.shape);
    if (!array) return makeError("input %" + row.param->name + ": " + array.error().message);
    fillRandom(*array, static_cast<uint64_t>(row.seed));
    named.emplace(row.param->name, std::move(array).value());
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
      case ShapeColumn:
        if (!random) return dimsText(row.array.shape());
        return row.shapeText.isEmpty() ? dimsText(row.shape) : row.shapeText;
      case SourceColumn: return random ? tr("random") : QFileInfo(row.file).fileName();
      case SeedColumn: return random ? QVariant(row.seed) : QVariant();
      default: return {};
    }
  }
  if (role == Qt::ToolTipRole && index.column() == TypeColumn) return QString::fromStdString(typeToString(row.param->type()));
  if (index.column() == ShapeColumn && random) {
    const bool unfilled = row.shapeError.isEmpty() && hasUnknownDims(row.param) && row.shapeText.isEmpty();
    if (role == Qt::ForegroundRole && !row.shapeError.isEmpty()) return QBrush(QColor(0xc0, 0x39, 0x2b));
    if (role == Qt::ToolTipRole && !row.shapeError.isEmpty()) return row.shapeError;
    if (role == Qt::ToolTipRole && unfilled) return tr("Double-click to give a size for each ?, such as 16x1x256");
    if (role == Qt::ToolTipRole && hasUnknownDims(row.param)) return tr("The shape of the random tensor (double-click to change it)");
  }
  if (role == Qt::ToolTipRole && index.column() == SourceColumn)
    return random ? tr("Uniform in [-1, 1) for floats, from seed %1").arg(row.seed) : row.file;
  return {};
}

bool RunInputsModel::setData(const QModelIndex& index, const QVariant& value, int role) {
  if (index.isValid() && index.column() == ShapeColumn && role == Qt::EditRole && (flags(index) & Qt::ItemIsEditable)) {
    (void)setShape(index.row(), value.toString());  // a shape that does not fit stays, marked, with its reason
    return true;
  }
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
  if (!index.isValid()) return result;
  const Row& row = rows_[static_cast<std::size_t>(index.row())];
  const bool random = row.file.isEmpty();
  if (random && (index.column() == SeedColumn || (index.column() == ShapeColumn && hasUnknownDims(row.param))))
    result |= Qt::ItemIsEditable;
  return result;
}

QVariant RunInputsModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
    case NameColumn: return tr("Input");
    case TypeColumn: return tr("Type");
    case ShapeColumn: return tr("Shape");
    case SourceColumn: return tr("Source");
    case SeedColumn: return tr("Seed");
    default: return {};
  }
}

}  // namespace byoc::ui
