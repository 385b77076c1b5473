#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include "frontend/onnx/onnx_import.h"
#include "ir/traversal.h"
#include "onnx_loop_models.h"
#include "partitioned_module.h"
#include "runtime/executor.h"
#include "runtime/npy.h"
#include "support/file_io.h"

using namespace byoc;
using byoc::testing::OnnxModelBuilder;
using byoc::testing::partitionedFor;

namespace {

Module imported(const OnnxModelBuilder& b) {
  Result<Module> module = importOnnxModel(b.bytes(), "model.onnx", "");
  if (!module) qFatal("%s", module.error().str().c_str());
  return *module;
}

NDArray floats(Shape shape, std::vector<float> values) { return NDArray::fromFloats(std::move(shape), values); }

NDArray scalar(DType dtype, double value) { return NDArray::fromTensorData(TensorData::scalar(dtype, value)); }

/// Runs `module` on `inputs` (named), with the dataflow fast path on or off; the outputs flattened.
Result<std::vector<NDArray>> run(const Module& module, const std::map<std::string, NDArray>& inputs,
                                 ExecutorOptions options = {}) {
  BYOC_ASSIGN_OR_RETURN(std::unique_ptr<Executor> executor, Executor::create(module, options));
  BYOC_ASSIGN_OR_RETURN(std::vector<Value> args, executor->bindInputs(inputs));
  BYOC_ASSIGN_OR_RETURN(Value result, executor->run(args));
  std::vector<NDArray> outputs;
  result.flattenInto(outputs);
  return outputs;
}

/// `actual` has `shape` and holds `values` exactly (every expected value is a small sum of
/// small floats, exact in float32).
bool holds(const NDArray& actual, const Shape& shape, const std::vector<double>& values) {
  if (actual.shape() != shape || actual.numElements() != static_cast<int64_t>(values.size())) return false;
  for (std::size_t i = 0; i < values.size(); ++i)
    if (actual.elementAsDouble(static_cast<int64_t>(i)) != values[i]) return false;
  return true;
}

}  // namespace

/// Imported ONNX Loops and Scans run to the values ONNX's semantics give (worked out by hand in
/// onnx_loop_models.h), interpreted and with their static body offloaded; a loop that does not end
/// stops at the iteration limit.
class TestOnnxLoopRuns : public QObject {
  Q_OBJECT

 private slots:
  void loopSumsAndGathers_data() {
    QTest::addColumn<bool>("fastPath");
    QTest::newRow("fast path") << true;
    QTest::newRow("interpreted") << false;
  }

  void loopSumsAndGathers() {
    QFETCH(bool, fastPath);
    ExecutorOptions options;
    options.fastPath = fastPath;
    auto outputs = run(imported(testing::loopSum()),
                       {{"M", scalar(DType::Int64, 3)}, {"cond", scalar(DType::Bool, 1)},
                        {"y", floats({2}, {1, 2})}, {"x", floats({2}, {0.5f, -1})}},
                       options);
    QVERIFY2(outputs.isOk(), outputs ? "" : outputs.error().str().c_str());
    QVERIFY(holds((*outputs)[0], {2}, {2.5, -1}));
    QVERIFY(holds((*outputs)[1], {3, 2}, {1.5, 1, 2, 0, 2.5, -1}));
  }

  /// A trip count of 0 or below, or a false condition, runs no iteration: the carried value comes
  /// back unchanged and the scan output is empty.
  void loopOfNoIterations_data() {
    QTest::addColumn<int64_t>("tripCount");
    QTest::addColumn<bool>("cond");
    QTest::newRow("M = 0") << int64_t{0} << true;
    QTest::newRow("M = -4") << int64_t{-4} << true;
    QTest::newRow("cond false") << int64_t{3} << false;
  }

  void loopOfNoIterations() {
    QFETCH(int64_t, tripCount);
    QFETCH(bool, cond);
    auto outputs = run(imported(testing::loopSum()),
                       {{"M", scalar(DType::Int64, static_cast<double>(tripCount))}, {"cond", scalar(DType::Bool, cond)},
                        {"y", floats({2}, {1, 2})}, {"x", floats({2}, {0.5f, -1})}});
    QVERIFY2(outputs.isOk(), outputs ? "" : outputs.error().str().c_str());
    QVERIFY(holds((*outputs)[0], {2}, {1, 2}));
    QVERIFY(holds((*outputs)[1], {0, 2}, {}));
  }

  void nestedLoopsRun() {
    auto outputs = run(imported(testing::loopNested()),
                       {{"M", scalar(DType::Int64, 2)}, {"cond", scalar(DType::Bool, 1)},
                        {"y", floats({2}, {1, 2})}, {"x", floats({2}, {0.5f, -1})}});
    QVERIFY2(outputs.isOk(), outputs ? "" : outputs.error().str().c_str());
    QVERIFY(holds((*outputs)[0], {2}, {4, -4}));
    QVERIFY(holds((*outputs)[1], {2, 2}, {2.5, -1, 4, -4}));
  }

  void ifInsideALoopBody() {
    auto outputs = run(imported(testing::loopWithIf()), {{"y", floats({1}, {1})}});
    QVERIFY2(outputs.isOk(), outputs ? "" : outputs.error().str().c_str());
    QVERIFY(holds((*outputs)[0], {1}, {6}));
  }

  void loopGrowsItsCarriedValue() {
    auto outputs = run(imported(testing::loopGrowing()), {{"y", floats({1}, {5})}});
    QVERIFY2(outputs.isOk(), outputs ? "" : outputs.error().str().c_str());
    QVERIFY(holds((*outputs)[0], {4}, {5, 0, 1, 2}));
  }

  void whileLoopStopsOnItsCondition() {
    auto outputs = run(imported(testing::loopWhile()), {{"y", scalar(DType::Float32, 3)}});
    QVERIFY2(outputs.isOk(), outputs ? "" : outputs.error().str().c_str());
    QVERIFY(holds((*outputs)[0], {}, {192}));
  }

  /// y = 0 doubles to 0 forever: the run stops at the limit with an error naming the loop.
  void loopThatNeverEndsStopsAtTheLimit() {
    ExecutorOptions options;
    options.maxLoopIterations = 50;
    auto outputs = run(imported(testing::loopWhile()), {{"y", scalar(DType::Float32, 0)}}, options);
    QVERIFY(!outputs.isOk());
    QCOMPARE(QString::fromStdString(outputs.error().str()),
             QStringLiteral("model.onnx: the loop %while_loop of node 'loop' did not end within 50 iterations of the "
                            "run's loops, the limit of loop iterations in one run"));
  }

  /// The iterations of nested loops count together, as they multiply: with M = 6 the outer loop
  /// and its inner loops iterate 6 + 6 x 6 = 42 times, within 50; with M = 8, 8 + 8 x 8 = 72 times,
  /// though no loop alone iterates more than 8 times.
  void nestedLoopsShareTheLimit() {
    ExecutorOptions options;
    options.maxLoopIterations = 50;
    const Module module = imported(testing::loopNested());
    for (int64_t trips : {6, 8}) {
      auto outputs = run(module,
                         {{"M", scalar(DType::Int64, static_cast<double>(trips))}, {"cond", scalar(DType::Bool, 1)},
                          {"y", floats({2}, {1, 2})}, {"x", floats({2}, {0.5f, -1})}},
                         options);
      QCOMPARE(outputs.isOk(), trips == 6);
      if (!outputs)
        QCOMPARE(QString::fromStdString(outputs.error().str()),
                 QStringLiteral("model.onnx: the loop %while_loop of node 'inner' did not end within 50 iterations of "
                                "the run's loops, the limit of loop iterations in one run"));
    }
  }

  /// The limit counts iterations: a loop of exactly that many runs, one more does not.
  void limitCountsIterations() {
    ExecutorOptions options;
    options.maxLoopIterations = 50;
    const Module module = imported(testing::loopSum());
    for (int64_t trips : {50, 51}) {
      auto outputs = run(module,
                         {{"M", scalar(DType::Int64, static_cast<double>(trips))}, {"cond", scalar(DType::Bool, 1)},
                          {"y", floats({2}, {0, 0})}, {"x", floats({2}, {1, 2})}},
                         options);
      QCOMPARE(outputs.isOk(), trips == 50);
      if (outputs) QVERIFY(holds((*outputs)[0], {2}, {50, 100}));
    }
  }

  void scanSumsRows() {
    auto outputs = run(imported(testing::scanSum()), {{"init", floats({2}, {0, 0})}, {"x", floats({3, 2}, {1, 2, 3, 4, 5, 6})}});
    QVERIFY2(outputs.isOk(), outputs ? "" : outputs.error().str().c_str());
    QVERIFY(holds((*outputs)[0], {2}, {9, 12}));
    QVERIFY(holds((*outputs)[1], {3, 2}, {1, 2, 4, 6, 9, 12}));
  }

  void scanReversesAlongAxes() {
    auto outputs = run(imported(testing::scanReverseColumns()),
                       {{"init", floats({2}, {0, 0})}, {"x", floats({2, 3}, {1, 2, 3, 4, 5, 6})}});
    QVERIFY2(outputs.isOk(), outputs ? "" : outputs.error().str().c_str());
    QVERIFY(holds((*outputs)[0], {2}, {6, 15}));
    QVERIFY(holds((*outputs)[1], {2, 3}, {6, 5, 3, 15, 11, 6}));
  }

  /// The dnnl target offloads the static convolution and relu of the body; the loop itself stays on
  /// the host and calls the region once per iteration.
  void loopBodyOffloadsToDnnl() {
    const Module module = partitionedFor(imported(testing::loopConv()), "dnnl");
    std::size_t regions = 0;
    for (const auto& [name, function] : module.functions()) regions += function->attrs.find("Compiler") != nullptr;
    QCOMPARE(regions, std::size_t{1});
    Result<std::unique_ptr<Executor>> executor = Executor::create(module);
    QVERIFY2(executor.isOk(), executor ? "" : executor.error().str().c_str());
    Result<std::vector<Value>> args = (*executor)->bindInputs({{"x", floats({1, 2, 1, 1}, {3, 1})}});
    QVERIFY(args.isOk());
    Result<Value> result = (*executor)->run(*args);
    QVERIFY2(result.isOk(), result ? "" : result.error().str().c_str());
    QVERIFY(holds(result->tensor(), {1, 2, 1, 1}, {6, 4}));
    QCOMPARE((*executor)->regions()[0].codegen, std::string("dnnl"));
    QCOMPARE((*executor)->regions()[0].calls, int64_t{2});
  }

  /// `byoc run --target dnnl` on the loop with a convolution: the region runs on oneDNN, the output
  /// file holds the values ONNX gives, and the reference run agrees.
  void cliRunsTheLoopOnDnnl() {
    QTemporaryDir dir;
    const std::string model = (dir.path() + "/loop.onnx").toStdString();
    const std::string input = (dir.path() + "/x.npy").toStdString();
    const std::string output = (dir.path() + "/y.npy").toStdString();
    QVERIFY(writeFileAtomic(model, testing::loopConv().bytes()).isOk());
    QVERIFY(writeNpy(input, floats({1, 2, 1, 1}, {3, 1})).isOk());
    QProcess process;
    process.start(QStringLiteral(BYOC_CLI_PATH),
                  {"run", QString::fromStdString(model), "--target", "dnnl", "--input", "x=" + QString::fromStdString(input),
                   "--output", QString::fromStdString(output), "--compare-reference"});
    QVERIFY(process.waitForFinished(60000));
    const QString out = QString::fromUtf8(process.readAllStandardOutput());
    QCOMPARE(QString::fromUtf8(process.readAllStandardError()), QString());
    QCOMPARE(process.exitCode(), 0);
    QVERIFY2(out.contains("  @tvmgen_default_dnnl_main_0  Compiler=dnnl  codegen=dnnl\n"), qPrintable(out));
    QVERIFY2(out.contains("  0  max abs error 0  max rel error 0  ok\n"), qPrintable(out));
    Result<NDArray> written = readNpy(output);
    QVERIFY(written.isOk());
    QVERIFY(holds(*written, {1, 2, 1, 1}, {6, 4}));
  }
};

QTEST_GUILESS_MAIN(TestOnnxLoopRuns)
#include "test_onnx_loop_runs.moc"
