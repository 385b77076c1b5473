/// \file
/// showHelpDocument.

#include "window/help_browser.h"

#include <QDialog>
#include <QTextBrowser>
#include <QUrl>
#include <QVBoxLayout>

namespace byoc::ui {

QWidget* showHelpDocument(const QString& document, QWidget* parent) {
  auto* window = new QDialog(parent);
  window->setAttribute(Qt::WA_DeleteOnClose);
  window->resize(860, 720);
  auto* browser = new QTextBrowser(window);
  browser->setOpenExternalLinks(true);  // web links open in the browser; links between the documents here
  browser->setSource(QUrl(QStringLiteral("qrc:/docs/") + document), QTextDocument::MarkdownResource);
  window->setWindowTitle(browser->documentTitle().isEmpty() ? document : browser->documentTitle());
  QObject::connect(browser, &QTextBrowser::sourceChanged, window,
                   [window, browser] { window->setWindowTitle(browser->documentTitle()); });
  auto* layout = new QVBoxLayout(window);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(browser);
  window->show();
  return window;
}

}  // namespace byoc::ui
