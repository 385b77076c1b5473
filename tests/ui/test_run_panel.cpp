/// \file
/// The Run panel: its inputs (random from a seed, .npy files, precise refusals), the run against the
/// reference on the demo, cancellation, the results, the latency chart and the per-region times on the graph;
/// a new target's codegen chosen in its settings, and the line saying which codegen ran the regions.

#include <QAbstractItemModelTester>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>
#include <algorithm>

#include "window/main_window.h"
#include "window/model_document.h"
#include "authoring/op_support_model.h"
#include "authoring/target_document.h"
#include "authoring/target_files.h"
#include "graph/graph_page.h"
#include "graph/graph_scene.h"
#include "models/diagnostics_model.h"
#include "models/snapshot_list_model.h"
#include "panels/timeline_widget.h"
#include "run/latency_chart.h"
#include "run/run_inputs_model.h"
#include "run/run_job.h"
#include "run/run_panel.h"
#include "run/run_results_model.h"
#include "runtime/executor.h"
#include "runtime/npy.h"
#include "pass/infer_type.h"
#include "target/target_library.h"
#include "text/parser.h"
#include "test_files.h"
#include "window_fixture.h"

using namespace byoc;
using namespace byoc::ui;
using namespace byoc::testing;

namespace {

NDArray filled(DType dtype, Shape shape, double value) {
  NDArray array = NDArray::zeros(dtype, shape);
  for (int64_t i = 0; i < array.numElements(); ++i) {
    if (dtype == DType::Float32) array.data<float>()[i] = static_cast<float>(value + static_cast<double>(i));
    else if (dtype == DType::Int32) array.data<int32_t>()[i] = static_cast<int32_t>(value);
  }
  return array;
}

bool sameValues(const NDArray& a, const NDArray& b) {
  if (a.dtype() != b.dtype() || a.shape() != b.shape()) return false;
  for (int64_t i = 0; i < a.numElements(); ++i)
    if (a.elementAsDouble(i) != b.elementAsDouble(i)) return false;
  return true;
}

/// A model whose first input has a dimension known only at run time.
Module dynamicModule() {
  Result<Module> parsed = parseModule(
      "#[version = \"0.0.5\"]\n"
      "def @main(%x: Tensor[(?, 4), float32], %w: Tensor[(4), float32]) {\n"
      "  nn.relu(add(%x, %w))\n"
      "}\n",
      "dynamic.relay");
  if (!parsed) qFatal("%s", parsed.error().str().c_str());
  Result<Module> typed = inferTypes(*parsed);
  if (!typed) qFatal("%s", typed.error().str().c_str());
  return *typed;
}

QStringList sceneTexts(GraphScene* scene) {
  QStringList texts;
  for (QGraphicsItem* item : scene->items())
    if (item->type() == LabelItem::Type) texts << static_cast<LabelItem*>(item)->text();
  return texts;
}

}  // namespace

class TestRunPanel : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QSettings().clear();
  }

  void inputsAreRandomFromTheirSeeds() {
    const Module demo = demoModule();
    RunInputsModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setModule(demo);
    QCOMPARE(model.rowCount(), 3);
    QCOMPARE(model.index(0, RunInputsModel::NameColumn).data().toString(), QStringLiteral("%data"));
    QCOMPARE(model.index(0, RunInputsModel::TypeColumn).data().toString(), QStringLiteral("Tensor[(1, 32, 56, 56), float32]"));
    QCOMPARE(model.index(2, RunInputsModel::TypeColumn).data().toString(), QStringLiteral("Tensor[(32), float32]"));
    QCOMPARE(model.index(1, RunInputsModel::SourceColumn).data().toString(), QStringLiteral("random"));
    QCOMPARE(model.index(1, RunInputsModel::SeedColumn).data().toInt(), 1);
    QVERIFY(model.flags(model.index(1, RunInputsModel::SeedColumn)) & Qt::ItemIsEditable);
    QVERIFY(!(model.flags(model.index(1, RunInputsModel::TypeColumn)) & Qt::ItemIsEditable));

    // Seeds as `byoc run --random-inputs 0` uses them: input k from seed k.
    Result<std::map<std::string, NDArray>> tensors = model.tensors();
    QVERIFY(tensors);
    const auto* biasType = demo.find("main")->params[2]->type()->as<TensorTypeNode>();
    QVERIFY(sameValues(tensors->at("bias"), randomTensorOf(*biasType, 2)));
    QVERIFY(!sameValues(tensors->at("bias"), randomTensorOf(*biasType, 7)));
    QVERIFY(model.setData(model.index(2, RunInputsModel::SeedColumn), 7, Qt::EditRole));
    QVERIFY(!model.setData(model.index(2, RunInputsModel::SeedColumn), -1, Qt::EditRole));
    QVERIFY(!model.setData(model.index(2, RunInputsModel::TypeColumn), 7, Qt::EditRole));
    QVERIFY(sameValues(model.tensors()->at("bias"), randomTensorOf(*biasType, 7)));
  }

  void inputsFromNpyFiles() {
    QTemporaryDir dir;
    RunInputsModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setModule(demoModule());
    const QString good = dir.filePath(QStringLiteral("bias.npy"));
    QVERIFY(writeNpy(good.toStdString(), filled(DType::Float32, {32}, 0.5)));
    QVERIFY(model.setFile(2, good));
    QCOMPARE(model.index(2, RunInputsModel::SourceColumn).data().toString(), QStringLiteral("bias.npy"));
    QCOMPARE(model.index(2, RunInputsModel::SourceColumn).data(Qt::ToolTipRole).toString(), good);
    QVERIFY(!model.index(2, RunInputsModel::SeedColumn).data().isValid());
    QVERIFY(!(model.flags(model.index(2, RunInputsModel::SeedColumn)) & Qt::ItemIsEditable));
    QVERIFY(sameValues(model.tensors()->at("bias"), filled(DType::Float32, {32}, 0.5)));
    model.setRandom(2);
    QCOMPARE(model.index(2, RunInputsModel::SourceColumn).data().toString(), QStringLiteral("random"));
    QCOMPARE(model.index(2, RunInputsModel::SeedColumn).data().toInt(), 2);
  }

  void refusedNpyFiles_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<int>("row");
    QTest::addColumn<QString>("expected");
    QTest::newRow("shape") << QStringLiteral("short.npy") << 2
                           << QStringLiteral("short.npy: input %bias expects Tensor[(32), float32], the file holds Tensor[(16), float32]");
    QTest::newRow("dtype") << QStringLiteral("ints.npy") << 2
                           << QStringLiteral("ints.npy: input %bias expects Tensor[(32), float32], the file holds Tensor[(32), int32]");
    QTest::newRow("rank") << QStringLiteral("bias.npy") << 0
                          << QStringLiteral("bias.npy: input %data expects Tensor[(1, 32, 56, 56), float32], the file holds Tensor[(32), float32]");
    QTest::newRow("missing") << QStringLiteral("absent.npy") << 1 << QStringLiteral("%1/absent.npy: cannot open: No such file or directory");
  }

  void refusedNpyFiles() {
    QFETCH(QString, file);
    QFETCH(int, row);
    QFETCH(QString, expected);
    QTemporaryDir dir;
    QVERIFY(writeNpy(dir.filePath(QStringLiteral("short.npy")).toStdString(), filled(DType::Float32, {16}, 1)));
    QVERIFY(writeNpy(dir.filePath(QStringLiteral("ints.npy")).toStdString(), filled(DType::Int32, {32}, 1)));
    QVERIFY(writeNpy(dir.filePath(QStringLiteral("bias.npy")).toStdString(), filled(DType::Float32, {32}, 1)));
    RunPanel panel;
    panel.setModel(demoModule());
    QSignalSpy failed(&panel, &RunPanel::failed);
    Status loaded = panel.loadInputFile(row, dir.filePath(file));
    QVERIFY(!loaded);
    QCOMPARE(QString::fromStdString(loaded.error().str()), expected.arg(dir.path()));
    QCOMPARE(panel.inputMessage(), expected.arg(dir.path()));
    QCOMPARE(failed.count(), 1);
    // The row keeps its random source.
    QCOMPARE(panel.inputsModel()->index(row, RunInputsModel::SourceColumn).data().toString(), QStringLiteral("random"));
  }

  /// An input with `?` dimensions takes the shape typed in its Shape cell; a shape that does not
  /// fit stays there, marked, and says why in one line.
  void aDynamicInputTakesTheShapeTyped() {
    RunInputsModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setModule(dynamicModule());
    const QModelIndex shape = model.index(0, RunInputsModel::ShapeColumn);
    QCOMPARE(model.index(0, RunInputsModel::TypeColumn).data().toString(), QStringLiteral("Tensor[(?, 4), float32]"));
    QCOMPARE(shape.data().toString(), QStringLiteral("?\u00d74"));
    QVERIFY(model.flags(shape) & Qt::ItemIsEditable);
    // A static input's shape is its type's: nothing to choose.
    QCOMPARE(model.index(1, RunInputsModel::ShapeColumn).data().toString(), QStringLiteral("4"));
    QVERIFY(!(model.flags(model.index(1, RunInputsModel::ShapeColumn)) & Qt::ItemIsEditable));
    Result<std::map<std::string, NDArray>> unfilled = model.tensors();
    QVERIFY(!unfilled);
    QCOMPARE(QString::fromStdString(unfilled.error().message),
             QStringLiteral("input %x has the type Tensor[(?, 4), float32], whose size is known only at run time; give its "
                            "shape in the Shape column or load a .npy file for it"));

    for (const QString& text : {QStringLiteral("3x4"), QStringLiteral("3\u00d74"), QStringLiteral("(3, 4)"), QStringLiteral(" 3 X 4 ")}) {
      QVERIFY(model.setData(shape, text, Qt::EditRole));
      QCOMPARE(model.shapeProblem(0), QString());
      Result<std::map<std::string, NDArray>> tensors = model.tensors();
      QVERIFY2(tensors, tensors ? "" : tensors.error().str().c_str());
      // As `byoc run --random-inputs 0 --input-shape x=3x4` fills it.
      QVERIFY(sameValues(tensors->at("x"), randomTensorOf(TensorTypeNode({3, 4}, DType::Float32), 0)));
    }
    QCOMPARE(shape.data().toString(), QStringLiteral(" 3 X 4 "));
    // Clearing the cell goes back to the type's shape, which a random input cannot take.
    QVERIFY(model.setData(shape, QString(), Qt::EditRole));
    QCOMPARE(shape.data().toString(), QStringLiteral("?\u00d74"));
    QVERIFY(!model.tensors());
  }

  void refusedShapes_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("expected");
    QTest::newRow("fixed size differs") << QStringLiteral("3x5")
                                        << QStringLiteral("input %x: shape (3, 5) gives dimension 1 the size 5; expected (?, 4)");
    QTest::newRow("rank") << QStringLiteral("3") << QStringLiteral("input %x: shape (3) has rank 1; expected (?, 4)");
    QTest::newRow("unknown left zero")
        << QStringLiteral("0x4")
        << QStringLiteral("input %x: shape (0, 4) gives the unknown dimension 0 the size 0; expected a positive size for each ? of (?, 4)");
    QTest::newRow("unknown left ?") << QStringLiteral("?x4")
                                    << QStringLiteral("input %x: '?x4' leaves dimension 0 unknown; give a positive size for each ? of (?, 4)");
    QTest::newRow("not a number")
        << QStringLiteral("ax4")
        << QStringLiteral("input %x: 'ax4' is not a shape: expected sizes from 0 to 4294967296 joined by 'x', one for each dimension of (?, 4)");
    QTest::newRow("negative")
        << QStringLiteral("-3x4")
        << QStringLiteral("input %x: '-3x4' is not a shape: expected sizes from 0 to 4294967296 joined by 'x', one for each dimension of (?, 4)");
    QTest::newRow("size beyond the limit")
        << QStringLiteral("4294967297x4")
        << QStringLiteral("input %x: '4294967297x4' is not a shape: expected sizes from 0 to 4294967296 joined by 'x', one for each "
                          "dimension of (?, 4)");
    QTest::newRow("elements beyond the limit")
        << QStringLiteral("2147483648x4")
        << QStringLiteral("input %x: shape (2147483648, 4): more than 4294967296 elements (the limit of one tensor)");
    const QString tooMany = QStringLiteral("1x").repeated(32) + u'4';
    QTest::newRow("rank beyond the limit")
        << tooMany << QStringLiteral("input %x: '%1' has more than 32 dimensions (the limit); expected (?, 4)").arg(tooMany);
  }

  void refusedShapes() {
    QFETCH(QString, text);
    QFETCH(QString, expected);
    RunPanel panel;
    panel.setModel(demoModule());
    QTableView* view = nullptr;
    for (QTableView* table : panel.findChildren<QTableView*>()) {
      if (table->model() == panel.inputsModel()) view = table;
    }
    QVERIFY(view);
    QVERIFY(view->isColumnHidden(RunInputsModel::ShapeColumn));  // nothing to choose in a static model
    panel.setModel(dynamicModule());
    QVERIFY(!view->isColumnHidden(RunInputsModel::ShapeColumn));
    RunInputsModel* model = panel.inputsModel();
    const QModelIndex shape = model->index(0, RunInputsModel::ShapeColumn);
    QVERIFY(model->setData(shape, text, Qt::EditRole));
    // The text stays in its cell, in red, with the reason as tooltip and under the inputs.
    QCOMPARE(shape.data().toString(), text);
    QCOMPARE(model->shapeProblem(0), expected);
    QCOMPARE(shape.data(Qt::ToolTipRole).toString(), expected);
    QVERIFY(shape.data(Qt::ForegroundRole).isValid());
    QCOMPARE(panel.inputMessage(), expected);
    Status set = model->setShape(0, text);
    QVERIFY(!set);
    QCOMPARE(QString::fromStdString(set.error().message), expected);
    // Run refuses with the same words, and nothing runs.
    QSignalSpy failed(&panel, &RunPanel::failed);
    QSignalSpy finished(&panel, &RunPanel::finished);
    panel.run({builtinTarget("dnnl")}, QStringLiteral("relay"));
    QCOMPARE(finished.count(), 1);
    QCOMPARE(finished.front().front().toBool(), false);
    QCOMPARE(failed.count(), 1);
    QCOMPARE(panel.verdict(), expected);
    QVERIFY(!panel.isRunning());
    // A shape that fits clears the mark and the message.
    QVERIFY(model->setData(shape, QStringLiteral("2x4"), Qt::EditRole));
    QCOMPARE(model->shapeProblem(0), QString());
    QVERIFY(!shape.data(Qt::ForegroundRole).isValid());
    QCOMPARE(panel.inputMessage(), QString());
  }

  /// A .npy file of any size the `?` allows fills a dynamic input; one whose fixed size differs does not.
  void aDynamicInputTakesAFileThatFitsItsType() {
    QTemporaryDir dir;
    const QString fits = dir.filePath(QStringLiteral("fits.npy"));
    const QString wrong = dir.filePath(QStringLiteral("wrong.npy"));
    QVERIFY(writeNpy(fits.toStdString(), filled(DType::Float32, {5, 4}, 0.5)));
    QVERIFY(writeNpy(wrong.toStdString(), filled(DType::Float32, {5, 3}, 0.5)));
    RunInputsModel model;
    model.setModule(dynamicModule());
    QVERIFY(model.setFile(0, fits));
    QCOMPARE(model.index(0, RunInputsModel::ShapeColumn).data().toString(), QStringLiteral("5\u00d74"));
    QVERIFY(!(model.flags(model.index(0, RunInputsModel::ShapeColumn)) & Qt::ItemIsEditable));
    QVERIFY(sameValues(model.tensors()->at("x"), filled(DType::Float32, {5, 4}, 0.5)));
    Status refused = model.setFile(0, wrong);
    QVERIFY(!refused);
    QCOMPARE(QString::fromStdString(refused.error().message),
             QStringLiteral("wrong.npy: input %x expects Tensor[(?, 4), float32], the file holds Tensor[(5, 3), float32]"));
  }

  /// The Run panel runs a dynamic model at the shape typed and checks it against the reference.
  void aDynamicModelRunsAtTheShapeTyped() {
    RunPanel panel;
    panel.setModel(dynamicModule());
    panel.timedRunsBox()->setValue(0);
    QVERIFY(panel.inputsModel()->setData(panel.inputsModel()->index(0, RunInputsModel::ShapeColumn), QStringLiteral("3x4"),
                                         Qt::EditRole));
    QSignalSpy finished(&panel, &RunPanel::finished);
    panel.run({builtinTarget("dnnl")}, QStringLiteral("relay"));
    QVERIFY(finished.wait(30000));
    QCOMPARE(finished.front().front().toBool(), true);
    QVERIFY2(panel.verdict().startsWith(QStringLiteral("\u2714 Agrees with the reference")), qPrintable(panel.verdict()));
    QVERIFY(panel.lastReport());
    QCOMPARE(panel.lastReport()->outputs.size(), std::size_t{1});
    QCOMPARE(panel.lastReport()->outputs[0].shape(), (Shape{3, 4}));
    // relu(x + w) of the inputs drawn, computed here.
    const NDArray x = randomTensorOf(TensorTypeNode({3, 4}, DType::Float32), 0);
    const NDArray w = randomTensorOf(TensorTypeNode({4}, DType::Float32), 1);
    for (int64_t i = 0; i < 12; ++i) {
      const float expected = std::max(0.0f, x.data<float>()[i] + w.data<float>()[i % 4]);
      QCOMPARE(panel.lastReport()->outputs[0].data<float>()[i], expected);
    }
  }

  void runOnTheDemoAgreesWithTheReference_data() {
    QTest::addColumn<QString>("target");
    QTest::addColumn<QString>("pipeline");
    QTest::addColumn<QStringList>("regions");
    QTest::newRow("dnnl relay") << QStringLiteral("dnnl") << QStringLiteral("relay")
                                << QStringList{QStringLiteral("tvmgen_default_dnnl_main_0"), QStringLiteral("tvmgen_default_dnnl_main_3")};
    QTest::newRow("byoc-target relay")
        << QStringLiteral("byoc-target") << QStringLiteral("relay")
        << QStringList{QStringLiteral("tvmgen_default_byoc_target_main_0"), QStringLiteral("tvmgen_default_byoc_target_main_2"),
                       QStringLiteral("tvmgen_default_byoc_target_main_5")};
  }

  void runOnTheDemoAgreesWithTheReference() {
    QFETCH(QString, target);
    QFETCH(QString, pipeline);
    QFETCH(QStringList, regions);
    RunInputsModel inputs;
    inputs.setModule(demoModule());
    RunRequest request{demoModule(), {builtinTarget(target.toLatin1().constData())}, pipeline, *inputs.tensors(), 3};
    std::vector<int> seen;
    Result<RunReport> report = runAndCompare(request, nullptr, [&](int done, int total, const QString&) {
      QCOMPARE(total, 8);
      seen.push_back(done);
    });
    QVERIFY2(report, report ? "" : report.error().str().c_str());
    QCOMPARE(seen, (std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7, 8}));
    QVERIFY(!report->comparison.regions.empty());
    for (const RegionAgreement& region : report->comparison.regions) QVERIFY2(region.worst.within, region.label.c_str());
    QCOMPARE(report->outputs.size(), std::size_t(1));
    QCOMPARE(QString::fromStdString(typeToString(report->outputs[0].type())), QStringLiteral("Tensor[(1, 56, 56, 32), float32]"));
    QVERIFY(report->comparison.agree());
    QVERIFY(report->comparison.outputs[0].maxAbsolute < 1e-2);
    QCOMPARE(report->timings.runs(), 3);
    QStringList symbols;
    for (const RegionInfo& region : report->timings.regions) {
      symbols << QString::fromStdString(region.symbol);
      QVERIFY(region.calls >= 3);
    }
    QCOMPARE(symbols, regions);
    const std::map<QString, QString> notes = regionTimeNotes(report->timings);
    QCOMPARE(static_cast<int>(notes.size()), regions.size());
    QVERIFY(notes.at(regions.front()).endsWith(QStringLiteral(" ms")));
  }

  // The Relax flow on oneDNN, as the Run dock runs it: a residual convnet agrees with the reference,
  // its regions named after the Relax ops as TVM names them.
  void theRelaxFlowRunsOnDnnlAndAgrees() {
    ModelDocument document = openModelDocument(QString::fromStdString(testDataPath(QStringLiteral("partition/dnnl_convnet.relay")))).value();
    RunInputsModel inputs;
    inputs.setModule(document.module);
    RunRequest request{document.module, {builtinTarget("dnnl")}, QStringLiteral("relax"), *inputs.tensors(), 1};
    Result<RunReport> report = runAndCompare(request, nullptr, {});
    QVERIFY2(report, report ? "" : report.error().str().c_str());
    QVERIFY(report->comparison.agree());
    QVERIFY(!report->timings.regions.empty());
    for (const RegionInfo& region : report->timings.regions) {
      QVERIFY2(region.symbol.starts_with("fused_relax_"), region.symbol.c_str());
      QCOMPARE(region.codegen, std::string("dnnl"));
    }
  }

  void aSetCancelFlagStopsTheRun() {
    RunInputsModel inputs;
    inputs.setModule(demoModule());
    std::atomic<bool> cancel{true};
    Result<RunReport> report =
        runAndCompare({demoModule(), {builtinTarget("dnnl")}, QStringLiteral("relay"), *inputs.tensors(), 3}, &cancel, {});
    QVERIFY(!report);
    QCOMPARE(QString::fromStdString(report.error().message), QStringLiteral("the run was cancelled"));
  }

  void aMissingInputIsReported() {
    Result<RunReport> report = runAndCompare({demoModule(), {builtinTarget("dnnl")}, QStringLiteral("relay"), {}, 0}, nullptr, {});
    QVERIFY(!report);
    QCOMPARE(QString::fromStdString(report.error().message),
             QStringLiteral("missing input %data: expected Tensor[(1, 32, 56, 56), float32]"));
  }

  void resultsShowErrorsAndVerdicts() {
    RunResultsModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    ReferenceComparison comparison;
    comparison.outputs = {{0.5, 0.25, false}};
    comparison.sameCount = false;
    model.setResults({filled(DType::Float32, {2, 4}, 1), filled(DType::Float32, {3}, 0)}, comparison);
    QCOMPARE(model.rowCount(), 2);
    QCOMPARE(model.index(0, RunResultsModel::TypeColumn).data().toString(), QStringLiteral("Tensor[(2, 4), float32]"));
    QCOMPARE(model.index(0, RunResultsModel::ValuesColumn).data().toString(), QStringLiteral("1, 2, 3, 4, 5, 6, …"));
    QCOMPARE(model.index(1, RunResultsModel::ValuesColumn).data().toString(), QStringLiteral("0, 1, 2"));
    QCOMPARE(model.index(0, RunResultsModel::AbsColumn).data().toString(), QStringLiteral("0.5"));
    QCOMPARE(model.index(0, RunResultsModel::RelColumn).data().toString(), QStringLiteral("0.25"));
    QCOMPARE(model.index(0, RunResultsModel::VerdictColumn).data().toString(), QStringLiteral("differs"));
    QCOMPARE(model.index(1, RunResultsModel::AbsColumn).data().toString(), QStringLiteral("—"));
    QCOMPARE(model.index(1, RunResultsModel::VerdictColumn).data().toString(), QStringLiteral("differs"));
    comparison = {{{0.0, 0.0, true}}, true, {}};
    model.setResults({filled(DType::Float32, {1}, 3)}, comparison);
    QCOMPARE(model.index(0, RunResultsModel::VerdictColumn).data().toString(), QStringLiteral("agrees"));
    model.clear();
    QCOMPARE(model.rowCount(), 0);
  }

  void chartHasABarPerRegionAndTheHost() {
    RunTimings timings;
    timings.runMilliseconds = {10, 12, 14};
    timings.regions = {{"a", "a", "dnnl", "dnnl", 3, 0.015}, {"", "b_region_1", "dnnl", "dnnl", 6, 0.003}};
    QCOMPARE(timings.median(), 12.0);
    QCOMPARE(timings.p90(), 14.0);
    LatencyChart chart;
    chart.setTimings(timings);
    // Slowest first.
    QCOMPARE(static_cast<int>(chart.bars().size()), 3);
    QCOMPARE(chart.bars()[0].first, QStringLiteral("host"));
    QCOMPARE(chart.bars()[0].second, 6.0);  // mean 12 - 5 - 1
    QCOMPARE(chart.bars()[1].first, QStringLiteral("@a · dnnl"));
    QCOMPARE(chart.bars()[1].second, 5.0);
    QCOMPARE(chart.bars()[2].first, QStringLiteral("b_region_1 · dnnl"));
    QCOMPARE(chart.bars()[2].second, 1.0);
    // Drawn in the theme's colours, the bars kept.
    chart.setTheme(Theme::Dark);
    QCOMPARE(chart.backgroundColour(), graphPalette(Theme::Dark).background);
    QCOMPARE(static_cast<int>(chart.bars().size()), 3);
    // Many regions keep a readable bar each: the chart grows, and the Run panel scrolls it.
    const int fewHeight = chart.minimumHeight();
    for (int i = 0; i < 40; ++i) timings.regions.push_back({"", "r" + std::to_string(i), "dnnl", "dnnl", 1, 0.001 * i});
    chart.setTimings(timings);
    QVERIFY(chart.minimumHeight() >= 43 * 20);
    QVERIFY(chart.minimumHeight() > fewHeight);
    QVERIFY(std::is_sorted(chart.bars().begin(), chart.bars().end(), [](const auto& a, const auto& b) { return a.second > b.second; }));
    chart.setTimings({});
    QVERIFY(chart.bars().empty());
    QCOMPARE(chart.backgroundColour(), graphPalette(Theme::Dark).background);
  }

  void runFromTheWindowShowsAgreementAndRegionTimes() {
    MainWindow window;
    QVERIFY(showAndOpen(window));
    QSignalSpy steps(&window, &MainWindow::stepsOpened);
    window.runPartition(QStringList{QStringLiteral("dnnl")}, QStringLiteral("relay"));
    QVERIFY(steps.wait(20000));
    window.timeline()->setCurrentStep(window.snapshotModel()->rowCount() - 1);
    GraphScene* scene = window.mainPage()->scene();
    QVERIFY(scene->overlay().hullNotes.empty());

    RunPanel* panel = window.runPanel();
    panel->timedRunsBox()->setValue(2);
    QSignalSpy finished(panel, &RunPanel::finished);
    QTest::mouseClick(panel->runButton(), Qt::LeftButton);
    QVERIFY(panel->isRunning());
    QVERIFY(panel->cancelButton()->isEnabled());
    QVERIFY(!panel->runButton()->isEnabled());
    QVERIFY(finished.wait(30000));
    QCOMPARE(finished.front().front().toBool(), true);
    QVERIFY2(panel->verdict().startsWith(QStringLiteral("✔ Agrees with the reference")), qPrintable(panel->verdict()));
    QCOMPARE(panel->resultsModel()->rowCount(), 1);
    QCOMPARE(panel->resultsModel()->index(0, RunResultsModel::VerdictColumn).data().toString(), QStringLiteral("agrees"));
    QStringList bars;
    for (const auto& [label, milliseconds] : panel->chart()->bars()) bars << label;
    bars.sort();  // drawn slowest first
    QCOMPARE(bars, (QStringList{QStringLiteral("@tvmgen_default_dnnl_main_0 · dnnl"), QStringLiteral("@tvmgen_default_dnnl_main_3 · dnnl"),
                                QStringLiteral("host")}));
    QCOMPARE(panel->codegens(), QStringLiteral("Regions by codegen: 2 on dnnl."));
    // It ran the partition the timeline holds, not a new one: the very same @main.
    QCOMPARE(panel->lastReport()->partitioned.find("main").get(), window.snapshotModel()->snapshots().back().module.find("main").get());

    // The partitions on the graph show their time under their labels.
    const std::map<QString, QString>& notes = scene->overlay().hullNotes;
    QCOMPARE(static_cast<int>(notes.size()), 2);
    const QString note = notes.at(QStringLiteral("tvmgen_default_dnnl_main_3"));
    QVERIFY(QRegularExpression(QStringLiteral("^\\d+\\.\\d\\d ms$")).match(note).hasMatch());
    QVERIFY(sceneTexts(scene).contains(note));
    // They stay when stepping through the timeline.
    window.timeline()->setCurrentStep(window.snapshotModel()->rowCount() - 2);
    QVERIFY(sceneTexts(scene).contains(note));

    // Opening another model forgets them.
    QVERIFY(openAndLayOut(window));
    QVERIFY(window.mainPage()->scene()->overlay().hullNotes.empty());
    QCOMPARE(window.runPanel()->resultsModel()->rowCount(), 0);
  }

  void aNewTargetRunsOnTheCodegenItsSettingsChoose() {
    MainWindow window;
    window.show();
    QVERIFY(openAndLayOut(window));
    TargetFiles::Dialogs dialogs;
    dialogs.unsaved = [](const QString&) { return TargetFiles::Choice::Discard; };
    dialogs.newTarget = [] {
      Target fresh;
      fresh.name = "mine";
      fresh.codegen = "reference";
      return std::optional<Target>(fresh);
    };
    dialogs.settings = [](const Target& target) {
      Target edited = target;
      edited.codegen = "dnnl";
      return std::optional<Target>(edited);
    };
    window.targetFiles()->setDialogs(dialogs);
    QVERIFY(window.targetFiles()->newTarget());
    OpSupportModel* support = window.opSupportModel();
    QVERIFY(support->setData(support->index(support->rowOf(QStringLiteral("nn.conv2d")), OpSupportModel::SupportedColumn),
                             Qt::Checked, Qt::CheckStateRole));

    RunPanel* panel = window.runPanel();
    panel->timedRunsBox()->setValue(0);
    QSignalSpy finished(panel, &RunPanel::finished);
    window.runModel();
    QVERIFY(finished.wait(30000));
    QVERIFY2(panel->verdict().startsWith(QStringLiteral("✔ Agrees")), qPrintable(panel->verdict()));
    QVERIFY2(panel->codegens().startsWith(QStringLiteral("Every region ran on the reference codegen, the kernels the reference "
                                                         "runs: the comparison checks the partitioning, not a codegen.")),
             qPrintable(panel->codegens()));
    QVERIFY(!panel->lastReport()->regions.empty());

    QCOMPARE(panel->staleNote(), QString());
    QVERIFY(window.targetFiles()->editSettings());
    QCOMPARE(window.targetDocument()->target().codegen, std::string("dnnl"));
    // The results shown are those of the target before the edit: marked until the next run.
    QCOMPARE(panel->staleNote(), QStringLiteral("⚠ Out of date: the target was edited after this run. Press Run to run again."));
    finished.clear();
    window.runModel();
    QVERIFY(finished.wait(30000));
    QCOMPARE(panel->staleNote(), QString());
    QVERIFY2(panel->verdict().startsWith(QStringLiteral("✔ Agrees")), qPrintable(panel->verdict()));
    const int regions = static_cast<int>(panel->lastReport()->regions.size());
    QCOMPARE(panel->codegens(), QStringLiteral("Regions by codegen: %1 on dnnl.").arg(regions));
  }

  void cancelStopsALongRunQuickly() {
    RunPanel panel;
    QVERIFY(!panel.runButton()->isEnabled());  // nothing to run yet
    panel.setModel(demoModule());
    QVERIFY(panel.runButton()->isEnabled());
    panel.timedRunsBox()->setValue(1000);
    QSignalSpy finished(&panel, &RunPanel::finished);
    QSignalSpy failed(&panel, &RunPanel::failed);
    panel.run({builtinTarget("byoc-target")}, QStringLiteral("relay"));
    // Wait until the timed runs are under way, then cancel.
    QTRY_VERIFY_WITH_TIMEOUT(panel.progressBar()->value() >= 6, 20000);
    QTest::mouseClick(panel.cancelButton(), Qt::LeftButton);
    QVERIFY(finished.wait(20000));  // the 1,000 runs would take far longer
    QCOMPARE(finished.front().front().toBool(), false);
    QCOMPARE(panel.verdict(), QStringLiteral("the run was cancelled"));
    QCOMPARE(failed.count(), 1);
    QVERIFY(!panel.isRunning());
    QVERIFY(panel.runButton()->isEnabled());
  }
};

QTEST_MAIN(TestRunPanel)
#include "test_run_panel.moc"
