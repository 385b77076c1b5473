#include <QCryptographicHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include "cli_runner.h"
#include "runtime/compare.h"
#include "runtime/npy.h"
#include "test_files.h"

using byoc::testing::runCli;

namespace {

QString data(const char* relative) { return QString::fromStdString(byoc::testing::testDataPath(QString::fromUtf8(relative))); }

/// The lines of `text` that are not empty.
QStringList lines(const QString& text) { return text.split(QLatin1Char('\n'), Qt::SkipEmptyParts); }

/// The environment of the tests' plugin runs: short time limits, so that a plugin that hangs is
/// stopped quickly, and `extra` set.
QProcessEnvironment shortLimits(const QList<std::pair<QString, QString>>& extra = {}) {
  QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
  environment.insert(QStringLiteral("BYOC_PLUGIN_CALL_SECONDS"), QStringLiteral("0.5"));
  environment.insert(QStringLiteral("BYOC_PLUGIN_COMPILE_SECONDS"), QStringLiteral("0.5"));
  for (const auto& [name, value] : extra) environment.insert(name, value);
  return environment;
}

/// The toy plugin built to misbehave `way` in `place` (tests/plugin/CMakeLists.txt).
QString misbehaving(const QString& place, const QString& way) {
  return QStringLiteral(BYOC_TOY_MISBEHAVING_DIR "/libbyoc_toy_%1_%2.so").arg(place, way);
}

/// Reads and writes an export's manifest.json, keeping its checksums in step with its files.
class ExportEditor {
 public:
  explicit ExportEditor(QString directory) : directory_(std::move(directory)) {
    QFile file(manifestPath());
    if (file.open(QIODevice::ReadOnly)) manifest_ = QJsonDocument::fromJson(file.readAll()).object();
  }

  /// Writes `bytes` to the export's `relative` file and records its checksum.
  bool putFile(const QString& relative, const QByteArray& bytes) {
    QFile file(directory_ + QLatin1Char('/') + relative);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) || file.write(bytes) != bytes.size()) return false;
    QJsonObject files = manifest_.value(QStringLiteral("files")).toObject();
    files.insert(relative, QString::fromLatin1(QCryptographicHash::hash(bytes, QCryptographicHash::Sha256).toHex()));
    manifest_.insert(QStringLiteral("files"), files);
    return true;
  }

  /// Lists `relative` among the compiled files of the first external function.
  void addCompiled(const QString& relative) {
    QJsonArray functions = manifest_.value(QStringLiteral("external_functions")).toArray();
    QJsonObject first = functions.at(0).toObject();
    QJsonArray compiled = first.value(QStringLiteral("compiled")).toArray();
    compiled.append(relative);
    first.insert(QStringLiteral("compiled"), compiled);
    functions.replace(0, first);
    manifest_.insert(QStringLiteral("external_functions"), functions);
  }

  bool save() {
    QFile file(manifestPath());
    const QByteArray bytes = QJsonDocument(manifest_).toJson();
    return file.open(QIODevice::WriteOnly | QIODevice::Truncate) && file.write(bytes) == bytes.size();
  }

 private:
  QString manifestPath() const { return directory_ + QStringLiteral("/manifest.json"); }

  QString directory_;
  QJsonObject manifest_;
};

}  // namespace

/// Codegen plugins from the command line: the ccompiler plugin against the reference, exports that
/// keep compiled regions, and every kind of broken plugin reported as one line with exit status 1.
class TestPlugins : public QObject {
  Q_OBJECT

  QTemporaryDir dir_;

  QString path(const QString& name) const { return dir_.filePath(name); }

  /// Runs `byoc run args… --output OUT` and `byoc run MODEL --output REF` (no targets: reference
  /// kernels only) and checks every element within 1e-4 + 1e-4 * |reference|.
  void checkAgainstReference(const QStringList& model, const QStringList& targetArgs, const QString& name) {
    const QString out = path(name + QStringLiteral(".npy")), ref = path(name + QStringLiteral("_ref.npy"));
    auto run = runCli(QStringList{QStringLiteral("run")} + model + targetArgs + QStringList{QStringLiteral("--output"), out});
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    auto reference = runCli(QStringList{QStringLiteral("run")} + model + QStringList{QStringLiteral("--output"), ref});
    QVERIFY2(reference.exitCode == 0, qPrintable(reference.err));
    auto actual = byoc::readNpy(out.toStdString());
    auto expected = byoc::readNpy(ref.toStdString());
    QVERIFY(actual && expected);
    const byoc::Difference difference = byoc::compareArrays(*actual, *expected, 1e-4, 1e-4);
    QVERIFY2(difference.within, qPrintable(QStringLiteral("max abs error %1").arg(difference.maxAbsolute)));
  }

  /// `byoc run relu.relay --target toy.json --plugin PLUGIN` fails with one line containing `expected`.
  void checkToyRunFails(const char* plugin, const QString& expected) {
    auto run = runCli({QStringLiteral("run"), data("plugin/relu.relay"), QStringLiteral("--target"), data("plugin/toy.json"),
                       QStringLiteral("--plugin"), QString::fromUtf8(plugin), QStringLiteral("--random-inputs"), QStringLiteral("1")});
    QCOMPARE(run.exitCode, 1);
    QCOMPARE(lines(run.err).size(), 1);
    QVERIFY2(run.err.contains(expected), qPrintable(run.err));
  }

 private slots:
  void pluginsListsTheInstalledCcompiler() {
    auto run = runCli({QStringLiteral("plugins")});
    QCOMPARE(run.exitCode, 0);
    QVERIFY2(run.out.contains(QStringLiteral("plugin:ccompiler  1.0.0  ")), qPrintable(run.out));
    QVERIFY(run.out.contains(QStringLiteral("libbyoc_ccompiler.so")));
  }

  void pluginsListsAPluginGivenOnTheCommandLine() {
    auto run = runCli({QStringLiteral("plugins"), QStringLiteral("--plugin"), QStringLiteral(BYOC_TOY_GOOD)});
    QCOMPARE(run.exitCode, 0);
    QVERIFY(run.out.contains(QStringLiteral("plugin:toy  1  ") + QStringLiteral(BYOC_TOY_GOOD)));
  }

  void pluginPathFindsPluginsInAFolder() {
    QTemporaryDir folder;
    QVERIFY(QFile::copy(QStringLiteral(BYOC_TOY_GOOD), folder.filePath(QStringLiteral("libtoy.so"))));
    QProcess process;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("BYOC_PLUGIN_PATH"), folder.path());
    process.setProcessEnvironment(environment);
    process.start(QStringLiteral(BYOC_CLI_PATH), {QStringLiteral("plugins")});
    QVERIFY(process.waitForFinished(30000));
    QVERIFY(QString::fromUtf8(process.readAllStandardOutput()).contains(QStringLiteral("plugin:toy  1  ")));
  }

  // The demo's three stacked convolutions take inputs of a tenth of the default random scale: with
  // values in [-1, 1) its outputs reach 1e3, and float32 rounding of any summation order (the
  // reference GEMM's, oneDNN's) then exceeds 1e-4 on outputs that cancel to near zero.
  void demoOnCcompilerMatchesTheReference() {
    QStringList inputs;
    const std::vector<std::pair<const char*, byoc::Shape>> params = {
        {"data", {1, 32, 56, 56}}, {"weight", {32, 32, 3, 3}}, {"bias", {32}}};
    uint64_t seed = 7;
    for (const auto& [name, shape] : params) {
      byoc::NDArray array = byoc::NDArray::empty(byoc::DType::Float32, shape);
      for (int64_t i = 0; i < array.numElements(); ++i) {
        seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
        array.data<float>()[i] = static_cast<float>(static_cast<double>(seed >> 40) / double(1 << 24) - 0.5) * 0.2f;
      }
      const QString file = path(QString::fromUtf8(name) + QStringLiteral(".npy"));
      QVERIFY(byoc::writeNpy(file.toStdString(), array));
      inputs << QStringLiteral("--input") << QString::fromUtf8(name) + QLatin1Char('=') + file;
    }
    checkAgainstReference(QStringList{QStringLiteral("--demo")} + inputs, {QStringLiteral("--target"), QStringLiteral("ccompiler")},
                          QStringLiteral("demo"));
  }

  void onnxConvNetOnCcompilerMatchesTheReference() {
    checkAgainstReference({data("ui/conv_net.onnx"), QStringLiteral("--random-inputs"), QStringLiteral("5")},
                          {QStringLiteral("--target"), QStringLiteral("ccompiler")}, QStringLiteral("conv_net"));
  }

  void compareReferenceReportsTheCcompilerRegions() {
    auto run = runCli({QStringLiteral("run"), QStringLiteral("--demo"), QStringLiteral("--target"), QStringLiteral("ccompiler"),
                       QStringLiteral("--random-inputs"), QStringLiteral("1"), QStringLiteral("--compare-reference")});
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    QVERIFY(run.out.contains(QStringLiteral("codegen=plugin:ccompiler")));
    QVERIFY(run.out.contains(QStringLiteral("  ok\n")));
  }

  void ccompilerExportKeepsTheCAndTheLibraryAndRuns() {
    const QString out = path(QStringLiteral("demo_export"));
    auto exported = runCli({QStringLiteral("export"), QStringLiteral("--demo"), QStringLiteral("--target"), QStringLiteral("ccompiler"),
                            QStringLiteral("-o"), out});
    QVERIFY2(exported.exitCode == 0, qPrintable(exported.err));
    const QString region = out + QStringLiteral("/artifacts/tvmgen_default_ccompiler_main_0/");
    QVERIFY(QFile::exists(region + QStringLiteral("region.c")));
    QVERIFY(QFile::exists(region + QStringLiteral("region.so")));
    checkAgainstReference({out, QStringLiteral("--random-inputs"), QStringLiteral("3")}, {}, QStringLiteral("demo_export"));
    auto verified = runCli({QStringLiteral("verify"), out});
    QVERIFY2(verified.exitCode == 0, qPrintable(verified.err));
  }

  void exportWithAMissingPluginFailsInOneLine() {
    const QString out = path(QStringLiteral("toy_export"));
    auto exported = runCli({QStringLiteral("export"), data("plugin/relu.relay"), QStringLiteral("--target"), data("plugin/toy.json"),
                            QStringLiteral("--plugin"), QStringLiteral(BYOC_TOY_GOOD), QStringLiteral("-o"), out});
    QVERIFY2(exported.exitCode == 0, qPrintable(exported.err));
    for (const QStringList& trust : {QStringList{}, QStringList{QStringLiteral("--trust-compiled")}}) {
      auto ran = runCli(QStringList{QStringLiteral("run"), out, QStringLiteral("--plugin"), QStringLiteral(BYOC_TOY_GOOD),
                                    QStringLiteral("--random-inputs"), QStringLiteral("1")} + trust);
      QVERIFY2(ran.exitCode == 0, qPrintable(ran.err));
    }
    for (const QStringList& trust : {QStringList{}, QStringList{QStringLiteral("--trust-compiled")}}) {
      auto missing = runCli(QStringList{QStringLiteral("run"), out, QStringLiteral("--random-inputs"), QStringLiteral("1")} + trust);
      QCOMPARE(missing.exitCode, 1);
      QCOMPARE(lines(missing.err).size(), 1);
      QVERIFY2(missing.err.contains(QStringLiteral("@tvmgen_default_toy_main_0: the codegen plugin:toy of Compiler=\"toy\" is not loaded")),
               qPrintable(missing.err));
    }
  }

  // Without --trust-compiled the region is compiled again, by whichever version is loaded; the
  // export's files are loaded only by the version that compiled them.
  void exportWithAnotherPluginVersionRunsOnlyRebuilt() {
    const QString out = path(QStringLiteral("toy_export_v1"));
    auto exported = runCli({QStringLiteral("export"), data("plugin/relu.relay"), QStringLiteral("--target"), data("plugin/toy.json"),
                            QStringLiteral("--plugin"), QStringLiteral(BYOC_TOY_GOOD), QStringLiteral("-o"), out});
    QVERIFY2(exported.exitCode == 0, qPrintable(exported.err));
    auto rebuilt = runCli({QStringLiteral("run"), out, QStringLiteral("--plugin"), QStringLiteral(BYOC_TOY_VERSION2),
                           QStringLiteral("--random-inputs"), QStringLiteral("1")});
    QVERIFY2(rebuilt.exitCode == 0, qPrintable(rebuilt.err));
    QVERIFY2(rebuilt.out.contains(QStringLiteral("compiled regions: 1 plugin region(s) compiled again from their IR; the export's "
                                                 "compiled files were not run")), qPrintable(rebuilt.out));
    auto other = runCli({QStringLiteral("run"), out, QStringLiteral("--plugin"), QStringLiteral(BYOC_TOY_VERSION2),
                         QStringLiteral("--random-inputs"), QStringLiteral("1"), QStringLiteral("--trust-compiled")});
    QCOMPARE(other.exitCode, 1);
    QCOMPARE(lines(other.err).size(), 1);
    QVERIFY2(other.err.contains(QStringLiteral("was compiled by plugin:toy 1, the loaded plugin is version 2")), qPrintable(other.err));
  }

  // A tampered export: its compiled region library replaced by one whose constructor leaves a
  // marker file, the checksum rewritten. Checking, describing and running it never load it; only
  // --trust-compiled does, in the plugin's host, and the failure is an error, not a crash.
  void aTamperedExportsLibraryRunsOnlyWhenTrusted() {
    const QString out = path(QStringLiteral("tampered_export"));
    auto exported = runCli({QStringLiteral("export"), data("plugin/relu.relay"), QStringLiteral("--target"), QStringLiteral("ccompiler"),
                            QStringLiteral("-o"), out});
    QVERIFY2(exported.exitCode == 0, qPrintable(exported.err));
    QFile library(QStringLiteral(BYOC_MARKER_LIBRARY));
    QVERIFY(library.open(QIODevice::ReadOnly));
    ExportEditor editor(out);
    QVERIFY(editor.putFile(QStringLiteral("artifacts/tvmgen_default_ccompiler_main_0/region.so"), library.readAll()));
    QVERIFY(editor.save());
    const QString marker = path(QStringLiteral("marker"));
    const QProcessEnvironment environment = shortLimits({{QStringLiteral("BYOC_TEST_MARKER"), marker}});

    auto verified = runCli({QStringLiteral("verify"), out}, environment);
    QVERIFY2(verified.exitCode == 0, qPrintable(verified.err));
    QVERIFY2(verified.out.contains(QStringLiteral("compiled by plugin:ccompiler 1.0.0 checked, not loaded")), qPrintable(verified.out));
    auto described = runCli({QStringLiteral("info"), out}, environment);
    QVERIFY2(described.exitCode == 0, qPrintable(described.err));
    // Compiling with the C compiler may take longer than the short limit.
    const QProcessEnvironment compiling =
        shortLimits({{QStringLiteral("BYOC_TEST_MARKER"), marker}, {QStringLiteral("BYOC_PLUGIN_COMPILE_SECONDS"), QStringLiteral("60")}});
    auto ran = runCli({QStringLiteral("run"), out, QStringLiteral("--random-inputs"), QStringLiteral("1")}, compiling);
    QVERIFY2(ran.exitCode == 0, qPrintable(ran.err));
    QVERIFY2(ran.out.contains(QStringLiteral("compiled again from their IR")), qPrintable(ran.out));
    QVERIFY2(!QFile::exists(marker), "the export's library was loaded without --trust-compiled");

    auto trusted = runCli({QStringLiteral("run"), out, QStringLiteral("--random-inputs"), QStringLiteral("1"), QStringLiteral("--trust-compiled")},
                          environment);
    QCOMPARE(trusted.exitCode, 1);
    QCOMPARE(lines(trusted.err).size(), 1);
    QVERIFY2(trusted.err.contains(QStringLiteral("@tvmgen_default_ccompiler_main_0 (plugin:ccompiler)")), qPrintable(trusted.err));
    QVERIFY(QFile::exists(marker));
  }

  void verifyRefusesACompiledFileTheRulesForbid() {
    const QString out = path(QStringLiteral("hidden_export"));
    auto exported = runCli({QStringLiteral("export"), data("plugin/relu.relay"), QStringLiteral("--target"), data("plugin/toy.json"),
                            QStringLiteral("--plugin"), QStringLiteral(BYOC_TOY_GOOD), QStringLiteral("-o"), out});
    QVERIFY2(exported.exitCode == 0, qPrintable(exported.err));
    ExportEditor editor(out);
    const QString hidden = QStringLiteral("artifacts/tvmgen_default_toy_main_0/.hidden");
    QVERIFY(editor.putFile(hidden, "hidden"));
    editor.addCompiled(hidden);
    QVERIFY(editor.save());
    auto verified = runCli({QStringLiteral("verify"), out});
    QCOMPARE(verified.exitCode, 1);
    QCOMPARE(lines(verified.err).size(), 1);
    QVERIFY2(verified.err.contains(QStringLiteral("manifest.json: /external_functions/0/compiled/1: an artifact file name may not start "
                                                  "with '.', found \".hidden\"")),
             qPrintable(verified.err));
  }

  void aMisbehavingPluginIsAnErrorOfOneLine_data() {
    QTest::addColumn<QString>("place");
    QTest::addColumn<QString>("way");
    QTest::addColumn<QString>("expected");
    const std::pair<const char*, const char*> places[] = {
        {"constructor", "the codegen plugin %1 starting"},
        {"entry", "the codegen plugin %1 starting"},
        {"compile", "plugin:toy %1 compiling the region"},
        {"load", "plugin:toy %1 loading @tvmgen_default_toy_main_0"},
        {"run", "plugin:toy %1 running @tvmgen_default_toy_main_0"},
        {"unload", "plugin:toy %1 unloading @tvmgen_default_toy_main_0"},
    };
    for (const auto& [place, expected] : places) {
      const QString text = QString::fromUtf8(expected);
      QTest::addRow("%s segv", place) << QString::fromUtf8(place) << QStringLiteral("segv")
                                      << text.arg(QStringLiteral("crashed while")) + QStringLiteral(" (signal 11, ");
      QTest::addRow("%s abort", place) << QString::fromUtf8(place) << QStringLiteral("abort")
                                       << text.arg(QStringLiteral("crashed while")) + QStringLiteral(" (signal 6, ");
      QTest::addRow("%s hang", place) << QString::fromUtf8(place) << QStringLiteral("hang")
                                      << text.arg(QStringLiteral("did not finish")) + QStringLiteral(" within 0.5 s");
      QTest::addRow("%s exit", place) << QString::fromUtf8(place) << QStringLiteral("exit")
                                      << text.arg(QStringLiteral("exited with status 0 while"));
    }
  }

  void aMisbehavingPluginIsAnErrorOfOneLine() {
    QFETCH(QString, place);
    QFETCH(QString, way);
    QFETCH(QString, expected);
    auto run = runCli({QStringLiteral("run"), data("plugin/relu.relay"), QStringLiteral("--target"), data("plugin/toy.json"),
                       QStringLiteral("--plugin"), misbehaving(place, way), QStringLiteral("--random-inputs"), QStringLiteral("1")},
                      shortLimits());
    QCOMPARE(run.exitCode, 1);
    QCOMPARE(lines(run.err).size(), 1);
    QVERIFY2(run.err.contains(expected), qPrintable(run.err));  // a hang ends at the limit: the error says so
    // Of what the plugin printed, only the last line is shown, in the error.
    QVERIFY2(run.err.contains(QStringLiteral("; the last line it printed: toy: misbehaving in place ")), qPrintable(run.err));
  }

  // What a plugin prints while it works is passed on to stderr once its call is over.
  void whatAPluginPrintsReachesStderr() {
    auto run = runCli({QStringLiteral("run"), data("plugin/relu.relay"), QStringLiteral("--target"), data("plugin/toy.json"),
                       QStringLiteral("--plugin"), QStringLiteral(BYOC_TOY_CHATTY), QStringLiteral("--random-inputs"), QStringLiteral("1")});
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    QVERIFY2(run.err.contains(QStringLiteral("toy: compiling on stdout\ntoy: compiling on stderr\n")), qPrintable(run.err));
    QVERIFY(!run.out.contains(QStringLiteral("toy: compiling")));
  }

  // Plugins on the plugin path are only looked through until a target names their codegen.
  void commandsThatNeedNoPluginIgnoreMisbehavingOnes() {
    const QProcessEnvironment environment = shortLimits({{QStringLiteral("BYOC_PLUGIN_PATH"), QStringLiteral(BYOC_TOY_MISBEHAVING_DIR)}});
    auto info = runCli({QStringLiteral("info"), data("plugin/relu.relay")}, environment);
    QCOMPARE(info.exitCode, 0);
    QVERIFY2(info.err.isEmpty(), qPrintable(info.err));
    QVERIFY(!info.out.isEmpty());
    auto run = runCli({QStringLiteral("run"), data("plugin/relu.relay"), QStringLiteral("--target"), data("plugin/toy.json"),
                       QStringLiteral("--plugin"), QStringLiteral(BYOC_TOY_GOOD), QStringLiteral("--random-inputs"), QStringLiteral("1")},
                      environment);
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    QVERIFY2(run.err.isEmpty(), qPrintable(run.err));
  }

  void pluginsListsWhatAPluginThatHangsDid() {
    auto run = runCli({QStringLiteral("plugins"), QStringLiteral("--plugin"), QStringLiteral(BYOC_TOY_GOOD)},
                      shortLimits({{QStringLiteral("BYOC_PLUGIN_PATH"), misbehaving(QStringLiteral("constructor"), QStringLiteral("hang"))}}));
    QCOMPARE(run.exitCode, 0);
    QVERIFY(run.out.contains(QStringLiteral("plugin:toy  1  ")));
    QVERIFY2(run.out.contains(QStringLiteral("not loaded: ") + misbehaving(QStringLiteral("constructor"), QStringLiteral("hang")) +
                              QStringLiteral(": the codegen plugin did not finish starting within 0.5 s (the limit "
                                             "$BYOC_PLUGIN_CALL_SECONDS sets); it was stopped")),
             qPrintable(run.out));
  }

  void aTimeLimitThatIsNotANumberIsRefused() {
    auto run = runCli({QStringLiteral("plugins"), QStringLiteral("--plugin"), QStringLiteral(BYOC_TOY_GOOD)},
                      shortLimits({{QStringLiteral("BYOC_PLUGIN_CALL_SECONDS"), QStringLiteral("soon")}}));
    QCOMPARE(run.exitCode, 1);
    QVERIFY2(run.err.contains(QStringLiteral("$BYOC_PLUGIN_CALL_SECONDS: expected a number of seconds above 0 (at most 1e6), found \"soon\"")),
             qPrintable(run.err));
  }

  void aPluginWithoutEntryPointIsRefused() {
    auto run = runCli({QStringLiteral("plugins"), QStringLiteral("--plugin"), QStringLiteral(BYOC_TOY_NO_ENTRY)});
    QCOMPARE(run.exitCode, 1);
    QCOMPARE(lines(run.err).size(), 1);
    QVERIFY2(run.err.contains(QStringLiteral("not a codegen plugin: it exports no byoc_get_codegen_plugin function")), qPrintable(run.err));
  }

  void aPluginOfAnotherInterfaceVersionIsRefused() {
    auto run = runCli({QStringLiteral("plugins"), QStringLiteral("--plugin"), QStringLiteral(BYOC_TOY_BAD_VERSION)});
    QCOMPARE(run.exitCode, 1);
    QCOMPARE(lines(run.err).size(), 1);
    QVERIFY2(run.err.contains(QStringLiteral("implements interface version 99; this program supports version 2")), qPrintable(run.err));
  }

  // A plugin built for version 1 expects the dnnl codegen's graph: it is refused, and told how to move on.
  void aPluginOfInterfaceVersion1IsRefusedWithTheWayToVersion2() {
    auto run = runCli({QStringLiteral("plugins"), QStringLiteral("--plugin"), QStringLiteral(BYOC_TOY_INTERFACE1)});
    QCOMPARE(run.exitCode, 1);
    QCOMPARE(lines(run.err).size(), 1);
    QVERIFY2(run.err.contains(QStringLiteral("implements interface version 1, whose regions are the dnnl codegen's graph "
                                             "(\"byoc-dnnl-kernel-graph\"); this program supports version 2, whose regions are the "
                                             "neutral kernel graph (\"byoc-kernel-graph\")")),
             qPrintable(run.err));
    QVERIFY2(run.err.contains(QStringLiteral("docs/plugins.md, \"Moving from version 1\"")), qPrintable(run.err));
  }

  void aPluginThatDescribesAnotherOutputShapeIsReported() {
    checkToyRunFails(BYOC_TOY_BAD_SHAPE, QStringLiteral("output 0 of the loaded artifact is float32 [1, 4], the region returns float32 [1, 8]"));
  }

  void anErrorFromRunIsReported() { checkToyRunFails(BYOC_TOY_BAD_RUN, QStringLiteral("toy: the device is on fire")); }

  void aMissingPluginFileIsAUsageOfOneLine() {
    auto run = runCli({QStringLiteral("plugins"), QStringLiteral("--plugin"), path(QStringLiteral("nothing.so"))});
    QCOMPARE(run.exitCode, 1);
    QVERIFY(run.err.contains(QStringLiteral("no such plugin file")));
  }
};

QTEST_GUILESS_MAIN(TestPlugins)
#include "test_plugins.moc"
