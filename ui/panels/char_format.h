#pragma once
/// \file
/// Text formats of the syntax highlighters.

#include <QColor>
#include <QFont>
#include <QTextCharFormat>

namespace byoc::ui {

/// Text in `colour`, optionally bold and italic.
inline QTextCharFormat charFormat(const QColor& colour, bool bold = false, bool italic = false) {
  QTextCharFormat format;
  format.setForeground(colour);
  if (bold) format.setFontWeight(QFont::Bold);
  format.setFontItalic(italic);
  return format;
}

}  // namespace byoc::ui
