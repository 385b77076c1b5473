/// \file
/// Export from the app: the partitioned module written as a loadable export directory (on a worker,
/// with a progress dialog), nothing written on a cancel or an error (shown in a message box and the
/// diagnostics), and the graph image entry of the File menu. An export opens again: its regions on
/// the host graph, its kernel graphs drawn, and it runs in the Run dock against the model exported.

#include <QDir>
#include <QMenuBar>
#include <QMessageBox>
#include <QProgressDialog>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QtTest>

#include "window/main_window.h"
#include "window/model_document.h"
#include "builtin_resources.h"
#include "cli_runner.h"
#include "export/export_reader.h"
#include "exports/kernel_graph_view.h"
#include "exports/module_export.h"
#include "graph/graph_model.h"
#include "graph/graph_page.h"
#include "graph/graph_scene.h"
#include "models/diagnostics_model.h"
#include "models/properties.h"
#include "models/region_list_model.h"
#include "panels/ir_text_view.h"
#include "run/run_inputs_model.h"
#include "run/run_panel.h"
#include "run/run_results_model.h"
#include "runtime/reference_check.h"
#include "target/target_library.h"
#include "window_fixture.h"

using namespace byoc;
using namespace byoc::ui;
using namespace byoc::testing;

namespace {

QStringList fileMenuEntries(MainWindow& window) {
  QStringList entries;
  for (QAction* menu : window.menuBar()->actions()) {
    if (menu->text() != QStringLiteral("&File")) continue;
    for (QAction* action : menu->menu()->actions())
      if (!action->isSeparator()) entries << action->text();
  }
  return entries;
}

/// Writes the demo to `directory`/demo.relay (so the export names a model file) and exports it
/// partitioned for dnnl to `directory`/demo.byoc; returns the export directory, empty on failure.
QString exportDemoFile(const QTemporaryDir& directory) {
  const QString model = directory.filePath(QStringLiteral("demo.relay"));
  QFile file(model);
  if (!file.open(QIODevice::WriteOnly)) return {};
  const std::string_view text = *findBuiltinResource(kDemoModelName);
  file.write(text.data(), static_cast<qint64>(text.size()));
  file.close();
  Result<ModelDocument> document = openModelDocument(model);
  if (!document) return {};
  const QString out = directory.filePath(QStringLiteral("demo.byoc"));
  Status status = exportPartitionedModule({document->module, {builtinTarget("dnnl")}, QStringLiteral("relay"), out, {}}, {});
  return status ? out : QString();
}

QStringList regionNames(MainWindow& window) {
  QStringList names;
  for (int row = 0; row < window.regionModel()->rowCount(); ++row) names << window.regionModel()->index(row, 0).data().toString();
  return names;
}

}  // namespace

class TestAppExport : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QSettings().clear();
  }

  void exportWritesALoadableDirectory_data() {
    QTest::addColumn<QString>("target");
    QTest::addColumn<QString>("pipeline");
    QTest::addColumn<int>("regions");
    QTest::newRow("dnnl relay") << QStringLiteral("dnnl") << QStringLiteral("relay") << 2;
    QTest::newRow("byoc-target relay") << QStringLiteral("byoc-target") << QStringLiteral("relay") << 3;
  }

  void exportWritesALoadableDirectory() {
    QFETCH(QString, target);
    QFETCH(QString, pipeline);
    QFETCH(int, regions);
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("demo.byoc"));
    QStringList written;
    Status status = exportPartitionedModule(
        {demoModule(), {builtinTarget(target.toLatin1().constData())}, pipeline, out, QStringLiteral("byoc-studio test")},
        [&](const std::string& file) {
          written << QString::fromStdString(file);
          return Status::ok();
        });
    QVERIFY2(status, status ? "" : status.error().str().c_str());
    QVERIFY(written.contains(QStringLiteral("manifest.json")));
    QVERIFY(written.contains(QStringLiteral("host.json")));

    Result<LoadedExport> loaded = loadExport(out.toStdString());
    QVERIFY2(loaded, loaded ? "" : loaded.error().str().c_str());
    QCOMPARE(loaded->manifest.producer, std::string("byoc-studio test"));
    QCOMPARE(static_cast<int>(loaded->manifest.functions.size()), regions);
    Result<std::unique_ptr<Executor>> executor = createExportExecutor(*loaded);
    QVERIFY2(executor, executor ? "" : executor.error().str().c_str());
    QCOMPARE(static_cast<int>((*executor)->regions().size()), regions);

    // The export runs and agrees with the loaded model on the reference kernels.
    RunInputsModel inputs;
    inputs.setModule(demoModule());
    Result<std::vector<Value>> args = (*executor)->bindInputs(*inputs.tensors());
    QVERIFY(args);
    Result<Value> value = (*executor)->run(*args);
    QVERIFY(value);
    std::vector<NDArray> outputs;
    QVERIFY(value->flattenInto(outputs));
    Result<std::vector<NDArray>> expected = runOnReference(demoModule(), *args);
    QVERIFY(expected);
    QVERIFY(compareWithReference(outputs, *expected).agree());
  }

  void aStoppedExportWritesNothing() {
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("demo.byoc"));
    Status status = exportPartitionedModule({demoModule(), {builtinTarget("dnnl")}, QStringLiteral("relay"), out, {}},
                                            [](const std::string&) -> Status { return makeError("the export was cancelled"); });
    QVERIFY(!status);
    QCOMPARE(QString::fromStdString(status.error().message), QStringLiteral("the export was cancelled"));
    QVERIFY(!QFileInfo::exists(out));
    QCOMPARE(QDir(dir.path()).entryList(QDir::NoDotAndDotDot | QDir::AllEntries), QStringList());
  }

  // A partition already made (the timeline's) is exported as it is: here the unpartitioned demo,
  // which partitioning for dnnl would have cut into regions.
  void aPartitionAlreadyMadeIsNotMadeAgain() {
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("demo.byoc"));
    Status status = exportPartitionedModule(
        {demoModule(), {builtinTarget("dnnl")}, QStringLiteral("relay"), out, {}, demoModule()}, {});
    QVERIFY2(status, status ? "" : status.error().str().c_str());
    Result<LoadedExport> loaded = loadExport(out.toStdString());
    QVERIFY2(loaded, loaded ? "" : loaded.error().str().c_str());
    QVERIFY(loaded->manifest.functions.empty());
  }

  void aBadFlowIsReported() {
    QTemporaryDir dir;
    Status status = exportPartitionedModule(
        {demoModule(), {builtinTarget("dnnl")}, QStringLiteral("tflite"), dir.filePath(QStringLiteral("x")), {}}, {});
    QVERIFY(!status);
    QVERIFY2(QString::fromStdString(status.error().message).contains(QStringLiteral("tflite")), status.error().str().c_str());
    QVERIFY(!QFileInfo::exists(dir.filePath(QStringLiteral("x"))));
  }

  void exportFromTheWindow() {
    MainWindow window;
    window.show();
    QVERIFY(openAndLayOut(window));
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("demo.byoc"));
    ModuleExportJob* job = window.exportPartitionedModule(out);
    QVERIFY(job);
    QVERIFY(job->dialog());
    QVERIFY(job->dialog()->isVisible());
    QSignalSpy finished(job, &ModuleExportJob::finished);
    QVERIFY(finished.wait(20000));
    QCOMPARE(finished.front().front().toBool(), true);
    QVERIFY(isExportDirectory(out.toStdString()));
    Result<LoadedExport> loaded = loadExport(out.toStdString());
    QVERIFY2(loaded, loaded ? "" : loaded.error().str().c_str());
    QCOMPARE(loaded->manifest.producer, ("byoc-studio " + QCoreApplication::applicationVersion()).toStdString());
    QCOMPARE(window.diagnosticsModel()->rowCount(), 0);
  }

  void aFailedExportFromTheWindowIsShown() {
    MainWindow window;
    window.show();
    QVERIFY(openAndLayOut(window));
    QTemporaryDir dir;
    // A directory holding other files is never replaced.
    const QString out = dir.filePath(QStringLiteral("notes"));
    QVERIFY(QDir().mkpath(out));
    QFile keep(out + QStringLiteral("/keep.txt"));
    QVERIFY(keep.open(QIODevice::WriteOnly));
    keep.write("mine");
    keep.close();
    ModuleExportJob* job = window.exportPartitionedModule(out);
    QSignalSpy finished(job, &ModuleExportJob::finished);
    QVERIFY(finished.wait(20000));
    QCOMPARE(finished.front().front().toBool(), false);
    const QString expected = out + QStringLiteral(": exists and is not an export directory (no manifest.json); not replacing it");
    QCOMPARE(QString::fromStdString(finished.front().at(1).value<Diagnostic>().str()), expected);
    QCOMPARE(window.diagnosticsModel()->rowCount(), 1);
    QMessageBox* box = window.findChild<QMessageBox*>();
    QVERIFY(box);
    QVERIFY(box->text().contains(expected));
    QCOMPARE(QDir(out).entryList(QDir::NoDotAndDotDot | QDir::AllEntries), QStringList{QStringLiteral("keep.txt")});
    QCOMPARE(QDir(dir.path()).entryList(QDir::NoDotAndDotDot | QDir::AllEntries), QStringList{QStringLiteral("notes")});
  }

  void cancellingTheDialogWritesNothing() {
    MainWindow window;
    window.show();
    QVERIFY(openAndLayOut(window));
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("demo.byoc"));
    ModuleExportJob* job = window.exportPartitionedModule(out);
    QSignalSpy finished(job, &ModuleExportJob::finished);
    auto* cancel = job->dialog()->findChild<QPushButton*>();
    QVERIFY(cancel);
    QCOMPARE(cancel->text(), QStringLiteral("Cancel"));
    QTest::mouseClick(cancel, Qt::LeftButton);
    QVERIFY(finished.wait(20000));
    QCOMPARE(finished.front().front().toBool(), false);
    QCOMPARE(QString::fromStdString(finished.front().at(1).value<Diagnostic>().message), QStringLiteral("the export was cancelled"));
    QCOMPARE(QDir(dir.path()).entryList(QDir::NoDotAndDotDot | QDir::AllEntries), QStringList());
  }

  // A composite kernel's box shows its anchor's attributes as an op's box would: those not at their defaults.
  void aCompositeKernelShowsItsAnchorsAttributes() {
    using namespace kernel_graph;
    KernelGraph graph;
    const TensorSpec data{DType::Float32, {1, 3, 16, 16}}, weight{DType::Float32, {8, 3, 3, 3}}, out{DType::Float32, {1, 8, 8, 8}};
    graph.nodes.push_back({KernelNodeKind::Input, "x", {}, {}, {data}, {}, {}, {}});
    graph.nodes.push_back({KernelNodeKind::Input, "w", {}, {}, {weight}, {}, {}, {}});
    Attrs attrs{{"strides", AttrValue::ints({2, 2})}, {"dilation", AttrValue::ints({1, 1})}, {"channels", 8}, {"groups", 1}};
    graph.nodes.push_back({KernelNodeKind::Kernel, "dnnl.conv2d_relu", attrs, {{0, 0}, {1, 0}}, {out}, {}, {}, {}});
    graph.heads = {{2, 0}};
    const GraphModel drawn = GraphModel::build(kernelGraphFunction(graph));
    const auto kernel = std::find_if(drawn.nodes().begin(), drawn.nodes().end(),
                                     [](const GraphNode& node) { return node.title == QStringLiteral("@dnnl.conv2d_relu"); });
    QVERIFY(kernel != drawn.nodes().end());
    QVERIFY2(kernel->detail.contains(QStringLiteral("strides=[2, 2]")), qPrintable(kernel->detail));
    QVERIFY2(kernel->detail.contains(QStringLiteral("channels=8")), qPrintable(kernel->detail));
    QVERIFY2(!kernel->detail.contains(QStringLiteral("dilation")) && !kernel->detail.contains(QStringLiteral("groups")),
             qPrintable(kernel->detail));

    // A constant a kernel reads is a line of its box named for its role, as an op's weight is.
    graph.nodes[1] = {KernelNodeKind::Constant, "const_0", {}, {}, {weight}, TensorData::zeros(DType::Float32, weight.shape), {}, {}};
    const GraphModel weighted = GraphModel::build(kernelGraphFunction(graph));
    QCOMPARE(weighted.nodes().size(), std::size_t{2});  // the stub of %x and the kernel: no stub for the weight
    QVERIFY2(weighted.nodes().back().detail.endsWith(QStringLiteral("weight ⟨8×3×3×3⟩")), qPrintable(weighted.nodes().back().detail));
  }

  void anExportOpensWithItsRegionsAndRuns() {
    QTemporaryDir dir;
    const QString out = exportDemoFile(dir);
    QVERIFY(!out.isEmpty());
    MainWindow window;
    QVERIFY(showAndOpen(window, out));
    QVERIFY(window.document()->exported);
    QCOMPARE(window.document()->title, QStringLiteral("demo.byoc (export)"));
    QCOMPARE(window.diagnosticsModel()->rowCount(), 0);
    // The regions, as PartitionGraph's step shows them on a loaded model.
    const QStringList regions{QStringLiteral("tvmgen_default_dnnl_main_0"), QStringLiteral("tvmgen_default_dnnl_main_3")};
    QCOMPARE(regionNames(window), regions);
    QCOMPARE(window.regionModel()->index(0, 2).data().toString(), QStringLiteral("dnnl"));
    QCOMPARE(static_cast<int>(window.mainPage()->scene()->overlay().hulls.size()), 2);

    // A region's properties say how it runs.
    window.selectRegion(window.regionModel()->index(0, 0));
    const int call = window.regionModel()->index(0, 0).data(RegionListModel::NodesRole).value<QList<int>>().front();
    window.mainPage()->scene()->selectNode(call);
    std::map<QString, QString> properties;
    for (const Property& row : window.propertiesModel()->properties()) properties[row.first] = row.second;
    QCOMPARE(properties[QStringLiteral("codegen")], QStringLiteral("dnnl"));
    QVERIFY2(properties[QStringLiteral("kernel graph")].contains(QStringLiteral("kernel(s): ")),
             qPrintable(properties[QStringLiteral("kernel graph")]));

    // Its kernel graph opens as a tab: the kernels drawn, the JSON in the IR panel.
    GraphPage* kernels = window.activateNode(window.mainPage(), call);
    QVERIFY(kernels);
    QCOMPARE(window.currentPage(), kernels);
    QStringList drawn, expected;
    for (const GraphNode& node : kernels->model().nodes())
      if (node.kind != GraphNodeKind::Stub) drawn << node.title;
    const auto& graph = *window.document()->exported->kernelGraphs.at(regions.front().toStdString());
    for (const kernel_graph::KernelNode& node : graph.nodes)
      if (node.kind == kernel_graph::KernelNodeKind::Kernel) expected << QString::fromStdString(node.name);
    QCOMPARE(drawn, expected);
    QVERIFY(window.irText()->toPlainText().contains(QStringLiteral("\"format\": \"byoc-kernel-graph\"")));

    // Run Passes does not partition an export again, and says why.
    window.runPartition(QStringLiteral("relay"));
    QCOMPARE(window.diagnosticsModel()->rowCount(), 1);
    const QString refusal = window.diagnosticsModel()->index(0, 2).data().toString();
    QVERIFY2(refusal.startsWith(QStringLiteral("an export is already partitioned")), qPrintable(refusal));

    // It runs as exported and agrees with the model it was exported from.
    RunPanel* panel = window.runPanel();
    panel->timedRunsBox()->setValue(1);
    QSignalSpy finished(panel, &RunPanel::finished);
    window.runModel();
    QVERIFY(finished.wait(30000));
    QCOMPARE(finished.front().front().toBool(), true);
    QVERIFY2(panel->verdict().startsWith(QStringLiteral("✔ Agrees with the reference")), qPrintable(panel->verdict()));
    QVERIFY2(panel->verdict().contains(dir.filePath(QStringLiteral("demo.relay"))), qPrintable(panel->verdict()));
    QCOMPARE(panel->codegens(), QStringLiteral("Regions by codegen: 2 on dnnl."));
    QCOMPARE(panel->resultsModel()->index(0, RunResultsModel::VerdictColumn).data().toString(), QStringLiteral("agrees"));

    // The command line compares it the same way: with the model exported, and agrees.
    testing::CliRun cli = testing::runCli({QStringLiteral("run"), out, QStringLiteral("--random-inputs"), QStringLiteral("1"),
                                           QStringLiteral("--compare-reference")});
    QVERIFY2(cli.exitCode == 0, qPrintable(cli.err));
    QVERIFY2(cli.out.contains(QStringLiteral("the model exported, ") + dir.filePath(QStringLiteral("demo.relay"))), qPrintable(cli.out));
    QVERIFY(cli.out.contains(QStringLiteral("  ok\n")));
  }

  // A kernel of an opened export names the model's nodes it was built from (the origin its artifact
  // records, located through the host's provenance), and the IR text shows the kernels of each
  // region where the module holds only a placeholder for them.
  void aKernelNamesTheModelNodesItCameFrom() {
    QTemporaryDir dir;
    const QString out = exportDemoFile(dir);
    QVERIFY(!out.isEmpty());
    MainWindow window;
    QVERIFY(showAndOpen(window, out));
    const QString text = window.irText()->toPlainText();
    QVERIFY2(!text.contains(QStringLiteral("%kernel_graph")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("  %0 = nn.conv2d(%dnnl_0_i0, %dnnl_0_i1, padding=[1, 1, 1, 1]);")),
             qPrintable(text.mid(text.indexOf(QStringLiteral("def @tvmgen")))));

    const int call = window.regionModel()->index(0, 0).data(RegionListModel::NodesRole).value<QList<int>>().front();
    GraphPage* kernels = window.activateNode(window.mainPage(), call);
    QVERIFY(kernels);
    QSignalSpy laidOut(kernels, &GraphPage::layoutReady);
    QVERIFY(kernels->isLaidOut() || laidOut.wait(20000));
    int named = 0;
    for (const GraphNode& node : kernels->model().nodes()) {
      if (node.kind != GraphNodeKind::Op && node.kind != GraphNodeKind::Call) continue;
      kernels->scene()->selectNode(node.id);
      std::map<QString, QString> properties;
      for (const Property& row : window.propertiesModel()->properties()) properties[row.first] = row.second;
      QVERIFY2(!properties[QStringLiteral("Origin ids")].isEmpty(), qPrintable(node.title));
      QVERIFY2(properties[QStringLiteral("Source")].startsWith(dir.filePath(QStringLiteral("demo.relay:"))),
               qPrintable(node.title + u' ' + properties[QStringLiteral("Source")]));
      ++named;
    }
    QVERIFY(named >= 2);
  }

  void anExportWhoseModelIsGoneRunsUncompared() {
    QTemporaryDir dir;
    const QString out = exportDemoFile(dir);
    QVERIFY(QFile::remove(dir.filePath(QStringLiteral("demo.relay"))));
    MainWindow window;
    window.show();
    QVERIFY(openAndLayOut(window, out));
    RunPanel* panel = window.runPanel();
    panel->timedRunsBox()->setValue(0);
    QSignalSpy finished(panel, &RunPanel::finished);
    window.runModel();
    QVERIFY(finished.wait(30000));
    QCOMPARE(finished.front().front().toBool(), true);
    const QString expected =
        dir.filePath(QStringLiteral("demo.relay")) + QStringLiteral(": the model it was exported from is not there any more");
    QVERIFY2(panel->verdict().contains(QStringLiteral("Not compared with the reference")), qPrintable(panel->verdict()));
    QVERIFY2(panel->verdict().endsWith(expected), qPrintable(panel->verdict()));
    QCOMPARE(panel->resultsModel()->index(0, RunResultsModel::VerdictColumn).data().toString(), QStringLiteral("not compared"));

    // The command line cannot compare it either, for the same reason; asked to, it fails.
    testing::CliRun cli = testing::runCli({QStringLiteral("run"), out, QStringLiteral("--random-inputs"), QStringLiteral("1"),
                                           QStringLiteral("--compare-reference")});
    QCOMPARE(cli.exitCode, 1);
    QVERIFY2(cli.err.trimmed().endsWith(expected), qPrintable(cli.err));
  }

  void everyFileOfAnExportOpensIt_data() {
    QTest::addColumn<QString>("file");
    QTest::newRow("directory") << QString();
    QTest::newRow("manifest") << QStringLiteral("manifest.json");
    QTest::newRow("host module") << QStringLiteral("host.json");
    QTest::newRow("host text") << QStringLiteral("host.relay");
    QTest::newRow("artifact") << QStringLiteral("artifacts/tvmgen_default_dnnl_main_0.json");
  }

  void everyFileOfAnExportOpensIt() {
    QFETCH(QString, file);
    QTemporaryDir dir;
    const QString out = exportDemoFile(dir);
    Result<ModelDocument> document = openModelDocument(file.isEmpty() ? out : out + u'/' + file);
    QVERIFY2(document, document ? "" : document.error().str().c_str());
    QVERIFY(document->exported);
    QCOMPARE(document->path, QFileInfo(out).absoluteFilePath());
    QCOMPARE(static_cast<int>(document->kernelGraphTexts.size()), 2);
  }

  void aDirectoryThatIsNoExportSaysWhatOneHolds() {
    QTemporaryDir dir;
    Result<ModelDocument> document = openModelDocument(dir.path());
    QVERIFY(!document);
    QCOMPARE(QString::fromStdString(document.error().str()),
             dir.filePath(QStringLiteral("manifest.json")) +
                 QStringLiteral(": missing file: an export directory holds a manifest.json"));
  }

  void fileMenuHasTheExportEntries() {
    MainWindow window;
    const QStringList entries = fileMenuEntries(window);
    QVERIFY2(entries.contains(QStringLiteral("Export &Graph Image…")), qPrintable(entries.join(u'|')));
    QVERIFY(entries.contains(QStringLiteral("Export &Partitioned Module…")));
    QVERIFY(entries.contains(QStringLiteral("Open &Export…")));
    QVERIFY(!entries.contains(QStringLiteral("Export as &SVG…")));
  }
};

QTEST_MAIN(TestAppExport)
#include "test_app_export.moc"
