#include <QtTest>

#include "runtime/dataflow_program.h"
#include "runtime/interpreter.h"
#include "runtime_test_util.h"
#include "test_files.h"

using namespace byoc;
using namespace byoc::testing;

namespace {

NDArray scalarInt(int32_t value) {
  NDArray array = NDArray::empty(DType::Int32, {});
  array.data<int32_t>()[0] = value;
  return array;
}

Result<Value> runMain(const std::string& text, std::vector<Value> args, bool fastPath = true) {
  Interpreter interpreter(typedModule(text));
  interpreter.setFastPath(fastPath);
  return interpreter.call("main", args);
}

/// relu(x + b) per channel, NCHW.
NDArray biasRelu(const NDArray& x, const NDArray& bias) {
  NDArray y = x.clone();
  const int64_t channels = x.shape()[1];
  const int64_t plane = x.shape()[2] * x.shape()[3];
  for (int64_t i = 0; i < y.numElements(); ++i) {
    float& v = y.data<float>()[i];
    v = std::max(0.0f, v + bias.data<float>()[(i / plane) % channels]);
  }
  return y;
}

}  // namespace

/// The interpreter: control flow, closures, recursion without stack growth, the dataflow fast path.
class TestInterpreter : public QObject {
  Q_OBJECT

 private slots:
  void demoLoopRunsToCompletion() {
    NDArray data = randomTensor({1, 32, 56, 56}, 1);
    NDArray weight = randomTensor({32, 32, 3, 3}, 2, 0.06f);
    NDArray bias = randomTensor({32}, 3);
    Result<Value> out = runMain(readTestData("text/demo.relay"), {data, weight, bias});
    QVERIFY2(out.isOk(), out.isOk() ? "" : out.error().str().c_str());
    // Two loop iterations and the final else branch: three conv → bias_add → relu, then reshape.
    NDArray expected = data;
    for (int i = 0; i < 3; ++i) expected = biasRelu(naiveConv2d(expected, weight, 1, 1, 1, 1), bias);
    QCOMPARE(out->tensor().shape(), (Shape{1, 56, 56, 32}));
    QCOMPARE(toleranceExcess(out->tensor(), expected.reshaped({1, 56, 56, 32})), 0.0);
  }

  void closuresCaptureTheirEnvironment() {
    Result<Value> out = runMain(
        "def @main(%x: Tensor[(2), float32], %y: Tensor[(2), float32]) {\n"
        "  let %f = fn (%z: Tensor[(2), float32]) { multiply(%x, %z) };\n"
        "  let %g = %f;\n"
        "  %g(%y)\n"
        "}\n",
        {NDArray::fromFloats({2}, std::vector<float>{2, 3}), NDArray::fromFloats({2}, std::vector<float>{5, 7})});
    QVERIFY(out.isOk());
    QCOMPARE(out->tensor().data<float>()[0], 10.0f);
    QCOMPARE(out->tensor().data<float>()[1], 21.0f);
  }

  void closuresReturnedFromFunctions() {
    // A function returning a closure over its argument, applied twice.
    Result<Value> out = runMain(
        "def @main(%x: float32) {\n"
        "  let %make = fn (%a: float32) -> fn (float32) -> float32 { fn (%b: float32) -> float32 { multiply(%a, %b) } };\n"
        "  let %triple = %make(3f);\n"
        "  let %twice = %make(2f);\n"
        "  add(%triple(%x), %twice(%x))\n"
        "}\n",
        {NDArray::fromFloats({}, std::vector<float>{4})});
    QVERIFY2(out.isOk(), out.isOk() ? "" : out.error().str().c_str());
    QCOMPARE(out->tensor().data<float>()[0], 20.0f);
  }

  void tuplesAndIf() {
    const std::string text =
        "def @main(%c: bool, %x: Tensor[(3), float32]) {\n"
        "  %0 = (%x, negative(%x));\n"
        "  if (%c) { %0.0 } else { %0.1 }\n"
        "}\n";
    NDArray yes = NDArray::empty(DType::Bool, {});
    yes.data<bool>()[0] = true;
    NDArray no = NDArray::zeros(DType::Bool, {});
    NDArray x = NDArray::fromFloats({3}, std::vector<float>{1, -2, 3});
    Result<Value> taken = runMain(text, {yes, x});
    Result<Value> other = runMain(text, {no, x});
    QVERIFY(taken.isOk() && other.isOk());
    QCOMPARE(taken->tensor().data<float>()[1], -2.0f);
    QCOMPARE(other->tensor().data<float>()[1], 2.0f);
  }

  void deepTailRecursionRunsInConstantStack() {
    // A while loop of 200,000 iterations written as let-bound tail recursion.
    Result<Value> out = runMain(
        "def @main(%n: int32) {\n"
        "  let %loop = fn (%i: int32, %acc: int32) -> int32 {\n"
        "    if (less(%i, %n)) { %loop(add(%i, 1), add(%acc, 2)) } else { %acc }\n"
        "  };\n"
        "  %loop(0, 0)\n"
        "}\n",
        {scalarInt(200000)});
    QVERIFY2(out.isOk(), out.isOk() ? "" : out.error().str().c_str());
    QCOMPARE(out->tensor().data<int32_t>()[0], 400000);
  }

  void deepNonTailRecursionThroughAGlobal() {
    // sum(n) = n + sum(n - 1): 20,000 pending calls live on the heap, not the C++ stack.
    Result<Value> out = runMain(
        "def @sum(%n: int32) -> int32 {\n"
        "  if (equal(%n, 0)) { 0 } else { add(%n, @sum(subtract(%n, 1))) }\n"
        "}\n"
        "def @main(%n: int32) { @sum(%n) }\n",
        {scalarInt(20000)});
    QVERIFY(out.isOk());
    QCOMPARE(out->tensor().data<int32_t>()[0], 20000 * 20001 / 2);
  }

  void fastPathPlansAndReusesMemory() {
    Module module = typedModule(
        "def @main(%x: Tensor[(64, 64), float32]) {\n"
        "  %0 = nn.relu(%x); %1 = exp(%0); %2 = negative(%1); %3 = sigmoid(%2); %4 = tanh(%3);\n"
        "  %5 = split(%4, indices_or_sections=2, axis=1);\n"
        "  add(%5.0, %5.1)\n"
        "}\n");
    Result<std::shared_ptr<DataflowProgram>> program = DataflowProgram::compile(module.find("main"), &module);
    QVERIFY(program.isOk());
    QCOMPARE((*program)->stepCount(), std::size_t{7});
    QVERIFY((*program)->poolBytes() < (*program)->intermediateBytes());
    NDArray x = randomTensor({64, 64}, 9);
    Result<std::vector<NDArray>> first = (*program)->run(std::vector<NDArray>{x});
    Result<std::vector<NDArray>> second = (*program)->run(std::vector<NDArray>{x});
    Interpreter slow(module);
    slow.setFastPath(false);
    Result<Value> reference = slow.call("main", std::vector<Value>{x});
    QVERIFY(first.isOk() && second.isOk() && reference.isOk());
    QCOMPARE(toleranceExcess((*first)[0], reference->tensor(), 0, 0), 0.0);
    QCOMPARE(toleranceExcess((*second)[0], reference->tensor(), 0, 0), 0.0);
  }

  void compositeCallsRunInline() {
    const std::string text =
        "def @main(%a: Tensor[(1, 2, 4, 4), float32], %w: Tensor[(3, 2, 1, 1), float32], %b: Tensor[(3), float32]) {\n"
        "  %1 = fn (%p0: Tensor[(1, 2, 4, 4), float32], %p1: Tensor[(3, 2, 1, 1), float32], %p2: Tensor[(3), float32], Composite=\"dnnl.conv2d_bias_relu\") {\n"
        "    %0 = nn.conv2d(%p0, %p1); %2 = nn.bias_add(%0, %p2); nn.relu(%2)\n"
        "  };\n"
        "  %1(%a, %w, %b)\n"
        "}\n";
    NDArray a = randomTensor({1, 2, 4, 4}, 4), w = randomTensor({3, 2, 1, 1}, 5), b = randomTensor({3}, 6);
    Result<Value> fast = runMain(text, {a, w, b}, true);
    Result<Value> slow = runMain(text, {a, w, b}, false);
    QVERIFY(fast.isOk() && slow.isOk());
    NDArray expected = biasRelu(naiveConv2d(a, w, 1, 0, 1, 1), b);
    QCOMPARE(toleranceExcess(fast->tensor(), expected), 0.0);
    QCOMPARE(toleranceExcess(slow->tensor(), expected), 0.0);
  }

  void externalCallsRunInsidePlannedPrograms() {
    // A partitioned @main: host ops around a call of an offloaded region, all one planned program.
    Module module = typedModule(
        "def @region(%a: Tensor[(4), float32], Compiler=\"t\") { negative(%a) }\n"
        "def @main(%x: Tensor[(4), float32]) { %0 = exp(%x); %1 = @region(%0); add(%1, %x) }\n");
    int calls = 0;
    ExternalTable externals;
    externals.globals["region"] = [&calls](std::span<const NDArray> inputs, std::span<const NDArray> outputs) {
      ++calls;
      for (int64_t i = 0; i < 4; ++i) outputs[0].data<float>()[i] = 10 * inputs[0].data<float>()[i];
      return Status::ok();
    };
    Result<std::shared_ptr<DataflowProgram>> program = DataflowProgram::compile(module.find("main"), &module, &externals);
    QVERIFY(program.isOk());
    QCOMPARE((*program)->stepCount(), std::size_t{3});
    Interpreter interpreter(module, externals);
    Result<Value> out = interpreter.call("main", std::vector<Value>{NDArray::zeros(DType::Float32, {4})});
    QVERIFY(out.isOk());
    QCOMPARE(calls, 1);
    QCOMPARE(out->tensor().data<float>()[2], 10.0f);
    // Without the external table the global call is not dataflow.
    Result<std::shared_ptr<DataflowProgram>> plain = DataflowProgram::compile(module.find("main"), &module);
    QCOMPARE(QString::fromStdString(plain.error().message), QString("not pure dataflow: calls a GlobalVar"));
  }

  void dataflowRejectsControlFlow() {
    Module module = typedModule("def @main(%c: bool, %x: float32) { if (%c) { %x } else { negative(%x) } }\n");
    Result<std::shared_ptr<DataflowProgram>> program = DataflowProgram::compile(module.find("main"), &module);
    QVERIFY(!program.isOk());
    QCOMPARE(QString::fromStdString(program.error().message), QString("not pure dataflow: contains a If"));
  }

  void kernelErrorsNameTheNode() {
    Result<Value> out = runMain(
        "def @main(%x: Tensor[(2), float16]) {\n"
        "  exp(%x)\n"
        "}\n",
        {NDArray::zeros(DType::Float16, {2})}, false);
    QVERIFY(!out.isOk());
    QCOMPARE(QString::fromStdString(out.error().str()),
             QString("in.relay:2:3: exp: float16 is not supported by the reference kernels"));
  }

  void wrongArgumentCount() {
    Interpreter interpreter(typedModule("def @main(%x: float32) { %x }\n"));
    Result<Value> out = interpreter.call("main", {});
    QVERIFY(!out.isOk());
    QCOMPARE(QString::fromStdString(out.error().message), QString("function expects 1 arguments, got 0"));
    Result<Value> missing = interpreter.call("nope", {});
    QCOMPARE(QString::fromStdString(missing.error().message), QString("the module has no function @nope"));
  }
};

QTEST_GUILESS_MAIN(TestInterpreter)
#include "test_interpreter.moc"
