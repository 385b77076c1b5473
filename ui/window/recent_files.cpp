/// \file
/// RecentFilesMenu: the list in QSettings and its menu.

#include "window/recent_files.h"

#include <QFileInfo>
#include <QSettings>

namespace byoc::ui {

namespace {

constexpr int kMaxRecentFiles = 8;
const QString kKey = QStringLiteral("recentFiles");

}  // namespace

RecentFilesMenu::RecentFilesMenu(QWidget* parent) : QMenu(tr("Open &Recent"), parent) { rebuild(); }

void RecentFilesMenu::add(const QString& path) {
  QSettings settings;
  QStringList files = settings.value(kKey).toStringList();
  files.removeAll(path);
  files.prepend(path);
  while (files.size() > kMaxRecentFiles) files.removeLast();
  settings.setValue(kKey, files);
  rebuild();
}

void RecentFilesMenu::rebuild() {
  clear();
  const QStringList files = QSettings().value(kKey).toStringList();
  for (const QString& path : files) addAction(QFileInfo(path).fileName(), this, [this, path] { emit chosen(path); })->setToolTip(path);
  setEnabled(!files.isEmpty());
  if (files.isEmpty()) return;
  addSeparator();
  addAction(tr("Clear List"), this, [this] {
    QSettings().remove(kKey);
    rebuild();
  });
}

}  // namespace byoc::ui
