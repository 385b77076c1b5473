/// \file
/// Codegen plugins in the app: the Run dock's run of the ccompiler target against the reference
/// with per-region times, a crashing plugin reported as an error while the process goes on, a
/// plugin that does not load reported as a diagnostic, and plugin codegens offered in the target
/// settings.

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

  void aTargetMayNameAPluginThatIsNotLoaded() {
    Target target = loadTarget("ccompiler").value();
    TargetSettings settings = settingsOf(target);
    settings.codegen = QStringLiteral("plugin:elsewhere");
    QVERIFY(withSettings(target, settings));
  }
};

QTEST_MAIN(TestPluginApp)
#include "test_plugin_app.moc"
