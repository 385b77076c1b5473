/// \file
/// `byoc-studio`: the desktop app of BYOC Studio.
///
///   byoc-studio [FILE]                      open FILE (or nothing); FILE may be an export directory
///                                           or its manifest.json
///   byoc-studio --demo                      open the built-in demo
///   byoc-studio … --codegen-plugin PATH     also use the codegen plugin PATH (repeatable; `--plugin
///                                           PATH` too, taken out before Qt reads its own `-plugin`)
///   byoc-studio (FILE | --demo) --target T [--pipeline relay|relax] [--step N]
///                                           run the partitioning passes for T, showing step N
///   byoc-studio FILE --steps S1.json,S2.json [--step N]
///                                           open FILE with saved pass steps, showing step N
///   byoc-studio --screenshot OUT.png [--open FILE] [--target T | --steps …] [--step N] [--theme dark]
///               [--size 1600x1000] [--find TEXT] [--rules] [--run] [--pattern TEXT] [--function NAME]
///                                           render the window offscreen to OUT.png and exit

#include <QApplication>
#include <QCommandLineParser>
#include <QDockWidget>
#include <QSettings>
#include <QTemporaryDir>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <utility>

#include "window/main_window.h"
#include "window/screenshot.h"
#include "authoring/target_files.h"
#include "authoring/pattern_dock.h"
#include "exports/export_view.h"
#include "models/diagnostics_model.h"
#include "models/snapshot_list_model.h"
#include "panels/timeline_widget.h"
#include "run/run_inputs_model.h"
#include "run/run_panel.h"
#include "run/run_plugins.h"
#include "plugin/plugin_registry.h"
#include "session/opened_model.h"
#include "support/job.h"
#include "version.h"

namespace {

/// Largest width or height of a --screenshot picture, in pixels.
constexpr int kMaxScreenshotSide = 16384;
/// How long the app waits at exit for background work before leaving without it.
constexpr int kExitGraceMs = 2000;

/// Whether the command line asks for something that needs no display: a screenshot, the help or
/// the version (so they also work in a terminal without one).
bool needsNoDisplay(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    for (const char* option : {"--screenshot", "--help", "-h", "--help-all", "--version", "-v"})
      if (std::strcmp(argv[i], option) == 0) return true;
  }
  return false;
}

/// Gives each `NAME=DIMS` of --input-shape to the Run panel's input NAME (a leading `%` optional).
byoc::Status setInputShapes(byoc::ui::RunInputsModel& inputs, const QStringList& specs) {
  for (const QString& spec : specs) {
    const qsizetype equals = spec.indexOf(u'=');
    if (equals <= 0) return byoc::makeError("expects NAME=DIMS such as x=16x256, found '" + spec.toStdString() + "'");
    QString name = spec.left(equals);
    if (name.startsWith(u'%')) name.remove(0, 1);
    const int row = inputs.rowOf(name.toStdString());
    if (row < 0) return byoc::makeError(spec.toStdString() + ": the model has no input %" + name.toStdString());
    BYOC_TRY(inputs.setShape(row, spec.mid(equals + 1)));
  }
  return byoc::Status::ok();
}

}  // namespace

int main(int argc, char** argv) {
  if (needsNoDisplay(argc, argv) && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
    qputenv("QT_QPA_PLATFORM", "offscreen");
  std::string missingPath;
  const QStringList pluginFiles = byoc::ui::takePluginArguments(argc, argv, missingPath);
  if (!missingPath.empty()) {
    std::fprintf(stderr, "error: %s needs the path of a codegen plugin\n", missingPath.c_str());
    return 2;
  }
  QApplication app(argc, argv);
  QApplication::setOrganizationName(QStringLiteral("byoc-studio"));
  QApplication::setApplicationName(QStringLiteral("BYOC Studio"));
  QApplication::setApplicationVersion(QStringLiteral(BYOC_STUDIO_VERSION));
  QApplication::setDesktopFileName(QStringLiteral("io.github.byoc_studio.ByocStudio"));

  QCommandLineParser parser;
  parser.setApplicationDescription(QStringLiteral("See how a model is partitioned for your backend, pass by pass."));
  parser.addHelpOption();
  parser.addVersionOption();
  parser.addPositionalArgument(QStringLiteral("file"), QStringLiteral("Model to open (.relay, .txt, .json)."));
  QCommandLineOption demo(QStringLiteral("demo"), QStringLiteral("Open the built-in demo model."));
  QCommandLineOption shot(QStringLiteral("screenshot"), QStringLiteral("Render the window to <png> and exit."),
                          QStringLiteral("png"));
  QCommandLineOption open(QStringLiteral("open"), QStringLiteral("Model to open (the demo if omitted)."),
                          QStringLiteral("file"));
  QCommandLineOption theme(QStringLiteral("theme"), QStringLiteral("light or dark."), QStringLiteral("theme"));
  QCommandLineOption size(QStringLiteral("size"), QStringLiteral("Window size for --screenshot, e.g. 1600x1000."),
                          QStringLiteral("WxH"), QStringLiteral("1600x1000"));
  QCommandLineOption find(QStringLiteral("find"), QStringLiteral("With --screenshot: select the first node matching <text>."),
                          QStringLiteral("text"));
  QCommandLineOption steps(QStringList{QStringLiteral("steps")},
                           QStringLiteral("Saved pass steps to show after the model, comma-separated (.json keeps origins)."),
                           QStringLiteral("files"));
  QCommandLineOption step(QStringLiteral("step"),
                          QStringLiteral("The step to show first (0: the loaded model; by default the last, the result)."),
                          QStringLiteral("n"));
  QCommandLineOption target(QStringLiteral("target"),
                            QStringLiteral("Run the partitioning passes for <target> (a built-in name or a .json file; "
                                           "repeat for several) and show them in the timeline."),
                            QStringLiteral("target"));
  QCommandLineOption pipeline(QStringLiteral("pipeline"), QStringLiteral("relay (the default) or relax, with --target."),
                              QStringLiteral("flow"), QStringLiteral("relay"));
  QCommandLineOption rules(QStringLiteral("rules"), QStringLiteral("Show the Op Support dock (the target's op-support rules)."));
  QCommandLineOption runModel(QStringLiteral("run"),
                              QStringLiteral("Run the model with random inputs against the reference (after the passes "
                                             "of --target) and show the Run panel."));
  QCommandLineOption inputShape(QStringLiteral("input-shape"),
                                QStringLiteral("The shape of random input NAME for the Run panel, such as x=16x256: sizes for "
                                               "its unknown (?) dimensions; repeat for each input."),
                                QStringLiteral("NAME=DIMS"));
  QCommandLineOption pattern(QStringLiteral("pattern"),
                             QStringLiteral("Add <text> as a new row of the target's pattern table and show its live matches."),
                             QStringLiteral("text"));
  QCommandLineOption function(QStringLiteral("function"),
                              QStringLiteral("With --screenshot: show the function <name> in its own tab (for an export's "
                                             "dnnl region, its kernel graph)."),
                              QStringLiteral("name"));
  // Documented here; the values were taken out of argv before QApplication (takePluginArguments).
  QCommandLineOption plugin(QStringList{QStringLiteral("codegen-plugin"), QStringLiteral("plugin")},
                            QStringLiteral("Use the codegen plugin <path> (a shared library, docs/plugins.md); repeat for several."),
                            QStringLiteral("path"));
  parser.addOptions(
      {demo, shot, open, theme, size, find, steps, step, target, pipeline, rules, runModel, inputShape, pattern, function, plugin});
  parser.process(app);
  const bool screenshot = parser.isSet(shot);

  // Screenshots start from default settings and leave the user's alone.
  QTemporaryDir settingsDir;
  if (screenshot) QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, settingsDir.path());

  // Plugins that did not load stay in Diagnostics, shown again for every model opened.
  std::vector<byoc::Diagnostic> pluginProblems = byoc::ui::findAppPlugins(pluginFiles);
  byoc::ui::MainWindow window;
  auto showPluginProblems = [&window, &pluginProblems] {
    for (const byoc::Diagnostic& problem : pluginProblems) window.diagnosticsModel()->add(problem);
  };
  showPluginProblems();
  QObject::connect(&window, &byoc::ui::MainWindow::opened, &window, showPluginProblems);
  byoc::ui::JobTracker pluginDescriptions(&window);
  pluginDescriptions.start([] { return byoc::describeWaitingPlugins(); },
                           [&window, &pluginProblems](std::vector<byoc::Diagnostic> problems) {
                             for (byoc::Diagnostic& problem : problems) {
                               window.diagnosticsModel()->add(problem);
                               pluginProblems.push_back(std::move(problem));
                             }
                           });
  if (parser.isSet(theme)) window.setTheme(byoc::ui::themeFromName(parser.value(theme)));
  if (parser.isSet(rules)) window.findChild<QDockWidget*>(QStringLiteral("opSupportDock"))->raise();
  QString file = parser.value(open);
  if (file.isEmpty() && !parser.positionalArguments().isEmpty()) file = parser.positionalArguments().first();

  const QStringList stepFiles = parser.value(steps).split(u',', Qt::SkipEmptyParts);
  const QStringList targets = parser.values(target);
  if (!file.isEmpty() && (!targets.isEmpty() || !stepFiles.isEmpty()) && byoc::exportDirectoryOf(file.toStdString())) {
    std::fprintf(stderr, "error: %s: an export is already partitioned; --%s does not apply\n", qPrintable(file),
                 targets.isEmpty() ? "steps" : "target");
    return 2;
  }
  if (!stepFiles.isEmpty() && !targets.isEmpty()) {
    std::fprintf(stderr, "error: give either --steps or --target, not both\n");
    return 2;
  }
  bool stepIsNumber = true;
  const int firstStep = parser.isSet(step) ? parser.value(step).toInt(&stepIsNumber) : -1;  // -1: the last step
  if (parser.isSet(step) && (!stepIsNumber || firstStep < 0 || (targets.isEmpty() && firstStep > stepFiles.size()))) {
    std::fprintf(stderr, "error: --step expects a number from 0 to %lld, found '%s'\n",
                 static_cast<long long>(stepFiles.size()), qPrintable(parser.value(step)));
    return 2;
  }
  if (!stepFiles.isEmpty() || !targets.isEmpty()) {
    QObject::connect(&window, &byoc::ui::MainWindow::opened, &window, [&window, stepFiles, targets, flow = parser.value(pipeline)] {
      if (targets.isEmpty()) window.openSteps(stepFiles);
      else window.runPartition(targets, flow);
    });
    // The first steps only: later runs (after an edit) keep the step the user is on.
    auto chosen = std::make_shared<QMetaObject::Connection>();
    *chosen = QObject::connect(&window, &byoc::ui::MainWindow::stepsOpened, &window, [&window, firstStep, chosen] {
      QObject::disconnect(*chosen);
      const int last = window.snapshotModel()->rowCount() - 1;
      window.timeline()->setCurrentStep(firstStep < 0 ? last : std::min(firstStep, last));
    });
  }

  // Before --run, which reads the shapes (and does not start when one does not fit); for the
  // model of the command line only.
  auto shapesRefused = std::make_shared<bool>(false);
  QObject::connect(&window, &byoc::ui::MainWindow::opened, &window,
                   [&window, shapesRefused, specs = parser.values(inputShape), first = true]() mutable {
                     if (!std::exchange(first, false)) return;
                     if (byoc::Status given = setInputShapes(*window.runPanel()->inputsModel(), specs); !given) {
                       std::fprintf(stderr, "error: --input-shape %s\n", given.error().message.c_str());
                       *shapesRefused = true;
                       QApplication::exit(2);
                     }
                   });
  if (parser.isSet(runModel)) {
    QObject::connect(&window, targets.isEmpty() ? &byoc::ui::MainWindow::opened : &byoc::ui::MainWindow::stepsOpened,
                     &window, [&window, shapesRefused] {
                       if (!*shapesRefused) window.runModel();
                     });
  }
  if (parser.isSet(pattern)) {
    // After any --target load, which replaces the pattern table.
    QObject::connect(&window, &byoc::ui::MainWindow::opened, &window, [&window, text = parser.value(pattern)] {
      if (byoc::Result<int> row = window.patternDock()->addPattern(text); !row) {
        std::fprintf(stderr, "error: --pattern: %s\n", row.error().str().c_str());
        QApplication::exit(2);
      }
      if (auto* dock = qobject_cast<QDockWidget*>(window.patternDock()->parentWidget())) dock->raise();
    });
  }

  if (screenshot) {
    const QStringList dimensions = parser.value(size).split(u'x');
    const int width = dimensions.size() == 2 ? dimensions[0].toInt() : 0;
    const int height = dimensions.size() == 2 ? dimensions[1].toInt() : 0;
    if (width <= 0 || height <= 0 || width > kMaxScreenshotSide || height > kMaxScreenshotSide) {
      std::fprintf(stderr, "error: --size expects WIDTHxHEIGHT, each from 1 to %d, found '%s'\n", kMaxScreenshotSide,
                   qPrintable(parser.value(size)));
      return 2;
    }
    window.resize(width, height);
    auto* job = new byoc::ui::ScreenshotJob(&window, parser.value(shot), 60000, &app);
    job->setFind(parser.value(find));
    job->setFunction(parser.value(function));
    job->setWaitForSteps(!stepFiles.isEmpty() || !targets.isEmpty());
    job->setWaitForRun(parser.isSet(runModel));
    QObject::connect(job, &byoc::ui::ScreenshotJob::done, &app, [](int status, const QString& message) {
      std::fprintf(status == 0 ? stdout : stderr, "%s%s\n", status == 0 ? "" : "error: ", qPrintable(message));
      QApplication::exit(status);
    });
  }
  window.show();
  if (!screenshot) window.targetFiles()->offerRecovery();
  if (!file.isEmpty()) {
    window.openFile(file);
  } else if (parser.isSet(demo) || screenshot) {
    window.openDemo();
  }
  const int status = app.exec();
  // Work still running on the thread pool (a load, a pass run or a model run that takes long) would
  // keep the process alive after its window closed. None of it needs finishing: files are written
  // atomically and the next export removes an interrupted export's staging folder.
  if (!byoc::ui::jobPool()->waitForDone(kExitGraceMs)) {
    std::fflush(nullptr);
    std::_Exit(status);
  }
  return status;
}
