#pragma once
/// \file
/// Light and dark themes: the application palette and the colours the graph is drawn in.

#include <QColor>
#include <QString>

class QApplication;

namespace byoc::ui {

/// The two themes the app offers.
enum class Theme { Light, Dark };

/// Colours of the graph canvas for one theme.
struct GraphPalette {
  QColor background;
  QColor grid;
  QColor opFill;
  QColor callFill;
  QColor structureFill;  ///< tuples, projections, `if`
  QColor stubFill;
  QColor border;
  QColor text;
  QColor detailText;
  QColor edge;
  QColor edgeLabel;
  QColor groupFill;
  QColor compositeFill;
  QColor groupText;
  QColor selection;
  QColor searchMatch;
  QColor unsupported;
};

/// The graph colours of `theme`.
const GraphPalette& graphPalette(Theme theme);
/// Applies the Fusion style and `theme`'s palette to `app`.
void applyTheme(QApplication& app, Theme theme);
/// `light` or `dark`, as stored in settings.
QString themeName(Theme theme);
/// The theme named `name`; light for anything else.
Theme themeFromName(const QString& name);
/// The colour given to the `index`-th target or region, distinct for the first eight.
QColor categoryColour(int index, Theme theme);
/// The outline colour of composites (a pattern's match outlined by MergeComposite).
QColor compositeHullColour(Theme theme);
/// The outline colour of the edited pattern's live matches: unlike regions' blue and search's amber.
QColor matchOutlineColour(Theme theme);
/// A node's `fill` tinted by the colour of the target it runs on.
QColor tintedFill(const QColor& fill, const QColor& target);

}  // namespace byoc::ui
