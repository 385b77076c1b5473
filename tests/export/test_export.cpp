#include <QDir>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include <filesystem>

#include "builtin_resources.h"
#include "export_test_util.h"
#include "export/export_reader.h"
#include "export/export_writer.h"
#include "export/module_params.h"
#include "export/sha256.h"
#include "support/file_io.h"
#include "test_files.h"

using namespace byoc;
using namespace byoc::testing;

namespace {

std::string fileIn(const QTemporaryDir& dir, const std::string& relative) { return dir.path().toStdString() + "/" + relative; }

struct Outcome {
  int exitCode;
  QString out;
  QString err;
};

Outcome runCli(const QStringList& args) {
  QProcess process;
  process.start(QStringLiteral(BYOC_CLI_PATH), args);
  process.waitForFinished(120000);
  return {process.exitCode(), QString::fromUtf8(process.readAllStandardOutput()), QString::fromUtf8(process.readAllStandardError())};
}

}  // namespace

/// Export directories: round trips bit for bit, precise errors for every corruption, atomic writes.
class TestExport : public QObject {
  Q_OBJECT

 private:
  /// Exports constants.relay partitioned for dnnl into `dir`/out and returns that path.
  std::string exportConstants(const QTemporaryDir& dir) {
    const std::string out = fileIn(dir, "out");
    Status written = exportModule(partitioned(readTestData("export/constants.relay"), "dnnl"), optionsFor("dnnl", "dnnl"), out);
    if (!written) qFatal("%s", written.error().str().c_str());
    return out;
  }

  void expectLoadError(const std::string& dir, const std::string& expected) {
    Result<LoadedExport> loaded = loadExport(dir);
    QVERIFY(!loaded.isOk());
    QCOMPARE(QString::fromStdString(loaded.error().str()), QString::fromStdString(expected));
  }

 private slots:
  void roundTripsBitForBit_data() {
    QTest::addColumn<QString>("model");
    QTest::addColumn<QString>("target");
    QTest::addColumn<int>("regions");
    QTest::newRow("seed 000 demo, byoc-target") << "demo" << "byoc-target" << 3;
    QTest::newRow("conv net, dnnl") << "partition/dnnl_convnet.relay" << "dnnl" << 1;
    QTest::newRow("constants, dnnl") << "export/constants.relay" << "dnnl" << 1;
  }
  void roundTripsBitForBit() {
    QFETCH(QString, model);
    QFETCH(QString, target);
    QFETCH(int, regions);
    const std::string text = model == "demo" ? std::string(*findBuiltinResource(kDemoModelName)) : readTestData(model);
    const std::string targetName = target.toStdString();
    Module module = partitioned(text, targetName);
    const std::string codegen = targetName == "dnnl" ? "dnnl" : "reference";
    ExecutorOptions executorOptions;
    executorOptions.codegens[targetName] = codegen;
    Result<std::unique_ptr<Executor>> before = Executor::create(module, executorOptions);
    QVERIFY2(before.isOk(), before.isOk() ? "" : before.error().str().c_str());

    QTemporaryDir dir;
    const std::string out = fileIn(dir, "out");
    Status written = exportModule(module, optionsFor(targetName, codegen), out);
    QVERIFY2(written.isOk(), written.isOk() ? "" : written.error().str().c_str());
    Result<LoadedExport> loaded = loadExport(out);
    QVERIFY2(loaded.isOk(), loaded.isOk() ? "" : loaded.error().str().c_str());
    QCOMPARE(static_cast<int>(loaded->manifest.functions.size()), regions);
    for (const ManifestFunction& function : loaded->manifest.functions) QCOMPARE(function.codegen, codegen);
    Result<std::unique_ptr<Executor>> after = createExportExecutor(*loaded);
    QVERIFY2(after.isOk(), after.isOk() ? "" : after.error().str().c_str());
    QCOMPARE(static_cast<int>((*after)->regions().size()), regions);
    QVERIFY(bitIdentical(runOnRandomInputs(**before, 11), runOnRandomInputs(**after, 11)));
  }

  void constantReferencesAreChecked_data() {
    QTest::addColumn<QString>("module");
    QTest::addColumn<QString>("error");
    QTest::newRow("different shape") << "{\"constants\": [{\"dtype\": \"float32\", \"shape\": [2], \"param\": \"c\"}]}"
                                     << "m.json: /constants/0: constant 'c' is F32 [3] in p.safetensors, which differs from its dtype and shape here";
    QTest::newRow("different dtype") << "{\"constants\": [{\"dtype\": \"int32\", \"shape\": [3], \"param\": \"c\"}]}"
                                     << "m.json: /constants/0: constant 'c' is F32 [3] in p.safetensors, which differs from its dtype and shape here";
    QTest::newRow("missing key") << "{\"constants\": [{\"dtype\": \"float32\", \"shape\": [3], \"param\": \"d\"}]}"
                                 << "m.json: /constants/0: references constant 'd', which p.safetensors does not hold";
    QTest::newRow("inline data") << "{\"constants\": [{\"dtype\": \"float32\", \"shape\": [3], \"data\": \"\"}]}"
                                 << "m.json: /constants/0: expected a \"param\" naming a tensor of p.safetensors";
    QTest::newRow("no constants") << "{}" << "m.json: expected a module in the JSON form with a \"constants\" array";
    QTest::newRow("not JSON") << "{" << "m.json:1:2: not valid JSON";
  }
  void constantReferencesAreChecked() {
    QFETCH(QString, module);
    QFETCH(QString, error);
    const float values[3] = {1, 2, 3};
    const std::string file = writeSafetensors({{"c", "F32", {3}, std::as_bytes(std::span(values))}});
    Result<SafetensorsIndex> params = parseSafetensors(file, "p.safetensors");
    QVERIFY(params.isOk());
    Result<std::string> resolved = internalizeConstants(module.toStdString(), *params, "m.json", "p.safetensors");
    QVERIFY(!resolved.isOk());
    QCOMPARE(QString::fromStdString(resolved.error().str()), error);
  }

  void equalConstantsShareOneParameter() {
    ParamCollector collector;
    const std::string module = "{\"constants\": [{\"dtype\": \"float32\", \"shape\": [], \"data\": \"AACAPw==\"}, "
                               "{\"dtype\": \"float32\", \"shape\": [], \"data\": \"AACAPw==\"}, "
                               "{\"dtype\": \"int32\", \"shape\": [], \"data\": \"AACAPw==\"}]}";
    Result<std::string> external = collector.externalize(module);
    QVERIFY(external.isOk());
    QCOMPARE(collector.size(), std::size_t(2));
    QVERIFY(external->find("\"param\":\"const_0\"") != external->rfind("\"param\":\"const_0\""));
    QVERIFY(external->find("\"param\":\"const_1\"") != std::string::npos);
    QVERIFY(external->find("AACAPw==") == std::string::npos);
  }

  void recordsTheSignatureAndEveryFile() {
    QTemporaryDir dir;
    Result<Manifest> manifest = readExportManifest(exportConstants(dir));
    QVERIFY(manifest.isOk());
    QCOMPARE(manifest->producer, std::string("byoc-studio test"));
    QCOMPARE(manifest->inputs.size(), std::size_t(2));
    QCOMPARE(manifest->inputs[1].name, std::string("w"));
    QCOMPARE(manifest->inputs[1].shape, (std::vector<int64_t>{4, 8}));
    QCOMPARE(manifest->outputs.size(), std::size_t(1));
    QCOMPARE(manifest->outputs[0].shape, (std::vector<int64_t>{2, 4}));
    std::vector<std::string> files;
    for (const auto& [file, digest] : manifest->files) files.push_back(file);
    QCOMPARE(files, (std::vector<std::string>{"artifacts/" + manifest->functions[0].name + ".json", "host.json", "host.relay",
                                              "params.safetensors"}));
  }

  void rejectsAMissingFile() {
    QTemporaryDir dir;
    const std::string out = exportConstants(dir);
    QVERIFY(std::filesystem::remove(out + "/host.relay"));
    expectLoadError(out, out + "/host.relay: missing file, listed in manifest.json");
  }

  void rejectsAMissingManifest() {
    QTemporaryDir dir;
    const std::string out = exportConstants(dir);
    QVERIFY(std::filesystem::remove(out + "/manifest.json"));
    expectLoadError(out, out + "/manifest.json: missing file: an export directory holds a manifest.json");
  }

  void rejectsAChecksumMismatch() {
    QTemporaryDir dir;
    const std::string out = exportConstants(dir);
    const std::string host = contentOf(out + "/host.json");
    QVERIFY(writeFileAtomic(out + "/host.json", host + " ").isOk());
    expectLoadError(out, out + "/host.json: checksum mismatch: manifest.json records SHA-256 " + sha256Hex(host) +
                             ", the file has " + sha256Hex(host + " "));
  }

  void rejectsANewerVersion() {
    QTemporaryDir dir;
    const std::string out = exportConstants(dir);
    std::string manifest = contentOf(out + "/manifest.json");
    const std::string field = "\"format_version\": 2";
    QVERIFY(manifest.find(field) != std::string::npos);
    manifest.replace(manifest.find(field), field.size(), "\"format_version\": 7");
    QVERIFY(writeFileAtomic(out + "/manifest.json", manifest).isOk());
    expectLoadError(out, out + "/manifest.json: /format_version: format version 7 is newer than this program reads (2)");
  }

  void rejectsTruncatedParams() {
    QTemporaryDir dir;
    const std::string out = exportConstants(dir);
    const std::string params = contentOf(out + "/params.safetensors");
    rewrite(out, "params.safetensors", params.substr(0, 20));
    expectLoadError(out, out + "/params.safetensors: truncated: the header is " +
                             std::to_string(static_cast<unsigned char>(params[0]) | static_cast<unsigned char>(params[1]) << 8) +
                             " bytes but only 12 follow the length");
  }

  void rejectsOffsetsPastTheData() {
    QTemporaryDir dir;
    const std::string out = exportConstants(dir);
    const std::string params = contentOf(out + "/params.safetensors");
    rewrite(out, "params.safetensors", params.substr(0, params.size() - 2));
    Result<LoadedExport> loaded = loadExport(out);
    QVERIFY(!loaded.isOk());
    const QString error = QString::fromStdString(loaded.error().str());
    QVERIFY2(error.startsWith(QString::fromStdString(out + "/params.safetensors: tensor 'const_")), qPrintable(error));
    QVERIFY2(error.contains("] run past the data ("), qPrintable(error));
  }

  void rejectsAnArtifactReferencingAMissingConstant() {
    QTemporaryDir dir;
    const std::string out = exportConstants(dir);
    Result<Manifest> manifest = readExportManifest(out);
    QVERIFY(manifest.isOk());
    const std::string artifact = manifest->functions.at(0).artifact;
    std::string text = contentOf(out + "/" + artifact);
    const std::size_t reference = text.find("\"param\":\"const_");
    QVERIFY2(reference != std::string::npos, "the region holds no constant");
    text.insert(reference + std::string("\"param\":\"const_").size(), "99");
    rewrite(out, artifact, text);
    Result<LoadedExport> loaded = loadExport(out);
    QVERIFY(!loaded.isOk());
    const QString error = QString::fromStdString(loaded.error().str());
    QVERIFY2(error.startsWith(QString::fromStdString(out + "/" + artifact + ": /nodes/")), qPrintable(error));
    QVERIFY2(error.contains(QRegularExpression(": references constant 'const_99\\d+', which " + QRegularExpression::escape(QString::fromStdString(out)) +
                                               "/params.safetensors does not hold$")),
             qPrintable(error));
  }

  void aFailedExportLeavesThePreviousOneIntact() {
    QTemporaryDir dir;
    const std::string out = exportConstants(dir);
    const std::string manifestBefore = contentOf(out + "/manifest.json");
    ExportOptions options = optionsFor("dnnl", "dnnl");
    options.producer = "another producer";
    int written = 0;
    options.onFileWritten = [&](const std::string& file) -> Status {
      return ++written == 2 ? Status(makeError("simulated failure after " + file)) : Status::ok();
    };
    Status status = exportModule(partitioned(readTestData("partition/dnnl_convnet.relay"), "dnnl"), options, out);
    QVERIFY(!status.isOk());
    QVERIFY(status.error().message.starts_with("simulated failure after "));
    QCOMPARE(contentOf(out + "/manifest.json"), manifestBefore);
    QVERIFY(loadExport(out).isOk());
    QCOMPARE(QDir(dir.path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot), QStringList{"out"});
  }

  void replacesAnExistingExport() {
    QTemporaryDir dir;
    const std::string out = exportConstants(dir);
    ExportOptions options = optionsFor("dnnl", "dnnl");
    options.producer = "second";
    QVERIFY(exportModule(partitioned(readTestData("partition/dnnl_convnet.relay"), "dnnl"), options, out).isOk());
    Result<Manifest> manifest = readExportManifest(out);
    QVERIFY(manifest.isOk());
    QCOMPARE(manifest->producer, std::string("second"));
    QCOMPARE(QDir(dir.path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot), QStringList{"out"});
  }

  void acceptsATrailingSlash() {
    QTemporaryDir dir;
    const std::string out = fileIn(dir, "out");
    QVERIFY(exportModule(partitioned(readTestData("export/constants.relay"), "dnnl"), optionsFor("dnnl", "dnnl"), out + "/").isOk());
    QVERIFY(loadExport(out).isOk());
    QCOMPARE(QDir(dir.path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot), QStringList{"out"});
  }

  void rejectsANameThatIsNotADirectoryName() {
    Status status = exportModule(partitioned(readTestData("export/constants.relay"), "dnnl"), optionsFor("dnnl", "dnnl"), "..");
    QVERIFY(!status.isOk());
    QCOMPARE(QString::fromStdString(status.error().str()), QString("..: expected the name of a new or export directory"));
  }

  void neverReplacesADirectoryThatIsNotAnExport() {
    QTemporaryDir dir;
    const std::string out = fileIn(dir, "documents");
    QVERIFY(QDir().mkpath(QString::fromStdString(out)));
    QVERIFY(writeFileAtomic(out + "/notes.txt", "keep me").isOk());
    Status status = exportModule(partitioned(readTestData("export/constants.relay"), "dnnl"), optionsFor("dnnl", "dnnl"), out);
    QVERIFY(!status.isOk());
    QCOMPARE(QString::fromStdString(status.error().str()),
             QString::fromStdString(out + ": exists and is not an export directory (no manifest.json); not replacing it"));
    QCOMPARE(contentOf(out + "/notes.txt"), std::string("keep me"));
  }

  void cliRejectsBadRequests_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QString>("error");
    QTest::newRow("no -o") << QStringList{"export", "--demo", "--target", "dnnl"} << 2
                           << "error: missing -o\nRun 'byoc --help' for usage.\n";
    QTest::newRow("verify a model file") << QStringList{"verify", QString::fromStdString(testDataPath("export/constants.relay"))} << 1
                                         << "error: " + QString::fromStdString(testDataPath("export/constants.relay")) +
                                                ": not a directory\n";
  }
  void cliRejectsBadRequests() {
    QFETCH(QStringList, args);
    QFETCH(int, exitCode);
    QFETCH(QString, error);
    Outcome run = runCli(args);
    QCOMPARE(run.exitCode, exitCode);
    QCOMPARE(run.err, error);
  }

  void cliExportsRunsDescribesAndVerifies() {
    QTemporaryDir dir;
    const QString out = dir.path() + "/demo.export";
    Outcome exported = runCli({"export", "--demo", "--target", "byoc-target", "-o", out});
    QCOMPARE(exported.err, QString());
    QCOMPARE(exported.exitCode, 0);
    QVERIFY2(exported.out.startsWith("wrote " + out + ": 3 external function(s), 7 files\n"), qPrintable(exported.out));
    QCOMPARE(QFileInfo(out).permissions() & (QFile::ReadOther | QFile::ExeOther), QFile::ReadOther | QFile::ExeOther);

    Outcome direct = runCli({"run", "--demo", "--target", "byoc-target", "--random-inputs", "3", "--output", dir.path() + "/a.npy"});
    QCOMPARE(direct.exitCode, 0);
    Outcome fromExport = runCli({"run", out, "--random-inputs", "3", "--output", dir.path() + "/b.npy", "--compare-reference"});
    QCOMPARE(fromExport.err, QString());
    QCOMPARE(fromExport.exitCode, 0);
    QVERIFY(fromExport.out.contains("Compiler=byoc-target  codegen=reference\n"));
    QCOMPARE(contentOf((dir.path() + "/b.npy").toStdString()), contentOf((dir.path() + "/a.npy").toStdString()));

    Outcome info = runCli({"info", out});
    QCOMPARE(info.exitCode, 0);
    QVERIFY2(info.out.startsWith("export: format version 2, produced by byoc-studio "), qPrintable(info.out));
    QVERIFY(info.out.contains("  Compiler=byoc-target  codegen=reference  artifacts/"));

    QVERIFY(runCli({"verify", "--help"}).out.contains("  FILE                    an export directory (written by 'byoc export')\n"));
    Outcome verified = runCli({"verify", out});
    QCOMPARE(verified.err, QString());
    QCOMPARE(verified.exitCode, 0);
    QVERIFY(verified.out.startsWith("ok: 6 checksums match, 3 artifact(s) built\n"));

    Outcome targeted = runCli({"run", out, "--target", "dnnl", "--random-inputs", "1"});
    QCOMPARE(targeted.exitCode, 1);
    QCOMPARE(targeted.err, "error: " + out + ": an export is already partitioned; --target does not apply\n");

    QVERIFY(writeFileAtomic((out + "/host.relay").toStdString(), "changed").isOk());
    Outcome corrupt = runCli({"verify", out});
    QCOMPARE(corrupt.exitCode, 1);
    QVERIFY2(corrupt.err.startsWith("error: " + out + "/host.relay: checksum mismatch: manifest.json records SHA-256 "),
             qPrintable(corrupt.err));
  }

  void cliRunsADnnlExportFromItsKernelGraph() {
    QTemporaryDir dir;
    const QString out = dir.path() + "/convnet.export";
    const QString model = QString::fromStdString(testDataPath("partition/dnnl_convnet.relay"));
    QCOMPARE(runCli({"export", model, "--target", "dnnl", "-o", out}).exitCode, 0);

    Outcome info = runCli({"info", out});
    QCOMPARE(info.exitCode, 0);
    QVERIFY2(info.out.contains("  Compiler=dnnl  codegen=dnnl  artifacts/tvmgen_default_dnnl_main_0.json\n"
                               "    kernel graph: 7 input(s), 0 constant(s), 8 kernel(s): expand_dims x2, dnnl.conv2d_bias_relu, "
                               "dnnl.conv2d_bias_sum_relu, dnnl.dense_bias, nn.batch_flatten, nn.global_avg_pool2d, nn.softmax\n"),
             qPrintable(info.out));

    Outcome direct = runCli({"run", model, "--target", "dnnl", "--random-inputs", "4", "--output", dir.path() + "/a.npy"});
    QCOMPARE(direct.exitCode, 0);
    Outcome fromExport = runCli({"run", out, "--random-inputs", "4", "--output", dir.path() + "/b.npy"});
    QCOMPARE(fromExport.err, QString());
    QCOMPARE(fromExport.exitCode, 0);
    QCOMPARE(contentOf((dir.path() + "/b.npy").toStdString()), contentOf((dir.path() + "/a.npy").toStdString()));

    // Kernel graphs hold no IR for the reference kernels: the reference is the model exported.
    Outcome compared = runCli({"run", out, "--random-inputs", "4", "--compare-reference"});
    QVERIFY2(compared.exitCode == 0, qPrintable(compared.err));
    QVERIFY2(compared.out.contains("compare with reference (reference kernels only; the model exported, " + model + "):\n"
                                   "  0  max abs error "),
             qPrintable(compared.out));
    QVERIFY(compared.out.contains("each offloaded call: not checked (the export's kernel graphs hold no IR for the reference kernels)\n"));

    Outcome verified = runCli({"verify", out});
    QCOMPARE(verified.exitCode, 0);
    QVERIFY(verified.out.startsWith("ok: 4 checksums match, 1 artifact(s) built\n"));
  }

  // An export of kernel graphs whose source model is gone cannot be compared: that is an error
  // saying why, not a comparison with nothing.
  void anExportWhoseModelIsGoneIsNotCompared() {
    QTemporaryDir dir;
    const QString model = dir.path() + "/convnet.relay";
    QVERIFY(QFile::copy(QString::fromStdString(testDataPath("partition/dnnl_convnet.relay")), model));
    const QString out = dir.path() + "/convnet.export";
    QCOMPARE(runCli({"export", model, "--target", "dnnl", "-o", out}).exitCode, 0);
    QVERIFY(QFile::remove(model));
    Outcome compared = runCli({"run", out, "--random-inputs", "4", "--compare-reference"});
    QCOMPARE(compared.exitCode, 1);
    QCOMPARE(compared.err, "error: " + out +
                               ": --compare-reference: the export's dnnl regions are kernel graphs, whose reference is the model "
                               "exported: " + model + ": the model it was exported from is not there any more\n");
  }
};

QTEST_GUILESS_MAIN(TestExport)
#include "test_export.moc"
