#include "window/shortcut_list.h"

#include <QAction>
#include <QKeySequence>
#include <QSet>
#include <QStringList>
#include <QWidget>

namespace byoc::ui {

QString shortcutListHtml(const QWidget& window) {
  QStringList rows;
  QSet<const QAction*> listed;
  for (const QAction* action : window.findChildren<QAction*>()) {
    if (action->shortcuts().isEmpty() || listed.contains(action)) continue;
    listed.insert(action);
    QStringList keys;
    for (const QKeySequence& key : action->shortcuts()) keys << key.toString(QKeySequence::NativeText).toHtmlEscaped();
    QString command = action->text();
    command.remove(u'&');
    rows << QStringLiteral("<tr><td>%1</td><td>%2</td></tr>").arg(command.toHtmlEscaped(), keys.join(QStringLiteral(", ")));
  }
  rows.sort(Qt::CaseInsensitive);
  return QStringLiteral("<table cellspacing=\"6\">") + rows.join(QString()) + QStringLiteral("</table>");
}

}  // namespace byoc::ui
