/// \file
/// nodeProperties and PropertiesModel.

#include "models/properties.h"

#include <QFont>
#include <QStringBuilder>
#include <QStringList>

#include "ir/op.h"

namespace byoc::ui {

namespace {

QString kindName(GraphNodeKind kind) {
  switch (kind) {
    case GraphNodeKind::Op: return QStringLiteral("op call");
    case GraphNodeKind::Call: return QStringLiteral("function call");
    case GraphNodeKind::Tuple: return QStringLiteral("tuple");
    case GraphNodeKind::Project: return QStringLiteral("tuple item");
    case GraphNodeKind::If: return QStringLiteral("if");
    case GraphNodeKind::Stub: return QStringLiteral("input");
    case GraphNodeKind::LoopBack: return QStringLiteral("next iteration of the loop");
  }
  return {};
}

}  // namespace

std::vector<Property> edgeProperties(const GraphModel& model, int edge) {
  if (edge < 0 || edge >= static_cast<int>(model.edges().size())) return {};
  const GraphEdge& carried = model.edges()[edge];
  const GraphNode& producer = model.nodes()[carried.from];
  const GraphNode& consumer = model.nodes()[carried.to];
  std::vector<Property> rows;
  rows.emplace_back(QStringLiteral("Kind"), QStringLiteral("tensor"));
  rows.emplace_back(QStringLiteral("Type"), QString::fromStdString(typeToString(producer.expr->type())));
  rows.emplace_back(QStringLiteral("Shape"), carried.label);
  rows.emplace_back(QStringLiteral("From"), producer.title);
  rows.emplace_back(QStringLiteral("To"), consumer.title % QStringLiteral(", input ") % QString::number(carried.port));
  return rows;
}

std::vector<Property> nodeProperties(const GraphNode& node, const Provenance* provenance) {
  std::vector<Property> rows;
  rows.emplace_back(QStringLiteral("Kind"), kindName(node.kind));
  rows.emplace_back(node.kind == GraphNodeKind::Op ? QStringLiteral("Op") : QStringLiteral("Name"), node.title);
  if (const auto* call = node.expr->as<CallNode>()) {
    if (const OpDef* def = call->opDef()) {
      rows.emplace_back(QStringLiteral("Summary"), QString::fromStdString(def->summary));
      rows.emplace_back(QStringLiteral("Fusion kind"), QString::fromUtf8(fusionKindName(def->fusion)));
    }
    for (const auto& [name, value] : call->attrs.entries())
      rows.emplace_back(QStringLiteral("attr ") % QString::fromStdString(name), QString::fromStdString(value.str()));
    if (const auto* function = call->callee->as<FunctionNode>()) {
      for (const auto& [name, value] : function->attrs.entries())
        rows.emplace_back(QStringLiteral("fn attr ") % QString::fromStdString(name), QString::fromStdString(value.str()));
    }
    rows.emplace_back(QStringLiteral("Inputs"), QString::number(call->args.size()));
  }
  rows.emplace_back(QStringLiteral("Type"), QString::fromStdString(typeToString(node.expr->type())));
  QStringList ids;
  for (NodeId id : node.expr->origin().ids()) ids << QString::number(id);
  rows.emplace_back(QStringLiteral("Origin ids"), ids.join(QStringLiteral(", ")));
  if (provenance) {
    if (auto location = provenance->locate(node.expr->origin()))
      rows.emplace_back(QStringLiteral("Source"), QString::fromStdString(location->str()));
    QStringList names;
    for (NodeId id : node.expr->origin().ids()) {
      if (auto it = provenance->names.find(id); it != provenance->names.end()) names << QString::fromStdString(it->second);
    }
    if (!names.isEmpty()) rows.emplace_back(QStringLiteral("Source node"), names.join(QStringLiteral(", ")));
  }
  return rows;
}

void PropertiesModel::setProperties(std::vector<Property> properties) {
  beginResetModel();
  rows_ = std::move(properties);
  endResetModel();
}

int PropertiesModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

int PropertiesModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : 2; }

QVariant PropertiesModel::data(const QModelIndex& index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid)) return {};
  const Property& row = rows_[index.row()];
  if (role == Qt::DisplayRole || role == Qt::ToolTipRole) return index.column() == 0 ? row.first : row.second;
  if (role == Qt::FontRole && index.column() == 0) {
    QFont font;
    font.setWeight(QFont::DemiBold);
    return font;
  }
  return {};
}

QVariant PropertiesModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole || section < 0 || section > 1) return {};
  return section == 0 ? tr("Property") : tr("Value");
}

}  // namespace byoc::ui
