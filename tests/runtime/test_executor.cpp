#include <QtTest>

#include "ir/op.h"
#include "runtime/compare.h"
#include "runtime/executor.h"
#include "support/limits.h"
#include "runtime_test_util.h"
#include "test_files.h"

using namespace byoc;
using namespace byoc::testing;

/// The executor: regions built by codegens and called by symbol, inputs checked by name.
class TestExecutor : public QObject {
  Q_OBJECT

 private slots:
  void userTargetRunsOnTheReferenceCodegen() {
    Module module = typedModule(regionModuleText("my-accel", "%x: Tensor[(2, 2), float32], %y: Tensor[(2, 2), float32]",
                                                 "%0 = add(%x, %y); nn.relu(%0)"));
    Result<std::unique_ptr<Executor>> executor = Executor::create(module);
    QVERIFY(executor.isOk());
    QCOMPARE((*executor)->regions().size(), std::size_t{1});
    const RegionInfo& region = (*executor)->regions()[0];
    QCOMPARE(region.codegen, std::string("reference"));
    QCOMPARE(region.compiler, std::string("my-accel"));
    QCOMPARE(region.symbol, std::string("tvmgen_default_my-accel_main_0"));
    std::vector<Value> args = {NDArray::fromFloats({2, 2}, std::vector<float>{1, -2, 3, -4}),
                               NDArray::fromFloats({2, 2}, std::vector<float>{1, 1, 1, 1})};
    Result<Value> out = (*executor)->run(args);
    QVERIFY(out.isOk());
    QCOMPARE(out->tensor().data<float>()[0], 2.0f);
    QCOMPARE(out->tensor().data<float>()[1], 0.0f);
    QCOMPARE((*executor)->regions()[0].calls, int64_t{1});
    (*executor)->resetTimings();
    QCOMPARE((*executor)->regions()[0].calls, int64_t{0});
  }

  void demoRunsWithAReferenceRegion() {
    // The demo loop with the loop body's conv → bias_add → relu outlined for a user target.
    const std::string text =
        "def @region(%d: Tensor[(1, 4, 6, 6), float32], %w: Tensor[(4, 4, 3, 3), float32], %b: Tensor[(4), float32], "
        "Compiler=\"byoc-target\", global_symbol=\"byoc-target_main_0\", Primitive=1, Inline=1) {\n"
        "  %0 = nn.conv2d(%d, %w, padding=[1, 1, 1, 1]); %1 = nn.bias_add(%0, %b); nn.relu(%1)\n"
        "}\n"
        "def @main(%data: Tensor[(1, 4, 6, 6), float32], %weight: Tensor[(4, 4, 3, 3), float32], %bias: Tensor[(4), float32]) {\n"
        "  let %loop = fn (%i: int32, %d1: Tensor[(1, 4, 6, 6), float32]) -> Tensor[(1, 4, 6, 6), float32] {\n"
        "    if (less(%i, 2)) { %loop(add(%i, 1), @region(%d1, %weight, %bias)) } else { @region(%d1, %weight, %bias) }\n"
        "  };\n"
        "  %loop(0, %data)\n"
        "}\n";
    Result<std::unique_ptr<Executor>> executor = Executor::create(typedModule(text));
    QVERIFY(executor.isOk());
    NDArray data = randomTensor({1, 4, 6, 6}, 1), weight = randomTensor({4, 4, 3, 3}, 2, 0.3f), bias = randomTensor({4}, 3);
    Result<Value> out = (*executor)->run(std::vector<Value>{data, weight, bias});
    QVERIFY(out.isOk());
    QCOMPARE((*executor)->regions()[0].calls, int64_t{3});
    NDArray expected = data;
    for (int i = 0; i < 3; ++i) {
      expected = naiveConv2d(expected, weight, 1, 1, 1, 1);
      for (int64_t k = 0; k < expected.numElements(); ++k)
        expected.data<float>()[k] = std::max(0.0f, expected.data<float>()[k] + bias.data<float>()[k / 36]);
    }
    QCOMPARE(toleranceExcess(out->tensor(), expected), 0.0);
  }

  void relaxCodegenAttributeMarksARegion() {
    Result<std::unique_ptr<Executor>> executor = Executor::create(typedModule(
        "def @fused_nn_conv2d_dnnl(%x: Tensor[(1, 2, 4, 4), float32], %w: Tensor[(2, 2, 1, 1), float32], Codegen=\"dnnl\", "
        "global_symbol=\"fused_nn_conv2d_dnnl\") { nn.conv2d(%x, %w) }\n"
        "def @main(%x: Tensor[(1, 2, 4, 4), float32], %w: Tensor[(2, 2, 1, 1), float32]) { @fused_nn_conv2d_dnnl(%x, %w) }\n"));
    QVERIFY(executor.isOk());
    QCOMPARE((*executor)->regions().size(), std::size_t{1});
    QCOMPARE((*executor)->regions()[0].codegen, std::string("dnnl"));
    QCOMPARE((*executor)->regions()[0].symbol, std::string("fused_nn_conv2d_dnnl"));
  }

  void seed000PartitionedDemoMatchesTheDemo() {
    // The module PartitionGraph prints at the end of seed 000: three byoc-target regions called
    // from the while loop, run on the reference codegen, against the unpartitioned demo.
    Result<std::unique_ptr<Executor>> partitioned = Executor::create(typedModule(readTestData("runtime/seed000_partitioned.relay")));
    Result<std::unique_ptr<Executor>> plain = Executor::create(typedModule(readTestData("text/demo.relay")));
    QVERIFY(partitioned.isOk() && plain.isOk());
    std::vector<Value> args = {randomTensor({1, 32, 56, 56}, 1), randomTensor({32, 32, 3, 3}, 2, 0.06f), randomTensor({32}, 3)};
    Result<Value> a = (*partitioned)->run(args);
    Result<Value> b = (*plain)->run(args);
    QVERIFY(a.isOk() && b.isOk());
    QCOMPARE(toleranceExcess(a->tensor(), b->tensor(), 0, 0), 0.0);
    std::vector<int64_t> calls;
    for (const RegionInfo& region : (*partitioned)->regions()) calls.push_back(region.calls);
    QCOMPARE(calls, (std::vector<int64_t>{2, 2, 1}));
  }

  void bindInputsChecksNamesShapesAndDTypes() {
    Result<std::unique_ptr<Executor>> executor =
        Executor::create(typedModule("def @main(%a: Tensor[(2, 3), float32], %b: int32) { %a }\n"));
    QVERIFY(executor.isOk());
    std::map<std::string, NDArray> inputs = {{"a", NDArray::zeros(DType::Float32, {2, 3})}};
    Result<std::vector<Value>> missing = (*executor)->bindInputs(inputs);
    QCOMPARE(QString::fromStdString(missing.error().message), QString("missing input %b: expected int32"));
    inputs["b"] = NDArray::zeros(DType::Float32, {});
    Result<std::vector<Value>> wrongDType = (*executor)->bindInputs(inputs);
    QCOMPARE(QString::fromStdString(wrongDType.error().message), QString("input %b: expected int32, got float32"));
    inputs["b"] = NDArray::zeros(DType::Int32, {});
    inputs["a"] = NDArray::zeros(DType::Float32, {3, 2});
    Result<std::vector<Value>> wrongShape = (*executor)->bindInputs(inputs);
    QCOMPARE(QString::fromStdString(wrongShape.error().message),
             QString("input %a: expected Tensor[(2, 3), float32], got Tensor[(3, 2), float32]"));
    inputs["c"] = NDArray::zeros(DType::Int32, {});
    Result<std::vector<Value>> unknown = (*executor)->bindInputs(inputs);
    QCOMPARE(QString::fromStdString(unknown.error().message), QString("unknown input %c: the model's inputs are %a, %b"));
    inputs.erase("c");
    inputs["a"] = NDArray::zeros(DType::Float32, {2, 3});
    QVERIFY((*executor)->bindInputs(inputs).isOk());
  }

  void unknownCodegenIsAnError() {
    ExecutorOptions options;
    options.codegens["t"] = "fpga";
    Result<std::unique_ptr<Executor>> executor =
        Executor::create(typedModule(regionModuleText("t", "%x: Tensor[(2), float32]", "nn.relu(%x)")), options);
    QVERIFY(!executor.isOk());
    QCOMPARE(QString::fromStdString(executor.error().message),
             QString("@tvmgen_default_t_main_0: unknown codegen \"fpga\" for Compiler=\"t\""));
  }

  void runsCanBeCancelled() {
    std::atomic<bool> cancel{true};
    ExecutorOptions options;
    options.cancel = &cancel;
    for (bool fastPath : {true, false}) {
      options.fastPath = fastPath;
      Result<std::unique_ptr<Executor>> executor =
          Executor::create(typedModule("def @main(%x: Tensor[(2), float32]) { %0 = exp(%x); negative(%0) }\n"), options);
      QVERIFY(executor.isOk());
      std::vector<Value> args = {NDArray::zeros(DType::Float32, {2})};
      Result<Value> cancelled = (*executor)->run(args);
      QVERIFY(!cancelled.isOk());
      QCOMPARE(QString::fromStdString(cancelled.error().message), QString("the run was cancelled"));
      cancel = false;
      QVERIFY((*executor)->run(args).isOk());
      cancel = true;
    }
  }

  void moduleWithoutMain() {
    Result<std::unique_ptr<Executor>> executor = Executor::create(typedModule("def @f(%x: float32) { %x }\n"));
    QVERIFY(!executor.isOk());
    QCOMPARE(QString::fromStdString(executor.error().message), QString("the module has no @main function to run"));
  }

  void threadsOutsideTheLimitAreRefused() {
    Module module = typedModule("def @main(%x: Tensor[(2), float32]) { nn.relu(%x) }\n");
    for (int threads : {0, -3, limits::kMaxThreads + 1}) {
      ExecutorOptions options;
      options.threads = threads;
      Result<std::unique_ptr<Executor>> executor = Executor::create(module, options);
      QVERIFY(!executor.isOk());
      QCOMPARE(executor.error().message, "expected 1 to 1024 threads, found " + std::to_string(threads));
    }
  }

  void tensorsNoArrayCanHoldAreRefusedBeforeAnythingRuns() {
    // Built in code: a reader would refuse these types already.
    for (const Shape& shape : {Shape{100000, 100000, 100000}, Shape(40, 1)}) {
      Var x = VarNode::make("x", tensorType(shape, DType::Float32));
      Module module;
      module.set("main", FunctionNode::make({x}, makeOpCall("nn.relu", {x}).value()));
      Result<std::unique_ptr<Executor>> executor = Executor::create(module);
      QVERIFY(!executor.isOk());
      // Type inference or the executor's own check, whichever sees the type first, names the limit.
      const std::string& message = executor.error().message;
      QVERIFY2(message.ends_with(limits::shapeProblem(shape)), message.c_str());
    }
    TensorTypeNode huge({100000, 100000, 100000}, DType::Float32);
    QCOMPARE(allocationProblem(huge), std::string("more than 4294967296 elements (the limit of one tensor)"));
    TensorTypeNode unknown({1, kAnyDim}, DType::Float32);
    QCOMPARE(allocationProblem(unknown), std::string("dimension 1 is unknown"));
    TensorTypeNode negative({1, -3}, DType::Float32);
    QCOMPARE(allocationProblem(negative), std::string("dimension 1 is -3, expected 0 or more"));
  }

  void compareArraysReportsTheLargestErrors() {
    NDArray expected = NDArray::fromFloats({3}, std::vector<float>{1, -2, 0});
    NDArray close = NDArray::fromFloats({3}, std::vector<float>{1.0005f, -2, 0.0005f});
    Difference near = compareArrays(close, expected, 1e-3, 1e-3);
    QVERIFY(near.within);
    QVERIFY(std::abs(near.maxAbsolute - 5e-4) < 1e-6);
    QVERIFY(std::abs(near.maxRelative - 5e-4) < 1e-6);
    NDArray far = NDArray::fromFloats({3}, std::vector<float>{1, -2.01f, 0});
    QVERIFY(!compareArrays(far, expected, 1e-3, 1e-3).within);
    QVERIFY(!compareArrays(expected.reshaped({1, 3}), expected, 1, 1).within);
  }

  void builtinCodegens() { QCOMPARE(codegenNames(), (std::vector<std::string>{"dnnl", "reference"})); }

  void randomInputsAreDeterministic() {
    const Type owner = tensorType({3, 4}, DType::Float32);
    const auto* type = owner->as<TensorTypeNode>();
    NDArray a = randomTensorOf(*type, 7), b = randomTensorOf(*type, 7), c = randomTensorOf(*type, 8);
    QCOMPARE(toleranceExcess(a, b, 0, 0), 0.0);
    QVERIFY(toleranceExcess(a, c, 0, 0) > 0);
    for (int64_t i = 0; i < a.numElements(); ++i) QVERIFY(std::abs(a.data<float>()[i]) <= 1.0f);
  }
};

QTEST_GUILESS_MAIN(TestExecutor)
#include "test_executor.moc"
