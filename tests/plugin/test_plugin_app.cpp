/// \file
/// Codegen plugins in the app: the Run dock's run of the ccompiler target against the reference
/// with per-region times, a crashing plugin reported as an error while the process goes on, a
/// plugin that does not load reported as a diagnostic, plugin codegens offered in the target
/// settings, and the app's plugin options taken from its command line before Qt sees them.

#include <QComboBox>
#include <QtTest>

#include "authoring/target_settings.h"
#include "pass/infer_type.h"
#include "plugin/plugin_registry.h"
#include "run/run_inputs_model.h"
#include "run/run_job.h"
#include "run/run_plugins.h"
#include "target/target_library.h"
#include "test_files.h"
#include "text/parser.h"

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
    const std::vector<Diagnostic> problems = loadAppPlugins({QStringLiteral(BYOC_TOY_NO_ENTRY)});
    QCOMPARE(problems.size(), std::size_t(1));
    QVERIFY(QString::fromStdString(problems[0].message).contains(QStringLiteral("not a codegen plugin")));
    QVERIFY(loadedPluginsText().contains(QStringLiteral("plugin:ccompiler 1.0.0")));
  }

  void theTargetSettingsOfferPluginCodegens() {
    TargetSettingsDialog dialog(loadTarget("ccompiler").value(), QStringLiteral("Settings"));
    auto* codegen = dialog.findChild<QComboBox*>();
    QVERIFY(codegen);
    QVERIFY(codegen->findData(QStringLiteral("plugin:ccompiler")) >= 0);
    QVERIFY(codegen->findData(QStringLiteral("plugin:toy")) >= 0);
    QCOMPARE(codegen->currentData().toString(), QStringLiteral("plugin:ccompiler"));
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
