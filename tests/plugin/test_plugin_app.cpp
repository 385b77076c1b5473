/// \file
/// Codegen plugins in the app: the Run dock's run of the ccompiler target against the reference
/// with per-region times, a crashing plugin reported as an error while the process goes on, a
/// plugin that does not load reported as a diagnostic, plugin codegens offered in the target
/// settings, an export's compiled code run only when trusted, and the app's plugin options taken
/// from its command line before Qt sees them.

#include <QCheckBox>
#include <QComboBox>
#include <QTemporaryDir>
#include <QtTest>

#include "authoring/target_settings.h"
#include "export/export_reader.h"
#include "export/export_writer.h"
#include "pass/infer_type.h"
#include "plugin/plugin_registry.h"
#include "run/run_inputs_model.h"
#include "run/run_job.h"
#include "run/run_panel.h"
#include "run/run_plugins.h"
#include "target/target_library.h"
#include "test_files.h"
#include "text/parser.h"
#include "session/partitioning.h"

using namespace byoc;
using namespace byoc::ui;

namespace {

Module moduleOf(const QString& relative) {
  const std::string path = testing::testDataPath(relative);
  return inferTypes(parseModule(testing::readTestData(relative), path).value()).value();
}

std::shared_ptr<const Target> targetOf(const std::string& nameOrPath) {
  return std::make_shared<const Target>(loadTarget(nameOrPath).value());
}

}  // namespace

class TestPluginApp : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    qputenv("BYOC_PLUGIN_HOST", BYOC_PLUGIN_HOST_PATH);
    QVERIFY(addPlugin(BYOC_CCOMPILER_PLUGIN));
    QVERIFY(addPlugin(BYOC_TOY_CRASH));
  }

  void theRunDockRunsCcompilerRegionsAgainstTheReference() {
    Module demo = moduleOf(QStringLiteral("text/demo.relay"));
    RunInputsModel inputs;
    inputs.setModule(demo);
    RunRequest request{demo, {targetOf("ccompiler")}, QStringLiteral("relay"), *inputs.tensors(), 2};
    Result<RunReport> report = runAndCompare(request, nullptr, [](int, int, const QString&) {});
    QVERIFY2(report, report ? "" : report.error().str().c_str());
    QVERIFY(report->comparison.agree());
    QCOMPARE(report->timings.regions.size(), std::size_t(2));
    for (const RegionInfo& region : report->timings.regions) {
      QCOMPARE(region.codegen, std::string("plugin:ccompiler"));
      QVERIFY(region.calls >= 2);
    }
    QCOMPARE(static_cast<int>(regionTimeNotes(report->timings).size()), 2);
    QVERIFY(codegenSummary(report->regions).contains(QStringLiteral("plugin:ccompiler")));
  }

  void aPluginThatCrashesIsAnErrorAndTheProcessGoesOn() {
    Module relu = moduleOf(QStringLiteral("plugin/relu.relay"));
    RunInputsModel inputs;
    inputs.setModule(relu);
    RunRequest request{relu, {targetOf(testing::testDataPath(QStringLiteral("plugin/toy.json")))}, QStringLiteral("relay"),
                       *inputs.tensors(), 0};
    Result<RunReport> report = runAndCompare(request, nullptr, [](int, int, const QString&) {});
    QVERIFY(!report);
    QVERIFY2(QString::fromStdString(report.error().message).contains(QStringLiteral("plugin:toy crashed while compiling the region")),
             report.error().message.c_str());
    // Still here: the next run works.
    theRunDockRunsCcompilerRegionsAgainstTheReference();
  }

  void aPluginThatDoesNotLoadIsADiagnostic() {
    QVERIFY(findAppPlugins({QStringLiteral(BYOC_TOY_NO_ENTRY)}).empty());
    const std::vector<Diagnostic> problems = describeWaitingPlugins();
    QCOMPARE(problems.size(), std::size_t(1));
    QVERIFY(QString::fromStdString(problems[0].message).contains(QStringLiteral("not a codegen plugin")));
    QVERIFY(loadedPluginsText().contains(QStringLiteral("plugin:ccompiler 1.0.0")));
  }

  // The app finds its plugins at start without running their code: they are described later,
  // off the GUI thread, in plugin hosts.
  void findingPluginsRunsNoneOfTheirCode() {
    QTemporaryDir directory;
    const QString marker = directory.filePath(QStringLiteral("loaded"));
    qputenv("BYOC_TEST_MARKER", marker.toLocal8Bit());
    const QString missing = directory.filePath(QStringLiteral("missing.so"));
    const std::vector<Diagnostic> missingProblems = findAppPlugins({QStringLiteral(BYOC_MARKER_LIBRARY), missing});
    QCOMPARE(missingProblems.size(), std::size_t(1));
    QCOMPARE(missingProblems[0].str(), missing.toStdString() + ": no such plugin file");
    QVERIFY(!QFile::exists(marker));
    const std::vector<Diagnostic> problems = describeWaitingPlugins();
    qunsetenv("BYOC_TEST_MARKER");
    QVERIFY(QFile::exists(marker));  // in the plugin host
    QCOMPARE(problems.size(), std::size_t(1));
    QVERIFY2(QString::fromStdString(problems[0].message).contains(QStringLiteral("not a codegen plugin")), problems[0].message.c_str());
  }

  void theTargetSettingsOfferPluginCodegens() {
    TargetSettingsDialog dialog(loadTarget("ccompiler").value(), QStringLiteral("Settings"));
    auto* codegen = dialog.findChild<QComboBox*>();
    QVERIFY(codegen);
    QVERIFY(codegen->findData(QStringLiteral("plugin:ccompiler")) >= 0);
    QVERIFY(codegen->findData(QStringLiteral("plugin:toy")) >= 0);
    QCOMPARE(codegen->currentData().toString(), QStringLiteral("plugin:ccompiler"));
  }

  // An opened export's compiled library runs only when the user trusts it (the Run dock's "Trust
  // compiled code"), and then in the plugin's host, never in the app.
  void anExportsCompiledLibraryRunsOnlyWhenTrusted() {
    Module relu = moduleOf(QStringLiteral("plugin/relu.relay"));
    Result<PassRun> steps = partitionModel(relu, {{targetOf("ccompiler")}, PartitionPipeline::Relay});
    QVERIFY(steps && !steps->steps.empty());
    QTemporaryDir dir;
    const std::string out = dir.filePath(QStringLiteral("export")).toStdString();
    ExportOptions options;
    options.producer = "test";
    options.targets = {{"ccompiler", "plugin:ccompiler"}};
    QVERIFY(exportModule(steps->steps.back().module, options, out));
    Result<LoadedExport> loaded = loadExport(out);
    QVERIFY2(loaded, loaded ? "" : loaded.error().str().c_str());
    QCOMPARE(loaded->compiled.size(), std::size_t(1));
    // Another library in place of the compiled one, on disk and in memory, after loadExport checked the files.
    const QString library = QString::fromStdString(loaded->compiledFolders.begin()->second) + QStringLiteral("/region.so");
    QVERIFY(QFile::remove(library));
    QVERIFY(QFile::copy(QStringLiteral(BYOC_MARKER_LIBRARY), library));
    QFile replacement(library);
    QVERIFY(replacement.open(QIODevice::ReadOnly));
    const QByteArray bytes = replacement.readAll();
    for (auto& [name, content] : loaded->compiled.begin()->second.files)
      if (name == "region.so") content.assign(bytes.constData(), static_cast<std::size_t>(bytes.size()));
    const QString marker = dir.filePath(QStringLiteral("marker"));
    qputenv("BYOC_TEST_MARKER", marker.toLocal8Bit());

    auto exported = std::make_shared<const LoadedExport>(*loaded);
    RunPanel panel;
    panel.setModel(loaded->module, exported);
    QVERIFY(!panel.trustCompiledBox()->isHidden());
    QVERIFY(!panel.trustCompiledBox()->isChecked());
    RunInputsModel inputs;
    inputs.setModule(loaded->module);
    RunRequest request{loaded->module, {}, QStringLiteral("relay"), *inputs.tensors(), 0, exported};
    Result<RunReport> rebuilt = runAndCompare(request, nullptr, [](int, int, const QString&) {});
    QVERIFY2(rebuilt, rebuilt ? "" : rebuilt.error().str().c_str());
    QVERIFY(!QFile::exists(marker));
    request.trustCompiled = true;
    Result<RunReport> trusted = runAndCompare(request, nullptr, [](int, int, const QString&) {});
    QVERIFY(!trusted);
    QVERIFY2(QString::fromStdString(trusted.error().message).contains(QStringLiteral("(plugin:ccompiler)")), trusted.error().message.c_str());
    QVERIFY(QFile::exists(marker));
  }

  void pluginOptionsAreTakenBeforeQtSeesThem() {
    std::vector<std::string> words = {"byoc-studio", "--plugin", "a.so", "--demo", "--codegen-plugin=b.so", "--codegen-plugin", "c.so",
                                      "--plugin=d.so", "--theme", "dark"};
    std::vector<char*> argv;
    for (std::string& word : words) argv.push_back(word.data());
    argv.push_back(nullptr);
    int argc = static_cast<int>(words.size());
    std::string missing;
    const QStringList paths = takePluginArguments(argc, argv.data(), missing);
    QCOMPARE(paths, (QStringList{QStringLiteral("a.so"), QStringLiteral("b.so"), QStringLiteral("c.so"), QStringLiteral("d.so")}));
    QVERIFY(missing.empty());
    QCOMPARE(argc, 4);
    QCOMPARE(QString::fromUtf8(argv[1]), QStringLiteral("--demo"));
    QCOMPARE(QString::fromUtf8(argv[3]), QStringLiteral("dark"));
    QVERIFY(argv[4] == nullptr);

    std::vector<std::string> unfinished = {"byoc-studio", "--demo", "--plugin"};
    std::vector<char*> unfinishedArgv;
    for (std::string& word : unfinished) unfinishedArgv.push_back(word.data());
    unfinishedArgv.push_back(nullptr);
    int unfinishedArgc = 3;
    QVERIFY(takePluginArguments(unfinishedArgc, unfinishedArgv.data(), missing).isEmpty());
    QCOMPARE(QString::fromStdString(missing), QStringLiteral("--plugin"));
  }

  void aTargetMayNameAPluginThatIsNotLoaded() {
    Target target = loadTarget("ccompiler").value();
    TargetSettings settings = settingsOf(target);
    settings.codegen = QStringLiteral("plugin:elsewhere");
    QVERIFY(withSettings(target, settings));
  }
};

QTEST_MAIN(TestPluginApp)
#include "test_plugin_app.moc"
