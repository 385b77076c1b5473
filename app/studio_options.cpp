#include "studio_options.h"

#include "session/opened_model.h"

namespace byoc::studio {

namespace {

/// Largest width or height of a --screenshot picture, in pixels.
constexpr int kMaxScreenshotSide = 16384;

QCommandLineOption option(const char* name, const char* help, const char* value = nullptr, const char* byDefault = nullptr) {
  return QCommandLineOption(QString::fromLatin1(name), QString::fromUtf8(help), value ? QString::fromLatin1(value) : QString(),
                            byDefault ? QString::fromLatin1(byDefault) : QString());
}

}  // namespace

void declareStudioOptions(QCommandLineParser& parser) {
  parser.setApplicationDescription(QStringLiteral("See how a model is partitioned for your backend, pass by pass."));
  parser.addHelpOption();
  parser.addVersionOption();
  parser.addPositionalArgument(QStringLiteral("file"), QStringLiteral("Model to open (.relay, .txt, .json)."));
  parser.addOptions({
      option("demo", "Open the built-in demo model."),
      option("screenshot", "Render the window to <png> and exit.", "png"),
      option("open", "Model to open (the demo if omitted).", "file"),
      option("theme", "light or dark.", "theme"),
      option("size", "Window size for --screenshot, e.g. 1600x1000.", "WxH", "1600x1000"),
      option("find", "With --screenshot: select the first node matching <text>.", "text"),
      option("steps", "Saved pass steps to show after the model, comma-separated (.json keeps origins).", "files"),
      option("step", "The step to show first (0: the loaded model; by default the last, the result).", "n"),
      option("target",
             "Run the partitioning passes for <target> (a built-in name or a .json file; repeat for several) and show them "
             "in the timeline.",
             "target"),
      option("pipeline", "relay (the default) or relax, with --target.", "flow", "relay"),
      option("rules", "Show the Op Support dock (the target's op-support rules)."),
      option("run", "Run the model with random inputs against the reference (after the passes of --target) and show the Run panel."),
      option("input-shape",
             "The shape of random input NAME for the Run panel, such as x=16x256: sizes for its unknown (?) dimensions; repeat "
             "for each input.",
             "NAME=DIMS"),
      option("pattern", "Add <text> as a new row of the target's pattern table and show its live matches.", "text"),
      option("function", "With --screenshot: show the function <name> in its own tab (for an export's dnnl region, its kernel graph).",
             "name"),
      // Documented here; the values were taken out of argv before QApplication (takePluginArguments).
      QCommandLineOption(QStringList{QStringLiteral("codegen-plugin"), QStringLiteral("plugin")},
                         QStringLiteral("Use the codegen plugin <path> (a shared library, docs/plugins.md); repeat for several."),
                         QStringLiteral("path")),
  });
}

Result<StudioOptions> readStudioOptions(const QCommandLineParser& parser) {
  StudioOptions options;
  options.file = parser.value(QStringLiteral("open"));
  if (options.file.isEmpty() && !parser.positionalArguments().isEmpty()) options.file = parser.positionalArguments().first();
  options.demo = parser.isSet(QStringLiteral("demo"));
  options.screenshot = parser.value(QStringLiteral("screenshot"));
  options.theme = parser.value(QStringLiteral("theme"));
  options.find = parser.value(QStringLiteral("find"));
  options.function = parser.value(QStringLiteral("function"));
  options.stepFiles = parser.value(QStringLiteral("steps")).split(u',', Qt::SkipEmptyParts);
  options.targets = parser.values(QStringLiteral("target"));
  options.pipeline = parser.value(QStringLiteral("pipeline"));
  options.showRules = parser.isSet(QStringLiteral("rules"));
  options.run = parser.isSet(QStringLiteral("run"));
  options.inputShapes = parser.values(QStringLiteral("input-shape"));
  if (parser.isSet(QStringLiteral("pattern"))) options.pattern = parser.value(QStringLiteral("pattern"));

  const bool partitions = !options.targets.isEmpty() || !options.stepFiles.isEmpty();
  if (!options.file.isEmpty() && partitions && exportDirectoryOf(options.file.toStdString()))
    return makeError(options.file.toStdString() + ": an export is already partitioned; --" +
                     (options.targets.isEmpty() ? "steps" : "target") + " does not apply");
  if (!options.stepFiles.isEmpty() && !options.targets.isEmpty()) return makeError("give either --steps or --target, not both");
  if (const QString step = parser.value(QStringLiteral("step")); parser.isSet(QStringLiteral("step"))) {
    bool isNumber = false;
    options.firstStep = step.toInt(&isNumber);
    if (!isNumber || options.firstStep < 0 || (options.targets.isEmpty() && options.firstStep > options.stepFiles.size()))
      return makeError("--step expects a number from 0 to " + std::to_string(options.stepFiles.size()) + ", found '" +
                       step.toStdString() + "'");
  }
  const QString size = parser.value(QStringLiteral("size"));
  const QStringList dimensions = size.split(u'x');
  options.size = QSize(dimensions.size() == 2 ? dimensions[0].toInt() : 0, dimensions.size() == 2 ? dimensions[1].toInt() : 0);
  if (!options.screenshot.isEmpty() && (options.size.width() <= 0 || options.size.height() <= 0 ||
                                        options.size.width() > kMaxScreenshotSide || options.size.height() > kMaxScreenshotSide))
    return makeError("--size expects WIDTHxHEIGHT, each from 1 to " + std::to_string(kMaxScreenshotSide) + ", found '" +
                     size.toStdString() + "'");
  return options;
}

}  // namespace byoc::studio
