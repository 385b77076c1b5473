/// \file
/// DiagnosticsModel.

#include "models/diagnostics_model.h"

#include <QApplication>
#include <QStringBuilder>
#include <QStringList>
#include <QStyle>

namespace byoc::ui {

void DiagnosticsModel::add(const Diagnostic& diagnostic) {
  const int row = static_cast<int>(rows_.size());
  beginInsertRows({}, row, row);
  rows_.push_back(diagnostic);
  endInsertRows();
}

void DiagnosticsModel::clear() {
  beginResetModel();
  rows_.clear();
  endResetModel();
}

int DiagnosticsModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

int DiagnosticsModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : 3; }

QVariant DiagnosticsModel::data(const QModelIndex& index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid)) return {};
  const Diagnostic& row = rows_[index.row()];
  if (role == Qt::DisplayRole) {
    switch (index.column()) {
      case 0:
        return row.severity == Diagnostic::Severity::Error     ? tr("error")
               : row.severity == Diagnostic::Severity::Warning ? tr("warning")
                                                               : tr("note");
      case 1: return QString::fromStdString(row.location.str());
      default: {
        QString message = QString::fromStdString(row.message);
        for (const std::string& note : row.notes) message += QStringLiteral("\nnote: ") % QString::fromStdString(note);
        return message;
      }
    }
  }
  if (role == Qt::DecorationRole && index.column() == 0) {
    QStyle::StandardPixmap icon = row.severity == Diagnostic::Severity::Error     ? QStyle::SP_MessageBoxCritical
                                  : row.severity == Diagnostic::Severity::Warning ? QStyle::SP_MessageBoxWarning
                                                                                  : QStyle::SP_MessageBoxInformation;
    return QApplication::style()->standardIcon(icon);
  }
  if (role == Qt::ToolTipRole) return QString::fromStdString(row.str());
  return {};
}

QVariant DiagnosticsModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole || section < 0 || section > 2) return {};
  static const char* const kHeaders[] = {"Severity", "Location", "Message"};
  return tr(kHeaders[section]);
}

}  // namespace byoc::ui
