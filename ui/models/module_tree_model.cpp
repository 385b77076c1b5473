/// \file
/// ModuleTreeModel: two levels; a child index stores its parent's row in its internal id.

#include "models/module_tree_model.h"

#include <QStringBuilder>
#include <QStringList>
#include <algorithm>
#include <unordered_map>

#include "ir/function_attrs.h"
#include "ir/traversal.h"

namespace byoc::ui {

namespace {

constexpr quintptr kTopLevel = ~quintptr(0);

QString kindOf(const FunctionNode& function, bool nested) {
  if (function.attrs.contains(attr::kComposite)) return QStringLiteral("composite");
  if (const AttrValue* compiler = function.attrs.find(attr::kCompiler); compiler && compiler->isString())
    return QStringLiteral("external (") % QString::fromStdString(compiler->asString()) % u')';
  return nested ? QStringLiteral("local function") : QStringLiteral("function");
}

QString detailOf(const FunctionNode& function) {
  QStringList parts{QStringLiteral("%1 parameter(s)").arg(function.params.size())};
  for (const auto& [name, value] : function.attrs.entries())
    parts << QString::fromStdString(name) % u'=' % QString::fromStdString(value.str());
  return parts.join(QStringLiteral(", "));
}

}  // namespace

void ModuleTreeModel::setModule(const Module& module) {
  std::vector<Function> functions;
  for (const auto& [name, function] : module.functions()) functions.push_back(function);
  if (functions == shown_) return;
  std::unordered_map<const FunctionNode*, std::size_t> shownAt;  // a module may hold thousands of functions
  for (std::size_t i = 0; i < shown_.size(); ++i) shownAt.emplace(shown_[i].get(), i);
  std::vector<Row> rows;
  for (const auto& [name, function] : module.functions()) {
    auto before = shownAt.find(function.get());
    const bool unchanged = before != shownAt.end() && rows_[before->second].global == QString::fromStdString(name);
    rows.push_back(unchanged ? std::move(rows_[before->second]) : rowOf(name, function));
  }
  beginResetModel();
  rows_ = std::move(rows);
  shown_ = std::move(functions);
  endResetModel();
}

ModuleTreeModel::Row ModuleTreeModel::rowOf(const std::string& name, const Function& function) {
  Row row{QString::fromStdString(name), kindOf(*function, false), QString::fromStdString(name), function, {}};
  std::unordered_map<const ExprNode*, const VarNode*> boundVars;  // a let-bound literal's variable
  std::unordered_map<const VarNode*, std::size_t> firstCalls;      // when a variable is first called
  std::vector<std::pair<const FunctionNode*, std::size_t>> nested;  // each literal, when it is visited
  std::size_t visited = 0;
  if (!function->body->reaches(ExprKind::Function)) return row;  // no literal to list (most of a large main)
  postOrderVisit(Expr(function->body), [&](const Expr& expr) {
    ++visited;
    if (const auto* let = expr->as<LetNode>()) boundVars[let->value.get()] = let->var.get();
    if (const auto* call = expr->as<CallNode>(); call && call->callee->as<VarNode>())
      firstCalls.try_emplace(call->callee->as<VarNode>(), visited);
    if (const auto* literal = expr->as<FunctionNode>()) nested.emplace_back(literal, visited);
  });
  for (const auto& [literal, visitedAt] : nested) {
    auto bound = boundVars.find(literal);
    const VarNode* var = bound != boundVars.end() ? bound->second : nullptr;
    QString label = var ? u'%' % QString::fromStdString(var->name) : QString();
    if (const AttrValue* composite = literal->attrs.find(attr::kComposite); composite && composite->isString())
      label = QString::fromStdString(composite->asString());
    if (label.isEmpty()) label = QStringLiteral("fn");
    // Post-order visits a let's value before its body, where the first call from outside is: a
    // function called before the visit leaves it calls itself, a loop.
    auto firstCall = var ? firstCalls.find(var) : firstCalls.end();
    const bool loop = firstCall != firstCalls.end() && firstCall->second < visitedAt;
    row.children.push_back({label, loop ? QStringLiteral("loop") : kindOf(*literal, true), row.global, Function(literal), {}});
  }
  return row;
}

QModelIndex ModuleTreeModel::index(int row, int column, const QModelIndex& parent) const {
  if (!hasIndex(row, column, parent)) return {};
  return createIndex(row, column, parent.isValid() ? quintptr(parent.row()) : kTopLevel);
}

QModelIndex ModuleTreeModel::parent(const QModelIndex& child) const {
  if (!child.isValid() || child.internalId() == kTopLevel) return {};
  return createIndex(static_cast<int>(child.internalId()), 0, kTopLevel);
}

int ModuleTreeModel::rowCount(const QModelIndex& parent) const {
  if (!parent.isValid()) return static_cast<int>(rows_.size());
  if (parent.column() != 0 || parent.internalId() != kTopLevel) return 0;
  return static_cast<int>(rows_[parent.row()].children.size());
}

int ModuleTreeModel::columnCount(const QModelIndex&) const { return 2; }

QVariant ModuleTreeModel::data(const QModelIndex& index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid)) return {};
  const Row& row = index.internalId() == kTopLevel ? rows_[index.row()]
                                                   : rows_[index.internalId()].children[index.row()];
  switch (role) {
    case Qt::DisplayRole: return index.column() == 0 ? row.name : row.kind;
    case Qt::ToolTipRole: return detailOf(*row.function);
    case GlobalNameRole: return row.global;
    default: return {};
  }
}

QVariant ModuleTreeModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole || section < 0 || section > 1) return {};
  return section == 0 ? tr("Function") : tr("Kind");
}

QString ModuleTreeModel::dump() const {
  QString text;
  for (const Row& row : rows_) {
    text += row.name % QStringLiteral(" (") % row.kind % QStringLiteral(")\n");
    for (const Row& child : row.children) text += QStringLiteral("  ") % child.name % QStringLiteral(" (") % child.kind % QStringLiteral(")\n");
  }
  return text;
}

}  // namespace byoc::ui
