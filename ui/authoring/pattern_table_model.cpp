/// \file
/// PatternTableModel: validation of every edit, drafts kept beside the target's rows.

#include "authoring/pattern_table_model.h"

#include <QApplication>
#include <QBrush>
#include <QColor>
#include <QStringBuilder>
#include <QStyle>
#include <algorithm>

#include "authoring/target_document.h"
#include "runtime/runtime_module.h"
#include "target/predicate_check.h"
#include "target/target.h"

namespace byoc::ui {

namespace {

QString fromStd(const std::string& text) { return QString::fromStdString(text); }

/// The pattern on one line, for the table.
QString oneLine(const QString& text) { return text.simplified(); }

std::vector<std::string> patternNames(const Target& target) {
  std::vector<std::string> names;
  for (const PatternEntry& entry : target.patterns) names.push_back(entry.name);
  return names;
}

}  // namespace

PatternTableModel::PatternTableModel(TargetDocument* document, QObject* parent)
    : QAbstractTableModel(parent), document_(document) {
  names_ = patternNames(document_->target());
  drafts_.resize(names_.size());
  connect(document_, &TargetDocument::changed, this, &PatternTableModel::onDocumentChanged);
}

int PatternTableModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(document_->target().patterns.size());
}

int PatternTableModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QString PatternTableModel::codegenProblem(int row) const {
  const Target& target = document_->target();
  const Codegen* codegen = findCodegen(target.codegen);
  if (!codegen || !codegen->checkComposite || row < 0 || row >= static_cast<int>(target.patterns.size())) return {};
  const Status buildable = codegen->checkComposite(target.patterns[static_cast<std::size_t>(row)].name);
  return buildable ? QString() : QString::fromStdString(buildable.error().message);
}

QVariant PatternTableModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || !checkIndex(index, CheckIndexOption::IndexIsValid)) return {};
  const PatternEntry& entry = document_->target().patterns[index.row()];
  const bool draft = hasDraft(index.row());
  switch (role) {
    case Qt::DisplayRole:
    case Qt::EditRole:
      switch (index.column()) {
        case NameColumn: return fromStd(entry.name);
        case PatternColumn: return role == Qt::EditRole ? editorText(index.row()) : oneLine(editorText(index.row()));
        case CheckColumn: return entry.check ? fromStd(entry.check->text()) : QString();
      }
      return {};
    case Qt::ToolTipRole:
      if (index.column() == NameColumn)
        if (const QString problem = codegenProblem(index.row()); !problem.isEmpty()) return problem;
      if (draft) return tr("The edited pattern does not parse; the target keeps:\n%1").arg(fromStd(entry.pattern));
      return index.column() == CheckColumn && !entry.check ? tr("No check: every match is taken") : fromStd(entry.pattern);
    case Qt::ForegroundRole:
      if (index.column() == NameColumn ? !codegenProblem(index.row()).isEmpty() : draft && index.column() == PatternColumn)
        return QBrush(QColor(0xd3, 0x2f, 0x2f));
      return {};
    case Qt::DecorationRole:
      if (index.column() != NameColumn || codegenProblem(index.row()).isEmpty()) return {};
      return QApplication::style()->standardIcon(QStyle::SP_MessageBoxWarning);
    case CodegenProblemRole: return codegenProblem(index.row());
    case EditorTextRole: return editorText(index.row());
    case HasDraftRole: return draft;
  }
  return {};
}

QVariant PatternTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
    case NameColumn: return tr("Name");
    case PatternColumn: return tr("Pattern");
    case CheckColumn: return tr("Check");
  }
  return {};
}

Qt::ItemFlags PatternTableModel::flags(const QModelIndex& index) const {
  if (!index.isValid() || !checkIndex(index, CheckIndexOption::IndexIsValid)) return Qt::NoItemFlags;
  return Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemIsEditable;
}

bool PatternTableModel::setData(const QModelIndex& index, const QVariant& value, int role) {
  if (role != Qt::EditRole || !index.isValid() || !checkIndex(index, CheckIndexOption::IndexIsValid)) return false;
  const QString text = value.toString();
  switch (index.column()) {
    case NameColumn: return static_cast<bool>(rename(index.row(), text));
    case PatternColumn: return static_cast<bool>(setPatternText(index.row(), text));
    case CheckColumn: return static_cast<bool>(setCheck(index.row(), text));
  }
  return false;
}

template <typename Edit>
void PatternTableModel::updateTarget(const QString& text, Edit&& edit, const QString& mergeKey) {
  Target edited = document_->target();
  edit(edited);
  names_ = patternNames(edited);
  updating_ = true;
  document_->update(std::move(edited), text, mergeKey);
  updating_ = false;
}

Result<int> PatternTableModel::addPattern(const QString& name, const QString& text) {
  const QString trimmed = name.trimmed();
  if (trimmed.isEmpty()) return makeError("a pattern needs a name");
  if (std::find(names_.begin(), names_.end(), trimmed.toStdString()) != names_.end())
    return makeError("another pattern is already called '" + trimmed.toStdString() + "'");
  BYOC_ASSIGN_OR_RETURN(Pattern compiled, parseTablePattern(text.toStdString()));
  const int row = rowCount();
  beginInsertRows({}, row, row);
  drafts_.emplace_back();
  updateTarget(tr("Add Pattern %1").arg(trimmed), [&](Target& target) {
    target.patterns.push_back({trimmed.toStdString(), text.toStdString(), OwnedPattern(std::move(compiled)), std::nullopt});
  });
  endInsertRows();
  return row;
}

QStringList PatternTableModel::codegenCompositeNames() const {
  const Target& target = document_->target();
  const Codegen* codegen = findCodegen(target.codegen);
  QStringList names;
  if (!codegen) return names;
  for (const std::string& composite : codegen->composites) names << fromStd(target.name + "." + composite);
  return names;
}

QString PatternTableModel::freshName(const QString& op) const {
  const auto taken = [this](const std::string& name) { return std::find(names_.begin(), names_.end(), name) != names_.end(); };
  // An op's composite is named after the op without its namespace (nn.conv2d → conv2d).
  const QString kernel = op.startsWith(QStringLiteral("nn.")) ? op.mid(3) : op;
  if (!kernel.isEmpty()) {
    const QString suggested = fromStd(document_->target().name) % u'.' % kernel;
    if (codegenCompositeNames().contains(suggested) && !taken(suggested.toStdString())) return suggested;
  }
  const QString prefix = fromStd(document_->target().name) % QStringLiteral(".pattern_");
  for (int n = 1;; ++n) {
    const std::string candidate = QString(prefix % QString::number(n)).toStdString();
    if (!taken(candidate)) return fromStd(candidate);
  }
}

bool PatternTableModel::removePattern(int row) {
  if (row < 0 || row >= rowCount()) return false;
  beginRemoveRows({}, row, row);
  drafts_.erase(drafts_.begin() + row);
  updateTarget(tr("Remove Pattern %1").arg(fromStd(names_[row])),
               [row](Target& target) { target.patterns.erase(target.patterns.begin() + row); });
  endRemoveRows();
  return true;
}

bool PatternTableModel::movePattern(int row, int delta) {
  const int to = row + delta;
  if (delta == 0 || row < 0 || row >= rowCount() || to < 0 || to >= rowCount()) return false;
  // beginMoveRows names the row *before which* the moved row lands, counted before the move.
  beginMoveRows({}, row, row, {}, delta > 0 ? to + 1 : to);
  auto rotate = [row, to](auto& rows) {
    if (to < row) {
      std::rotate(rows.begin() + to, rows.begin() + row, rows.begin() + row + 1);
    } else {
      std::rotate(rows.begin() + row, rows.begin() + row + 1, rows.begin() + to + 1);
    }
  };
  rotate(drafts_);
  updateTarget(tr("Move Pattern %1").arg(fromStd(names_[row])), [&rotate](Target& target) { rotate(target.patterns); });
  endMoveRows();
  return true;
}

Status PatternTableModel::rename(int row, const QString& name) {
  if (row < 0 || row >= rowCount()) return makeError("no pattern row " + std::to_string(row));
  const std::string trimmed = name.trimmed().toStdString();
  if (trimmed.empty()) return makeError("a pattern needs a name");
  if (trimmed == names_[row]) return Status();
  if (std::find(names_.begin(), names_.end(), trimmed) != names_.end())
    return makeError("another pattern is already called '" + trimmed + "'");
  updateTarget(tr("Rename Pattern %1").arg(fromStd(names_[row])), [&](Target& target) { target.patterns[row].name = trimmed; });
  emit dataChanged(index(row, NameColumn), index(row, NameColumn));
  return Status();
}

Status PatternTableModel::setPatternText(int row, const QString& text) {
  if (row < 0 || row >= rowCount()) return makeError("no pattern row " + std::to_string(row));
  const std::string written = text.toStdString();
  auto compiled = parseTablePattern(written);
  if (!compiled) {
    drafts_[row] = text;
  } else {
    drafts_[row].reset();
    if (document_->target().patterns[row].pattern != written) {
      const QString name = fromStd(names_[row]);
      updateTarget(
          tr("Edit Pattern %1").arg(name),
          [&](Target& target) {
            target.patterns[row].pattern = written;
            target.patterns[row].compiled = OwnedPattern(*compiled);
          },
          QStringLiteral("pattern ") + name);
    }
  }
  emit dataChanged(index(row, 0), index(row, ColumnCount - 1));
  if (!compiled) return compiled.error();
  return Status();
}

Status PatternTableModel::setCheck(int row, const QString& text) {
  if (row < 0 || row >= rowCount()) return makeError("no pattern row " + std::to_string(row));
  const std::string written = text.trimmed().toStdString();
  std::optional<Predicate> check;
  if (!written.empty()) {
    BYOC_ASSIGN_OR_RETURN(Predicate parsed, Predicate::parse(written));
    BYOC_TRY(checkPredicate(parsed));
    check = std::move(parsed);
  }
  const auto& current = document_->target().patterns[row].check;
  if ((current ? current->text() : std::string()) == written) return Status();
  const QString name = fromStd(names_[row]);
  updateTarget(
      tr("Edit Check of %1").arg(name), [&](Target& target) { target.patterns[row].check = std::move(check); },
      QStringLiteral("check ") + name);
  emit dataChanged(index(row, CheckColumn), index(row, CheckColumn));
  return Status();
}

QString PatternTableModel::editorText(int row) const {
  if (row < 0 || row >= rowCount()) return {};
  return drafts_[row] ? *drafts_[row] : fromStd(document_->target().patterns[row].pattern);
}

bool PatternTableModel::hasDraft(int row) const {
  return row >= 0 && row < static_cast<int>(drafts_.size()) && drafts_[row].has_value();
}

void PatternTableModel::onDocumentChanged() {
  if (updating_) return;
  std::vector<std::string> names = patternNames(document_->target());
  if (names == names_) {
    // The same rows, edited elsewhere (or reloaded unchanged): keep the drafts.
    if (!names.empty()) emit dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
    return;
  }
  beginResetModel();
  names_ = std::move(names);
  drafts_.assign(names_.size(), std::nullopt);
  endResetModel();
}

}  // namespace byoc::ui
