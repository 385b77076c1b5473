#include <QTemporaryDir>
#include <QtTest>

#include <cstring>

#include "export_test_util.h"
#include "test_files.h"

using namespace byoc;
using namespace byoc::testing;

namespace {

const std::string kArtifact = "artifacts/tvmgen_default_dnnl_main_0.json";

/// The executor of `module` with its dnnl regions on the dnnl codegen.
std::unique_ptr<Executor> dnnlExecutor(const Module& module) {
  Result<std::unique_ptr<Executor>> executor = Executor::create(module);
  if (!executor) qFatal("%s", executor.error().str().c_str());
  return std::move(executor).value();
}

}  // namespace

/// The dnnl artifact of an export: the kernel graph, its golden, its round trip, and a precise
/// error for every way a file can get it wrong.
class TestKernelGraphArtifact : public QObject {
  Q_OBJECT

 private:
  /// The small region of kernel_graph_region.relay, partitioned for dnnl.
  static Module region() { return partitioned(readTestData("export/kernel_graph_region.relay"), "dnnl"); }

  /// Exports `module` to `dir`/out with its dnnl regions on `codegen`; returns that path.
  static std::string exportTo(const QTemporaryDir& dir, const Module& module, const std::string& codegen = "dnnl") {
    const std::string out = dir.path().toStdString() + "/out";
    Status written = exportModule(module, optionsFor("dnnl", codegen), out);
    if (!written) qFatal("%s", written.error().str().c_str());
    return out;
  }

 private slots:
  void writesTheKernelGraph() {
    QTemporaryDir dir;
    const std::string out = exportTo(dir, region());
    QCOMPARE(contentOf(out + "/" + kArtifact), readTestData("export/kernel_graph_region.json"));
  }

  void roundTripsBitForBit() {
    const Module module = region();
    std::unique_ptr<Executor> before = dnnlExecutor(module);
    QTemporaryDir dir;
    Result<LoadedExport> loaded = loadExport(exportTo(dir, module));
    QVERIFY2(loaded, loaded ? "" : loaded.error().str().c_str());
    QCOMPARE(loaded->kernelGraphs.size(), std::size_t(1));
    // Each kernel keeps the model's nodes it was built from: a composite those it fuses.
    const kernel_graph::KernelGraph& graph = *loaded->kernelGraphs.begin()->second;
    QCOMPARE(graph.nodes[3].name, std::string("dnnl.conv2d_bias_relu"));
    QCOMPARE(graph.nodes[3].origin.ids().size(), std::size_t(3));
    QCOMPARE(graph.nodes[4].origin.ids().size(), std::size_t(1));
    QVERIFY(graph.nodes[0].origin.empty());  // an input
    Result<std::unique_ptr<Executor>> after = createExportExecutor(*loaded);
    QVERIFY2(after, after ? "" : after.error().str().c_str());
    QCOMPARE((*after)->regions().at(0).codegen, std::string("dnnl"));
    QVERIFY(bitIdentical(runOnRandomInputs(*before, 5), runOnRandomInputs(**after, 5)));
  }

  /// An export written before the graph was neutral keeps loading: its artifact names the format
  /// "byoc-dnnl-kernel-graph", version 1, and runs as the same graph does today.
  void readsAVersion1Artifact() {
    const Module module = region();
    std::unique_ptr<Executor> before = dnnlExecutor(module);
    QTemporaryDir dir;
    const std::string out = exportTo(dir, module);
    const std::string version1 = readTestData("export/kernel_graph_region_v1.json");
    QVERIFY(version1.find(R"("format": "byoc-dnnl-kernel-graph")") != std::string::npos);
    rewrite(out, kArtifact, version1);
    Result<LoadedExport> loaded = loadExport(out);
    QVERIFY2(loaded, loaded ? "" : loaded.error().str().c_str());
    QCOMPARE(loaded->kernelGraphs.size(), std::size_t(1));
    const kernel_graph::KernelGraph& graph = *loaded->kernelGraphs.begin()->second;
    QCOMPARE(graph.summary(), std::string("1 input(s), 2 constant(s), 2 kernel(s): dnnl.conv2d_bias_relu, nn.max_pool2d"));
    Result<std::unique_ptr<Executor>> after = createExportExecutor(*loaded);
    QVERIFY2(after, after ? "" : after.error().str().c_str());
    QVERIFY(bitIdentical(runOnRandomInputs(*before, 5), runOnRandomInputs(**after, 5)));
  }

  void rejectsACorruptGraph_data() {
    QTest::addColumn<QString>("from");
    QTest::addColumn<QString>("to");
    QTest::addColumn<QString>("error");
    const QString conv = R"("inputs":[[0,0],[1,0],[2,0]])";
    const QString bias = R"({"dtype":"float32","op":"const","param":"const_1","shape":[2,1,1]})";
    QTest::newRow("unknown kernel") << R"("name":"nn.max_pool2d")" << R"("name":"nn.max_pool3d_fast")"
                                    << R"(/nodes/4/name: unknown kernel "nn.max_pool3d_fast")";
    QTest::newRow("op without lowering") << R"("name":"nn.max_pool2d")" << R"("name":"split")"
                                         << "/nodes/4/name: unsupported op split";
    QTest::newRow("later node") << conv << R"("inputs":[[0,0],[1,0],[4,0]])"
                                << "/nodes/3/inputs/2: refers to node 4, which comes later";
    QTest::newRow("missing node") << conv << R"("inputs":[[0,0],[1,0],[9,0]])"
                                  << "/nodes/3/inputs/2: refers to node 9, which does not exist";
    QTest::newRow("missing output") << R"("inputs":[[3,0]])" << R"("inputs":[[3,1]])"
                                    << "/nodes/4/inputs/0: refers to output 1 of node 3, which has 1";
    QTest::newRow("missing head") << R"("heads": [[3,0],[4,0]])" << R"("heads": [[3,0],[5,0]])"
                                  << "/heads/1: refers to node 5, which does not exist";
    QTest::newRow("input count") << conv << R"("inputs":[[0,0],[1,0]])"
                                 << R"(/nodes/3: composite "dnnl.conv2d_bias_relu" takes 3 input(s) (data, weight, bias), found 2)";
    QTest::newRow("input type") << conv << R"("inputs":[[0,0],[0,0],[2,0]])"
                                << "/nodes/3: nn.conv2d: channels=2 but the weight has 1 output channels";
    QTest::newRow("output type") << R"("outputs":[{"dtype":"float32","shape":[1,2,2,2]}])"
                                 << R"("outputs":[{"dtype":"float32","shape":[1,2,3,3]}])"
                                 << "/nodes/4: nn.max_pool2d: the inputs give (float32 [1, 2, 2, 2]), the kernel declares "
                                    "(float32 [1, 2, 3, 3])";
    QTest::newRow("missing constant") << R"("param":"const_1")" << R"("param":"const_7")"
                                      << "/nodes/2/param: references constant 'const_7', which @@OUT@@/params.safetensors does "
                                         "not hold";
    QTest::newRow("constant shape") << bias << R"({"dtype":"float32","op":"const","param":"const_1","shape":[2,1,2]})"
                                    << "/nodes/2: constant 'const_1' is F32 [2, 1, 1] in @@OUT@@/params.safetensors, the node "
                                       "declares float32 [2, 1, 2]";
    QTest::newRow("constant the kernel does not take")
        << bias << R"({"dtype":"float32","op":"const","param":"const_0","shape":[2,2,1,1]})"
        << R"(/nodes/3: composite "dnnl.conv2d_bias_relu": the bias has 4 elements, expected one per output channel (2))";
    QTest::newRow("bad attribute") << R"("pool_size":[2,2])" << R"("pool_size":[2,2],"pool_kind":"max")"
                                   << "/nodes/4/attrs: nn.max_pool2d has no attribute 'pool_kind'; expected one of: pool_size, strides, dilation, "
                                      "padding, layout, out_layout, ceil_mode";
    QTest::newRow("negative origin") << R"("origin":[6])" << R"("origin":[6,-1])"
                                     << "/nodes/4/origin/1: expected a node id (a non-negative integer), found -1";
    QTest::newRow("origin not a list") << R"("origin":[6])" << R"("origin":"pool")"
                                       << "/nodes/4/origin: expected an array";
    QTest::newRow("newer version") << R"("version": 2)" << R"("version": 3)"
                                   << "/version: kernel graph version 3 is newer than this program reads (2)";
    QTest::newRow("version 1 name on version 2") << R"("format": "byoc-kernel-graph")" << R"("format": "byoc-dnnl-kernel-graph")"
                                                 << R"(/format: "byoc-dnnl-kernel-graph" names version 1 of the kernel graph, the file says )"
                                                    R"(version 2; later versions are "byoc-kernel-graph")";
  }
  void rejectsACorruptGraph() {
    QFETCH(QString, from);
    QFETCH(QString, to);
    QFETCH(QString, error);
    QTemporaryDir dir;
    const std::string out = exportTo(dir, region());
    std::string text = contentOf(out + "/" + kArtifact);
    const std::size_t at = text.find(from.toStdString());
    QVERIFY2(at != std::string::npos, qPrintable(from));
    text.replace(at, static_cast<std::size_t>(from.toUtf8().size()), to.toStdString());
    rewrite(out, kArtifact, text);
    Result<LoadedExport> loaded = loadExport(out);
    QVERIFY(!loaded);
    QCOMPARE(QString::fromStdString(loaded.error().str()),
             QString::fromStdString(out + "/" + kArtifact + ": ") + QString(error).replace("@@OUT@@", QString::fromStdString(out)));
  }

  /// An int8 convolution whose requantize adds a zero point rounds before adding it: the kernel
  /// graph says so with a boolean, and refuses anything else there.
  void rejectsANonBooleanRoundingFlag() {
    const Module module = partitioned(
        "def @main(%x: Tensor[(1, 1, 4, 4), uint8]) {\n"
        "  %0 = qnn.conv2d(%x, meta[relay.Constant][0], 0, 0, 0.05f, 1f, channels=1, kernel_size=[1, 1], "
        "out_dtype=\"int32\");\n"
        "  qnn.requantize(%0, 0.05f, 0, 0.1f, 132, out_dtype=\"uint8\")\n}\n"
        "#[metadata]\n{\"relay.Constant\": [{\"dtype\": \"int8\", \"shape\": [1, 1, 1, 1], \"data\": \"WQ==\"}]}\n",
        "dnnl");
    QTemporaryDir dir;
    const std::string out = exportTo(dir, module);
    std::string text = contentOf(out + "/" + kArtifact);
    const std::string flag = R"("round_clipped":true)";
    const std::size_t at = text.find(flag);
    QVERIFY2(at != std::string::npos, text.c_str());
    QVERIFY(loadExport(out));
    text.replace(at, flag.size(), R"("round_clipped":1)");
    rewrite(out, kArtifact, text);
    Result<LoadedExport> loaded = loadExport(out);
    QVERIFY(!loaded);
    QCOMPARE(QString::fromStdString(loaded.error().str()),
             QString::fromStdString(out + "/" + kArtifact +
                                    R"(: /nodes/4: composite "dnnl.qnn.conv2d": the attribute round_clipped must be a )"
                                    "boolean, found 1"));
  }

  void readsAFormatVersion1Export() {
    // A version 1 export stored dnnl functions as IR: an export on the reference codegen, relabelled.
    const Module module = region();
    std::unique_ptr<Executor> before = dnnlExecutor(module);
    QTemporaryDir dir;
    const std::string out = exportTo(dir, module, "reference");
    Result<Manifest> manifest = readExportManifest(out);
    QVERIFY(manifest);
    manifest->formatVersion = 1;
    manifest->targets.at(0).codegen = "dnnl";
    manifest->functions.at(0).codegen = "dnnl";
    QVERIFY(writeFileAtomic(out + "/manifest.json", writeManifest(*manifest)).isOk());
    Result<LoadedExport> loaded = loadExport(out);
    QVERIFY2(loaded, loaded ? "" : loaded.error().str().c_str());
    QVERIFY(loaded->kernelGraphs.empty());
    Result<std::unique_ptr<Executor>> after = createExportExecutor(*loaded);
    QVERIFY2(after, after ? "" : after.error().str().c_str());
    QCOMPARE((*after)->regions().at(0).codegen, std::string("dnnl"));
    QVERIFY(bitIdentical(runOnRandomInputs(*before, 9), runOnRandomInputs(**after, 9)));
  }

  void anExportLoadedBackExportsAsItWas() {
    QTemporaryDir dir;
    const std::string out = exportTo(dir, region());
    Result<LoadedExport> loaded = loadExport(out);
    QVERIFY(loaded);
    ExportOptions options = optionsFor("dnnl", "dnnl");
    options.kernelGraphs = loaded->kernelGraphs;
    const std::string again = dir.path().toStdString() + "/again";
    Status written = exportModule(loaded->module, options, again);
    QVERIFY2(written, written ? "" : written.error().str().c_str());
    QCOMPARE(contentOf(again + "/" + kArtifact), contentOf(out + "/" + kArtifact));
    QCOMPARE(contentOf(again + "/params.safetensors"), contentOf(out + "/params.safetensors"));

    // Without its kernel graph the declared function has nothing to export.
    Status declarationOnly = exportModule(loaded->module, optionsFor("dnnl", "dnnl"), dir.path().toStdString() + "/bare");
    QVERIFY(!declarationOnly);
    QCOMPARE(QString::fromStdString(declarationOnly.error().message), QString("free variable %kernel_graph in a region"));
  }

  void rejectsAKernelGraphForAnotherCodegen() {
    QTemporaryDir dir;
    const std::string out = exportTo(dir, region());
    Result<Manifest> manifest = readExportManifest(out);
    QVERIFY(manifest);
    manifest->functions.at(0).codegen = "reference";
    QVERIFY(writeFileAtomic(out + "/manifest.json", writeManifest(*manifest)).isOk());
    Result<LoadedExport> loaded = loadExport(out);
    QVERIFY(!loaded);
    QCOMPARE(QString::fromStdString(loaded.error().str()),
             QString::fromStdString(out + "/" + kArtifact +
                                    ": a kernel graph, which only the dnnl codegen runs, for codegen \"reference\""));
  }
};

QTEST_GUILESS_MAIN(TestKernelGraphArtifact)
#include "test_kernel_graph_artifact.moc"
