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
#include <QSettings>
#include <QTemporaryDir>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "authoring/target_files.h"
#include "models/diagnostics_model.h"
#include "plugin/plugin_registry.h"
#include "run/run_plugins.h"
#include "studio_options.h"
#include "studio_startup.h"
#include "support/job.h"
#include "version.h"
#include "window/main_window.h"
#include "window/screenshot.h"

namespace {

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

/// Renders `window` to `options.screenshot` once it shows what the options ask for, then quits.
void takeScreenshot(byoc::ui::MainWindow& window, const byoc::studio::StudioOptions& options, QApplication& app) {
  window.resize(options.size);
  auto* job = new byoc::ui::ScreenshotJob(&window, options.screenshot, 60000, &app);
  job->setFind(options.find);
  job->setFunction(options.function);
  job->setWaitForSteps(!options.stepFiles.isEmpty() || !options.targets.isEmpty());
  job->setWaitForRun(options.run);
  QObject::connect(job, &byoc::ui::ScreenshotJob::done, &app, [](int status, const QString& message) {
    std::fprintf(status == 0 ? stdout : stderr, "%s%s\n", status == 0 ? "" : "error: ", qPrintable(message));
    QApplication::exit(status);
  });
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
  byoc::studio::declareStudioOptions(parser);
  parser.process(app);
  const byoc::Result<byoc::studio::StudioOptions> read = byoc::studio::readStudioOptions(parser);
  if (!read) {
    std::fprintf(stderr, "error: %s\n", read.error().str().c_str());
    return 2;
  }
  const byoc::studio::StudioOptions& options = *read;
  const bool screenshot = !options.screenshot.isEmpty();

  // Screenshots start from default settings and leave the user's alone.
  QTemporaryDir settingsDir;
  if (screenshot) QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, settingsDir.path());

  // Plugins are described off the GUI thread; those that did not load stay in Diagnostics, shown
  // again for every model opened.
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

  if (!options.theme.isEmpty()) window.setTheme(byoc::ui::themeFromName(options.theme));
  byoc::studio::scheduleStartupActions(window, options);
  if (screenshot) takeScreenshot(window, options, app);
  window.show();
  if (!screenshot) window.targetFiles()->offerRecovery();
  if (!options.file.isEmpty()) {
    window.openFile(options.file);
  } else if (options.demo || screenshot) {
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
