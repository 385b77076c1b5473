#pragma once
/// \file
/// File > Open Recent: the models opened last, newest first, kept in QSettings (`recentFiles`).

#include <QMenu>

namespace byoc::ui {

/// The Open Recent menu.
class RecentFilesMenu : public QMenu {
  Q_OBJECT
 public:
  /// Lists the files remembered so far.
  explicit RecentFilesMenu(QWidget* parent = nullptr);

  /// Puts `path` first (once), forgetting the oldest beyond the limit.
  void add(const QString& path);

 signals:
  /// The user chose `path`.
  void chosen(const QString& path);

 private:
  void rebuild();
};

}  // namespace byoc::ui
