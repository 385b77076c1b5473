#pragma once
/// \file
/// The properties of a graph node or edge as (name, value) rows, and the table model showing them.

#include <QAbstractTableModel>
#include <QString>
#include <utility>
#include <vector>

#include "graph/graph_model.h"
#include "ir/module.h"

namespace byoc::ui {

/// One property row.
using Property = std::pair<QString, QString>;

/// Kind, op or callee, attributes, type, origin ids, source location and source-model name of
/// `node`; `provenance` may be null.
std::vector<Property> nodeProperties(const GraphNode& node, const Provenance* provenance);

/// The tensor `model`'s edge `edge` carries: its type, its producer and the consumer's input it
/// feeds.
std::vector<Property> edgeProperties(const GraphModel& model, int edge);

/// Two-column table (Property, Value) of one node's properties.
class PropertiesModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  using QAbstractTableModel::QAbstractTableModel;

  /// Replaces the rows.
  void setProperties(std::vector<Property> properties);
  const std::vector<Property>& properties() const { return rows_; }

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

 private:
  std::vector<Property> rows_;
};

}  // namespace byoc::ui
