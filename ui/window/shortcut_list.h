#pragma once
/// \file
/// The keyboard shortcuts of a window, listed from its actions (so the list cannot go stale).

#include <QString>

class QWidget;

namespace byoc::ui {

/// Every action of `window` that has a shortcut, once each in menu order where it is in a menu,
/// as an HTML table: the command (without its mnemonic) and its keys, in the platform's notation.
QString shortcutListHtml(const QWidget& window);

}  // namespace byoc::ui
