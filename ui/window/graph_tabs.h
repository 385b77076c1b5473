#pragma once
/// \file
/// The window's centre: one graph tab per function or step opened. The first tab (the loaded
/// model's entry function, whose graph every pass step is drawn on) stays open; the others close
/// and keep the text they were printed from, for the IR text panel.

#include <QTabWidget>
#include <map>
#include <memory>

#include "theme.h"

namespace byoc {
struct Provenance;
}

namespace byoc::ui {

class GraphModel;
class GraphPage;
class TextLinks;

/// Graph tabs.
class GraphTabs : public QTabWidget {
  Q_OBJECT
 public:
  explicit GraphTabs(QWidget* parent = nullptr);

  /// Closes every tab; the next one opened is the main page.
  void clear();
  /// Opens `model` in a new tab titled `title` in front and starts its layout; `text` is what
  /// the tab draws printed (none for the main page, whose text follows the selected step).
  /// `provenance` (may be null) names the source model's nodes for search.
  GraphPage* open(std::shared_ptr<const GraphModel> model, std::shared_ptr<const Provenance> provenance,
                  const QString& title, std::shared_ptr<const TextLinks> text = nullptr);
  /// Brings the tab titled `title` to the front; null if there is none.
  GraphPage* show(const QString& title);
  /// Closes the tab titled `title`, if there is one (never the main page).
  void close(const QString& title);
  /// The first tab, or null.
  GraphPage* mainPage() const { return mainPage_; }
  /// The tab in front, or null.
  GraphPage* currentPage() const;
  /// The text of `page`, a tab other than the main page; null for the main page.
  std::shared_ptr<const TextLinks> textOf(const GraphPage* page) const;
  /// Draws every tab (and those opened later) in `theme`.
  void setTheme(Theme theme);

 signals:
  /// `node` of `page` was selected (-1: none).
  void nodeSelected(byoc::ui::GraphPage* page, int node);
  /// The edge of `page` standing for its model edge `edge` was selected.
  void edgeSelected(byoc::ui::GraphPage* page, int edge);
  /// `node` of `page` was double-clicked.
  void nodeActivated(byoc::ui::GraphPage* page, int node);
  /// A page has something to say in the status bar.
  void status(const QString& message);
  /// A page's layout failed.
  void layoutFailed(const QString& message);
  /// A page's zoom changed.
  void zoomChanged(qreal zoom);

 private:
  void closePage(int index);

  GraphPage* mainPage_ = nullptr;
  /// The text of each tab other than the main page.
  std::map<const GraphPage*, std::shared_ptr<const TextLinks>> texts_;
  Theme theme_ = Theme::Light;
};

}  // namespace byoc::ui
