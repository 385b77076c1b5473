#include "studio_startup.h"

#include <QApplication>
#include <QDockWidget>
#include <algorithm>
#include <cstdio>
#include <memory>
#include <utility>

#include "authoring/pattern_dock.h"
#include "models/snapshot_list_model.h"
#include "panels/timeline_widget.h"
#include "run/run_inputs_model.h"
#include "run/run_panel.h"

namespace byoc::studio {

namespace {

/// Gives each `NAME=DIMS` of --input-shape to the Run panel's input NAME (a leading `%` optional).
Status setInputShapes(ui::RunInputsModel& inputs, const QStringList& specs) {
  for (const QString& spec : specs) {
    const qsizetype equals = spec.indexOf(u'=');
    if (equals <= 0) return makeError("expects NAME=DIMS such as x=16x256, found '" + spec.toStdString() + "'");
    QString name = spec.left(equals);
    if (name.startsWith(u'%')) name.remove(0, 1);
    const int row = inputs.rowOf(name.toStdString());
    if (row < 0) return makeError(spec.toStdString() + ": the model has no input %" + name.toStdString());
    BYOC_TRY(inputs.setShape(row, spec.mid(equals + 1)));
  }
  return Status::ok();
}

/// Ends the app with status 2 after printing `message` as an error.
void refuse(const std::string& message) {
  std::fprintf(stderr, "error: %s\n", message.c_str());
  QApplication::exit(2);
}

/// The saved steps or the partition, once the model is open, and the step shown first.
void showStepsWhenOpened(ui::MainWindow& window, const StudioOptions& options) {
  QObject::connect(&window, &ui::MainWindow::opened, &window,
                   [&window, stepFiles = options.stepFiles, targets = options.targets, flow = options.pipeline] {
                     if (targets.isEmpty()) window.openSteps(stepFiles);
                     else window.runPartition(targets, flow);
                   });
  // The first steps only: later runs (after an edit) keep the step the user is on.
  auto chosen = std::make_shared<QMetaObject::Connection>();
  *chosen = QObject::connect(&window, &ui::MainWindow::stepsOpened, &window, [&window, firstStep = options.firstStep, chosen] {
    QObject::disconnect(*chosen);
    const int last = window.snapshotModel()->rowCount() - 1;
    window.timeline()->setCurrentStep(firstStep < 0 ? last : std::min(firstStep, last));
  });
}

}  // namespace

void scheduleStartupActions(ui::MainWindow& window, const StudioOptions& options) {
  if (options.showRules) window.findChild<QDockWidget*>(QStringLiteral("opSupportDock"))->raise();
  if (!options.stepFiles.isEmpty() || !options.targets.isEmpty()) showStepsWhenOpened(window, options);

  // Before --run, which reads the shapes (and does not start when one does not fit); for the
  // model of the command line only.
  auto shapesRefused = std::make_shared<bool>(false);
  QObject::connect(&window, &ui::MainWindow::opened, &window,
                   [&window, shapesRefused, specs = options.inputShapes, first = true]() mutable {
                     if (!std::exchange(first, false)) return;
                     if (Status given = setInputShapes(*window.runPanel()->inputsModel(), specs); !given) {
                       *shapesRefused = true;
                       refuse("--input-shape " + given.error().message);
                     }
                   });
  if (options.run) {
    QObject::connect(&window, options.targets.isEmpty() ? &ui::MainWindow::opened : &ui::MainWindow::stepsOpened, &window,
                     [&window, shapesRefused] {
                       if (!*shapesRefused) window.runModel();
                     });
  }
  if (options.pattern) {
    // After any --target load, which replaces the pattern table.
    QObject::connect(&window, &ui::MainWindow::opened, &window, [&window, text = *options.pattern] {
      if (Result<int> row = window.patternDock()->addPattern(text); !row) refuse("--pattern: " + row.error().str());
      if (auto* dock = qobject_cast<QDockWidget*>(window.patternDock()->parentWidget())) dock->raise();
    });
  }
}

}  // namespace byoc::studio
