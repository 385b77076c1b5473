#pragma once
/// \file
/// What the window shows before a model is open: the app's name, what it is for, and buttons to
/// open a model or the demo.

#include <QWidget>

namespace byoc::ui {

/// The welcome page.
class WelcomePage : public QWidget {
  Q_OBJECT
 public:
  explicit WelcomePage(QWidget* parent = nullptr);

 signals:
  /// "Open Model…" was pressed.
  void openRequested();
  /// "Open the Demo" was pressed.
  void demoRequested();
};

}  // namespace byoc::ui
