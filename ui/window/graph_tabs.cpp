/// \file
/// GraphTabs: opening, finding and closing graph tabs.

#include "window/graph_tabs.h"

#include <QTabBar>

#include "graph/graph_page.h"
#include "graph/graph_view.h"
#include "panels/text_links.h"

namespace byoc::ui {

GraphTabs::GraphTabs(QWidget* parent) : QTabWidget(parent) {
  setTabsClosable(true);
  setMovable(true);
  setDocumentMode(true);
  connect(this, &QTabWidget::tabCloseRequested, this, &GraphTabs::closePage);
}

void GraphTabs::clear() {
  while (count() > 0) {
    QWidget* page = widget(0);
    removeTab(0);
    page->deleteLater();
  }
  texts_.clear();
  mainPage_ = nullptr;
}

GraphPage* GraphTabs::open(std::shared_ptr<const GraphModel> model, std::shared_ptr<const Provenance> provenance,
                           const QString& title, std::shared_ptr<const TextLinks> text) {
  auto* page = new GraphPage(std::move(model), std::move(provenance), this);
  page->setTheme(theme_);
  connect(page, &GraphPage::nodeSelected, this, [this, page](int node) { emit nodeSelected(page, node); });
  connect(page, &GraphPage::edgeSelected, this, [this, page](int edge) { emit edgeSelected(page, edge); });
  connect(page, &GraphPage::nodeActivated, this, [this, page](int node) { emit nodeActivated(page, node); });
  connect(page, &GraphPage::status, this, &GraphTabs::status);
  connect(page, &GraphPage::layoutFailed, this, &GraphTabs::layoutFailed);
  connect(page->view(), &GraphView::zoomChanged, this, &GraphTabs::zoomChanged);
  if (mainPage_) {
    texts_[page] = std::move(text);
  } else {
    mainPage_ = page;
  }
  const int index = addTab(page, title);
  if (page == mainPage_) tabBar()->setTabButton(index, QTabBar::RightSide, nullptr);  // it stays open
  setCurrentIndex(index);
  page->startLayout();
  return page;
}

GraphPage* GraphTabs::show(const QString& title) {
  for (int i = 0; i < count(); ++i) {
    if (tabText(i) != title) continue;
    setCurrentIndex(i);
    return static_cast<GraphPage*>(widget(i));
  }
  return nullptr;
}

void GraphTabs::close(const QString& title) {
  for (int i = 0; i < count(); ++i) {
    if (tabText(i) == title) return closePage(i);
  }
}

GraphPage* GraphTabs::currentPage() const { return qobject_cast<GraphPage*>(currentWidget()); }

std::shared_ptr<const TextLinks> GraphTabs::textOf(const GraphPage* page) const {
  auto text = texts_.find(page);
  return text == texts_.end() ? nullptr : text->second;
}

void GraphTabs::setTheme(Theme theme) {
  theme_ = theme;
  for (int i = 0; i < count(); ++i) static_cast<GraphPage*>(widget(i))->setTheme(theme);
}

void GraphTabs::closePage(int index) {
  auto* page = static_cast<GraphPage*>(widget(index));
  if (page == mainPage_) return;
  texts_.erase(page);
  removeTab(index);
  page->deleteLater();
}

}  // namespace byoc::ui
