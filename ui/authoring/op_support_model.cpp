/// \file
/// OpSupportModel: rows from a call count over the module, cells from the target's rules.

#include "authoring/op_support_model.h"

#include <QBrush>
#include <QColor>
#include <QStringBuilder>
#include <unordered_map>

#include "authoring/target_document.h"
#include "ir/op.h"
#include "ir/traversal.h"
#include "target/rule_edit.h"

namespace byoc::ui {

OpSupportModel::OpSupportModel(TargetDocument* document, QObject* parent) : QAbstractTableModel(parent), document_(document) {
  connect(document_, &TargetDocument::changed, this, &OpSupportModel::targetChanged);
}

void OpSupportModel::setModule(const Module& module) {
  // Counted per op definition first: a name per call would be a string per node.
  std::unordered_map<const OpDef*, int> calls;
  postOrderVisit(module, [&calls](const Expr& expr) {
    const auto* call = expr->as<CallNode>();
    if (const OpDef* def = call ? call->opDef() : nullptr) ++calls[def];
  });
  std::map<QString, int> counts;
  for (const auto& [def, count] : calls) counts[QString::fromStdString(def->name)] += count;
  beginResetModel();
  rows_.assign(counts.begin(), counts.end());
  drafts_.clear();
  endResetModel();
}

int OpSupportModel::rowOf(const QString& op) const {
  for (std::size_t row = 0; row < rows_.size(); ++row) {
    if (rows_[row].first == op) return static_cast<int>(row);
  }
  return -1;
}

QString OpSupportModel::opAt(int row) const { return rows_.at(static_cast<std::size_t>(row)).first; }

int OpSupportModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : static_cast<int>(rows_.size()); }

int OpSupportModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant OpSupportModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid()) return {};
  const auto& [op, calls] = rows_[static_cast<std::size_t>(index.row())];
  const auto draft = drafts_.find(index.row());
  const OpSupport support = opSupport(document_->target(), op.toStdString());
  switch (index.column()) {
    case OpColumn:
      if (role == Qt::DisplayRole) return op;
      break;
    case CallsColumn:
      if (role == Qt::DisplayRole) return calls;
      if (role == Qt::TextAlignmentRole) return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
      break;
    case SupportedColumn:
      if (role == Qt::CheckStateRole) return support.supported ? Qt::Checked : Qt::Unchecked;
      break;
    case ConditionColumn:
      if (role == Qt::DisplayRole || role == Qt::EditRole)
        return draft != drafts_.end() ? draft->second.text : QString::fromStdString(support.condition);
      if (role == ErrorRole) return draft != drafts_.end() ? draft->second.error : QString();
      if (role == Qt::ToolTipRole && draft != drafts_.end()) return draft->second.error;
      if (role == Qt::BackgroundRole && draft != drafts_.end()) return QBrush(QColor(220, 50, 47, 70));
      if (role == Qt::ForegroundRole && draft != drafts_.end()) return QBrush(QColor(200, 30, 30));
      if (role == Qt::ToolTipRole && support.supported && support.condition.empty())
        return tr("Always supported; type a condition to restrict it");
      break;
    default:
      break;
  }
  return {};
}

bool OpSupportModel::setData(const QModelIndex& index, const QVariant& value, int role) {
  if (!index.isValid()) return false;
  const OpSupport support = opSupport(document_->target(), opAt(index.row()).toStdString());
  if (index.column() == SupportedColumn && role == Qt::CheckStateRole) {
    const QString op = opAt(index.row());
    const bool supported = value.value<Qt::CheckState>() == Qt::Checked;
    if (!supported) {
      if (support.supported) untickedConditions_[op] = QString::fromStdString(support.condition);
      return apply(index.row(), false, {});
    }
    const auto remembered = untickedConditions_.find(op);
    const QString condition = !support.condition.empty() || remembered == untickedConditions_.end()
                                  ? QString::fromStdString(support.condition)
                                  : remembered->second;
    return apply(index.row(), true, condition);
  }
  if (index.column() == ConditionColumn && role == Qt::EditRole) {
    const QString condition = value.toString().trimmed();
    return apply(index.row(), support.supported || !condition.isEmpty(), condition);
  }
  return false;
}

bool OpSupportModel::apply(int row, bool supported, const QString& condition) {
  const std::string op = opAt(row).toStdString();
  const OpSupport wanted{supported, condition.toStdString()};
  Result<Target> edited = withOpSupport(document_->target(), op, wanted);
  const QModelIndex conditionIndex = index(row, ConditionColumn);
  if (!edited) {
    drafts_[row] = {condition, QString::fromStdString(edited.error().str())};
    emit dataChanged(conditionIndex, conditionIndex);
    return false;
  }
  const bool hadDraft = drafts_.erase(row) > 0;
  if (opSupport(document_->target(), op) == opSupport(*edited, op)) {
    if (hadDraft) emit dataChanged(conditionIndex, conditionIndex);
    return true;
  }
  const QString text = !supported                ? tr("Stop Supporting %1")
                       : condition.isEmpty()      ? tr("Support %1")
                       : opSupport(document_->target(), op).supported ? tr("Edit Condition of %1")
                                                                      : tr("Support %1 When…");
  document_->update(std::move(edited).value(), text.arg(opAt(row)));
  return true;
}

void OpSupportModel::targetChanged() {
  // A target loaded or created in place of the edited one drops the drafts typed against it.
  if (!document_->isModified()) {
    drafts_.clear();
    untickedConditions_.clear();
  }
  if (!rows_.empty()) emit dataChanged(index(0, SupportedColumn), index(rowCount() - 1, ConditionColumn));
}

Qt::ItemFlags OpSupportModel::flags(const QModelIndex& index) const {
  if (!index.isValid()) return Qt::NoItemFlags;
  Qt::ItemFlags flags = Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemNeverHasChildren;
  if (index.column() == SupportedColumn) flags |= Qt::ItemIsUserCheckable;
  if (index.column() == ConditionColumn) flags |= Qt::ItemIsEditable;
  return flags;
}

QVariant OpSupportModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
    case OpColumn: return tr("Op");
    case CallsColumn: return tr("Calls");
    case SupportedColumn: return tr("Supported");
    case ConditionColumn: return tr("Condition");
    default: return {};
  }
}

}  // namespace byoc::ui
