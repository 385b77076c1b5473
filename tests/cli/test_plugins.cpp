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
    auto ran = runCli({QStringLiteral("run"), out, QStringLiteral("--plugin"), QStringLiteral(BYOC_TOY_GOOD), QStringLiteral("--random-inputs"),
                       QStringLiteral("1")});
    QVERIFY2(ran.exitCode == 0, qPrintable(ran.err));
    auto missing = runCli({QStringLiteral("run"), out, QStringLiteral("--random-inputs"), QStringLiteral("1")});
    QCOMPARE(missing.exitCode, 1);
    QCOMPARE(lines(missing.err).size(), 1);
    QVERIFY2(missing.err.contains(QStringLiteral("was compiled by plugin:toy 1, which is not loaded")), qPrintable(missing.err));
  }

  void exportWithAnotherPluginVersionFailsInOneLine() {
    const QString out = path(QStringLiteral("toy_export_v1"));
    auto exported = runCli({QStringLiteral("export"), data("plugin/relu.relay"), QStringLiteral("--target"), data("plugin/toy.json"),
                            QStringLiteral("--plugin"), QStringLiteral(BYOC_TOY_GOOD), QStringLiteral("-o"), out});
    QVERIFY2(exported.exitCode == 0, qPrintable(exported.err));
    auto other = runCli({QStringLiteral("run"), out, QStringLiteral("--plugin"), QStringLiteral(BYOC_TOY_VERSION2)});
    QCOMPARE(other.exitCode, 1);
    QCOMPARE(lines(other.err).size(), 1);
    QVERIFY2(other.err.contains(QStringLiteral("was compiled by plugin:toy 1, the loaded plugin is version 2")), qPrintable(other.err));
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
    QVERIFY2(run.err.contains(QStringLiteral("implements interface version 99; this program supports version 1")), qPrintable(run.err));
  }

  void aPluginThatCrashesWhileCompilingIsReported() {
    checkToyRunFails(BYOC_TOY_CRASH, QStringLiteral("plugin:toy crashed while compiling the region (signal 11"));
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
