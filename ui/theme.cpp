/// \file
/// Theme colours: a neutral light palette and a dark one in the spirit of current IDEs.

#include "theme.h"

#include <QApplication>
#include <QPalette>
#include <QStyle>
#include <QStyleFactory>

namespace byoc::ui {

const GraphPalette& graphPalette(Theme theme) {
  static const GraphPalette light{
      QColor(0xfa, 0xfa, 0xfb), QColor(0xee, 0xef, 0xf2), QColor(0xff, 0xff, 0xff), QColor(0xe8, 0xf0, 0xfe),
      QColor(0xf1, 0xf3, 0xf4), QColor(0xf4, 0xf5, 0xf7), QColor(0xa9, 0xb0, 0xbb), QColor(0x20, 0x24, 0x2b),
      QColor(0x6a, 0x72, 0x7d), QColor(0x8a, 0x93, 0x9e), QColor(0x80, 0x88, 0x93), QColor(0xf0, 0xf2, 0xf5),
      QColor(0xfd, 0xf3, 0xe1), QColor(0x5f, 0x67, 0x72), QColor(0x1a, 0x73, 0xe8), QColor(0xf9, 0xab, 0x00),
      QColor(0xc5, 0xc9, 0xcf)};
  static const GraphPalette dark{
      QColor(0x1e, 0x1f, 0x22), QColor(0x26, 0x27, 0x2b), QColor(0x2b, 0x2d, 0x31), QColor(0x23, 0x33, 0x4d),
      QColor(0x30, 0x32, 0x37), QColor(0x27, 0x29, 0x2d), QColor(0x4e, 0x52, 0x5a), QColor(0xdf, 0xe1, 0xe5),
      QColor(0x9a, 0xa0, 0xa8), QColor(0x6f, 0x75, 0x7e), QColor(0x8c, 0x92, 0x9a), QColor(0x25, 0x27, 0x2b),
      QColor(0x3a, 0x30, 0x1f), QColor(0xa8, 0xae, 0xb6), QColor(0x4d, 0x9c, 0xff), QColor(0xff, 0xc1, 0x07),
      QColor(0x55, 0x58, 0x5e)};
  return theme == Theme::Dark ? dark : light;
}

void applyTheme(QApplication& app, Theme theme) {
  app.setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
  if (theme == Theme::Light) {
    app.setPalette(app.style()->standardPalette());
    return;
  }
  QPalette palette;
  const QColor window(0x2b, 0x2d, 0x30), base(0x1e, 0x1f, 0x22), text(0xdf, 0xe1, 0xe5), accent(0x35, 0x74, 0xf0);
  palette.setColor(QPalette::Window, window);
  palette.setColor(QPalette::WindowText, text);
  palette.setColor(QPalette::Base, base);
  palette.setColor(QPalette::AlternateBase, window);
  palette.setColor(QPalette::ToolTipBase, window);
  palette.setColor(QPalette::ToolTipText, text);
  palette.setColor(QPalette::Text, text);
  palette.setColor(QPalette::Button, window);
  palette.setColor(QPalette::ButtonText, text);
  palette.setColor(QPalette::BrightText, Qt::red);
  palette.setColor(QPalette::Link, accent.lighter(130));
  palette.setColor(QPalette::Highlight, accent);
  palette.setColor(QPalette::HighlightedText, Qt::white);
  palette.setColor(QPalette::PlaceholderText, QColor(0x80, 0x85, 0x8c));
  palette.setColor(QPalette::Mid, QColor(0x3c, 0x3f, 0x43));
  palette.setColor(QPalette::Dark, QColor(0x19, 0x1a, 0x1c));
  palette.setColor(QPalette::Light, QColor(0x43, 0x45, 0x4a));
  palette.setColor(QPalette::Disabled, QPalette::Text, QColor(0x6f, 0x73, 0x79));
  palette.setColor(QPalette::Disabled, QPalette::ButtonText, QColor(0x6f, 0x73, 0x79));
  palette.setColor(QPalette::Disabled, QPalette::WindowText, QColor(0x6f, 0x73, 0x79));
  app.setPalette(palette);
}

QString themeName(Theme theme) { return theme == Theme::Dark ? QStringLiteral("dark") : QStringLiteral("light"); }

Theme themeFromName(const QString& name) { return name == u"dark" ? Theme::Dark : Theme::Light; }

QColor categoryColour(int index, Theme theme) {
  static const QColor colours[] = {QColor(0x1e, 0x88, 0xe5), QColor(0x43, 0xa0, 0x47), QColor(0x8e, 0x24, 0xaa),
                                   QColor(0xf4, 0x51, 0x1e), QColor(0x00, 0x89, 0x7b), QColor(0xd8, 0x1b, 0x60),
                                   QColor(0x6d, 0x4c, 0x41), QColor(0x39, 0x49, 0xab)};
  QColor colour = colours[index % 8];
  return theme == Theme::Dark ? colour.lighter(125) : colour;
}

QColor compositeHullColour(Theme theme) { return graphPalette(theme).searchMatch.darker(120); }

QColor matchOutlineColour(Theme theme) { return categoryColour(5, theme); }

QColor tintedFill(const QColor& fill, const QColor& target) {
  return QColor::fromRgbF(fill.redF() * 0.75f + target.redF() * 0.25f, fill.greenF() * 0.75f + target.greenF() * 0.25f,
                          fill.blueF() * 0.75f + target.blueF() * 0.25f);
}

}  // namespace byoc::ui
