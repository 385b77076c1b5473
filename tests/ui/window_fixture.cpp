#include "window_fixture.h"

#include <QSignalSpy>
#include <QtGlobal>

#include "window/model_document.h"
#include "graph/graph_page.h"
#include "models/snapshot_list_model.h"
#include "panels/timeline_widget.h"
#include "target/target_library.h"

namespace byoc::testing {

bool openAndLayOut(ui::MainWindow& window, const QString& path) {
  QSignalSpy opened(&window, &ui::MainWindow::opened);
  if (path.isEmpty()) {
    window.openDemo();
  } else {
    window.openFile(path);
  }
  if (!opened.wait(10000)) return false;
  if (window.mainPage()->isLaidOut()) return true;
  QSignalSpy laidOut(window.mainPage(), &ui::GraphPage::layoutReady);
  return laidOut.wait(20000);
}

bool showAndOpen(ui::MainWindow& window, const QString& path) {
  window.resize(1400, 900);
  window.show();
  return openAndLayOut(window, path);
}

bool partitionAndShowLastStep(ui::MainWindow& window, const QString& target) {
  QSignalSpy opened(&window, &ui::MainWindow::stepsOpened);
  window.runPartition({target}, QStringLiteral("relay"));
  if (!opened.wait(30000)) return false;
  window.timeline()->setCurrentStep(window.snapshotModel()->rowCount() - 1);
  return true;
}

Module demoModule() {
  Result<ui::ModelDocument> demo = ui::openDemoDocument();
  if (!demo) qFatal("%s", demo.error().str().c_str());
  return demo->module;
}

std::shared_ptr<const Target> builtinTarget(const char* name) {
  Result<Target> target = loadTarget(name);
  if (!target) qFatal("%s", target.error().str().c_str());
  return std::make_shared<const Target>(std::move(target).value());
}

}  // namespace byoc::testing
