/// \file
/// ScreenshotJob.

#include "window/screenshot.h"

#include <QBuffer>
#include <QPixmap>
#include <QTimer>

#include "window/main_window.h"
#include "graph/graph_page.h"
#include "graph/graph_scene.h"
#include "run/run_panel.h"
#include "support/output_file.h"

namespace byoc::ui {

ScreenshotJob::ScreenshotJob(MainWindow* window, QString outputPath, int timeoutMs, QObject* parent)
    : QObject(parent), window_(window), outputPath_(std::move(outputPath)) {
  connect(window_, &MainWindow::openFailed, this, [this](const QString& message) { fail(message); });
  connect(window_, &MainWindow::opened, this, [this] {
    GraphPage* page = window_->mainPage();
    connect(page, &GraphPage::layoutFailed, this, [this](const QString& message) { fail(message); });
    connect(page, &GraphPage::layoutReady, this, [this, page] {
      if (!find_.isEmpty() && page->search(find_, false) == 0) {
        fail(QStringLiteral("no node matches '%1'").arg(find_));
        return;
      }
      if (!function_.isEmpty()) return showFunction();
      laidOut_ = true;
      captureWhenReady();
    });
  });
  connect(window_, &MainWindow::stepsOpened, this, [this] {
    stepsOpened_ = true;
    captureWhenReady();
  });
  connect(window_->runPanel(), &RunPanel::finished, this, [this](bool ok) {
    if (!ok) return fail(window_->runPanel()->verdict());
    runFinished_ = true;
    captureWhenReady();
  });
  QTimer::singleShot(timeoutMs, this, [this, timeoutMs] {
    fail(QStringLiteral("no picture after %1 ms").arg(timeoutMs));
  });
}

void ScreenshotJob::showFunction() {
  GraphPage* tab = window_->openFunctionTab(function_);
  if (!tab) return fail(QStringLiteral("the model has no function @%1").arg(function_));
  auto ready = [this] {
    laidOut_ = true;
    captureWhenReady();
  };
  if (tab->isLaidOut()) return ready();
  connect(tab, &GraphPage::layoutFailed, this, [this](const QString& message) { fail(message); });
  connect(tab, &GraphPage::layoutReady, this, ready);
}

void ScreenshotJob::captureWhenReady() {
  if (!laidOut_ || (waitForSteps_ && !stepsOpened_) || (waitForRun_ && !runFinished_)) return;
  // Let queued repaints (minimap, docks) settle before grabbing.
  QTimer::singleShot(150, this, &ScreenshotJob::capture);
}

void ScreenshotJob::capture() {
  if (finished_) return;
  if (GraphPage* page = window_->currentPage()) page->scene()->finishOverlay();
  QPixmap picture = window_->grab();
  QBuffer png;
  png.open(QIODevice::WriteOnly);
  if (!picture.save(&png, "PNG")) {
    fail(QStringLiteral("cannot encode the screenshot as PNG (%1×%2)").arg(picture.width()).arg(picture.height()));
    return;
  }
  if (QString error; !writeOutputFile(outputPath_, png.data(), &error)) {
    fail(QStringLiteral("%1: %2").arg(outputPath_, error));
    return;
  }
  finished_ = true;
  emit done(0, QStringLiteral("wrote %1 (%2×%3)").arg(outputPath_).arg(picture.width()).arg(picture.height()));
}

void ScreenshotJob::fail(const QString& message) {
  if (finished_) return;
  finished_ = true;
  emit done(1, message);
}

}  // namespace byoc::ui
