#include <QtTest>

#include <regex>

#include "runtime/executor.h"
#include "runtime/kernels/kernel.h"
#include "runtime/run_time_type.h"
#include "runtime_test_util.h"

using namespace byoc;
using namespace byoc::testing;

namespace {

/// An attention block over a sequence of unknown length `?`: dense, reshape with -1, transposes,
/// batch_matmul, softmax, a residual add and a mean, as the dynamic encoder has them.
const char* const kAttention =
    "def @main(%x: Tensor[(?, 8), float32], %w: Tensor[(8, 8), float32]) {\n"
    "  %0 = nn.dense(%x, %w, units=8);\n"
    "  %1 = reshape(%0, newshape=[-1, 2, 4]);\n"
    "  %2 = transpose(%1, axes=[1, 0, 2]);\n"
    "  %3 = nn.batch_matmul(%2, %2, transpose_b=True);\n"
    "  %4 = nn.softmax(%3, axis=2);\n"
    "  %5 = nn.batch_matmul(%4, %2, transpose_b=False);\n"
    "  %6 = transpose(%5, axes=[1, 0, 2]);\n"
    "  %7 = reshape(%6, newshape=[0, 8]);\n"
    "  %8 = add(%x, %7);\n"
    "  subtract(%8, mean(%8, axis=[-1], keepdims=True))\n"
    "}\n";

/// `text` with every `?` replaced by `length`.
std::string withLength(const std::string& text, int64_t length) {
  return std::regex_replace(text, std::regex("\\?"), std::to_string(length));
}

Result<Value> runOn(const Module& module, std::vector<Value> args, bool fastPath = true) {
  ExecutorOptions options;
  options.fastPath = fastPath;
  Result<std::unique_ptr<Executor>> executor = Executor::create(module, options);
  if (!executor) return executor.error();
  return (*executor)->run(args);
}

}  // namespace

/// Programs typed with unknown dimensions (`?`) run on concrete inputs: each op call's type is
/// resolved per run from its arguments.
class TestDynamicShapes : public QObject {
  Q_OBJECT

 private slots:
  /// One executor runs the dynamic attention block at two sequence lengths; each result equals
  /// the reference interpreter's on the same program with the length written in.
  void oneExecutorRunsTwoLengthsAsTheStaticProgram() {
    Result<std::unique_ptr<Executor>> executor = Executor::create(typedModule(kAttention));
    QVERIFY2(executor.isOk(), executor ? "" : executor.error().str().c_str());
    const NDArray weight = randomTensor({8, 8}, 7, 0.5f);
    for (int64_t length : {3, 11}) {
      const NDArray x = randomTensor({length, 8}, static_cast<unsigned>(length));
      Result<Value> dynamic = (*executor)->run(std::vector<Value>{x, weight});
      QVERIFY2(dynamic.isOk(), dynamic ? "" : dynamic.error().str().c_str());
      Result<Value> reference = runOn(typedModule(withLength(kAttention, length)), {x, weight}, false);
      QVERIFY(reference.isOk());
      QCOMPARE(dynamic->tensor().shape(), (Shape{length, 8}));
      QCOMPARE(toleranceExcess(dynamic->tensor(), reference->tensor(), 0, 0), 0.0);
    }
  }

  /// The static program still runs through the planned dataflow program; the dynamic one is
  /// interpreted, with the same result.
  void fastPathAndInterpreterAgreeOnTheStaticForm() {
    const NDArray x = randomTensor({5, 8}, 1), weight = randomTensor({8, 8}, 2, 0.5f);
    Result<Value> planned = runOn(typedModule(withLength(kAttention, 5)), {x, weight}, true);
    Result<Value> dynamic = runOn(typedModule(kAttention), {x, weight}, true);
    QVERIFY(planned.isOk() && dynamic.isOk());
    QCOMPARE(toleranceExcess(dynamic->tensor(), planned->tensor(), 0, 0), 0.0);
  }

  /// shape_of gives the run-time shape; dyn.reshape reshapes to a shape computed from it (here the
  /// shape reversed), its result type computed from newshape's values.
  void shapeOfAndDynReshape() {
    const std::string text =
        "def @main(%x: Tensor[(?, ?, 4), float32]) {\n"
        "  %0 = shape_of(%x, dtype=\"int64\");\n"
        "  %1 = strided_slice(%0, begin=[2], end=[-4], strides=[-1], axes=[0]);\n"
        "  (%0, dyn.reshape(%x, %1))\n"
        "}\n";
    Module module = typedModule(text);
    QCOMPARE(typeToString(module.find("main")->body->type()), std::string("(Tensor[(3), int64], Tensor[(?, ?, ?), float32])"));
    const NDArray x = randomTensor({2, 3, 4}, 3);
    Result<Value> out = runOn(module, {x});
    QVERIFY2(out.isOk(), out ? "" : out.error().str().c_str());
    const NDArray& shape = out->fields()[0].tensor();
    QCOMPARE((std::vector<int64_t>(shape.data<int64_t>(), shape.data<int64_t>() + 3)), (std::vector<int64_t>{2, 3, 4}));
    const NDArray& reshaped = out->fields()[1].tensor();
    QCOMPARE(reshaped.shape(), (Shape{4, 3, 2}));
    QCOMPARE(toleranceExcess(reshaped.reshaped({2, 3, 4}), x, 0, 0), 0.0);
  }

  /// A run whose sizes do not fit is refused at the op, in one line naming it and the sizes.
  void sizesThatDoNotFitAtRunTimeAreNamed() {
    const std::string text =
        "def @main(%x: Tensor[(?, 4), float32], %y: Tensor[(?, 4), float32]) { add(%x, %y) }\n";
    Result<Value> out = runOn(typedModule(text), {randomTensor({2, 4}, 1), randomTensor({3, 4}, 2)});
    QVERIFY(!out.isOk());
    QCOMPARE(out.error().message, std::string("add: shapes (2, 4) and (3, 4) cannot be broadcast together"));
    const std::string reshape =
        "def @main(%x: Tensor[(?), float32], %s: Tensor[(2), int64]) { dyn.reshape(%x, %s) }\n";
    NDArray target = NDArray::empty(DType::Int64, {2});
    target.data<int64_t>()[0] = 4;
    target.data<int64_t>()[1] = 2;
    out = runOn(typedModule(reshape), {randomTensor({6}, 1), target});
    QVERIFY(!out.isOk());
    QCOMPARE(out.error().message, std::string("dyn.reshape to [4, 2]: reshape: cannot reshape (6) (6 elements) into (4, 2)"));
  }

  /// Inputs bind when their sizes fill the unknown dimensions; a known dimension must match.
  void inputsFillUnknownDimensions() {
    Result<std::unique_ptr<Executor>> executor = Executor::create(typedModule(kAttention));
    QVERIFY(executor.isOk());
    const NDArray weight = randomTensor({8, 8}, 7);
    QVERIFY((*executor)->bindInputs({{"x", randomTensor({9, 8}, 1)}, {"w", weight}}).isOk());
    Result<std::vector<Value>> bad = (*executor)->bindInputs({{"x", randomTensor({9, 7}, 1)}, {"w", weight}});
    QVERIFY(!bad.isOk());
    QCOMPARE(bad.error().message, std::string("input %x: expected Tensor[(?, 8), float32], got Tensor[(9, 7), float32]"));
    QCOMPARE(concreteShape({kAnyDim, 8}, {9, 8}).value(), (Shape{9, 8}));
    QCOMPARE(concreteShape({kAnyDim, 8}, {9}).error().message, std::string("shape (9) has rank 1; expected (?, 8)"));
    QCOMPARE(concreteShape({kAnyDim, 8}, {9, 2}).error().message,
             std::string("shape (9, 2) gives dimension 1 the size 2; expected (?, 8)"));
  }

  /// argwhere's row count comes from the values: a static input gives a result of unknown length.
  void argwhereCountsTheNonZeroElements() {
    Module module = typedModule("def @main(%x: Tensor[(2, 3), float32]) { argwhere(%x) }\n");
    QCOMPARE(typeToString(module.find("main")->body->type()), std::string("Tensor[(?, 2), int32]"));
    Result<Value> out = runOn(module, {NDArray::fromFloats({2, 3}, std::vector<float>{0, 1, 0, 2, 0, 3})});
    QVERIFY2(out.isOk(), out ? "" : out.error().str().c_str());
    const NDArray& rows = out->tensor();
    QCOMPARE(rows.shape(), (Shape{3, 2}));
    QCOMPARE((std::vector<int32_t>(rows.data<int32_t>(), rows.data<int32_t>() + 6)), (std::vector<int32_t>{0, 1, 1, 0, 1, 2}));
    out = runOn(module, {NDArray::fromFloats({2, 3}, std::vector<float>(6, 0.0f))});
    QVERIFY(out.isOk());
    QCOMPARE(out->tensor().shape(), (Shape{0, 2}));
  }

  /// A region with a dimension known only at run time is refused before any codegen builds it.
  void aDynamicRegionIsRefused() {
    const std::string text =
        "def @region(%a: Tensor[(?, 4), float32], Compiler=\"my-accel\", global_symbol=\"r\", Primitive=1) { nn.relu(%a) }\n"
        "def @main(%x: Tensor[(?, 4), float32]) { @region(%x) }\n";
    Result<std::unique_ptr<Executor>> executor = Executor::create(typedModule(text));
    QVERIFY(!executor.isOk());
    QCOMPARE(executor.error().message,
             std::string("@region: the region has a dimension known only at run time, in Tensor[(?, 4), float32]; a codegen "
                         "compiles static shapes only (static_shape() in a target's rules keeps such calls on the host)"));
  }

  /// Only dyn.reshape needs the values of its inputs to know its result type.
  void valueDependentShapeFunctions() {
    QVERIFY(kernels::findShapeFunction("dyn.reshape") != nullptr);
    QVERIFY(kernels::findShapeFunction("reshape") == nullptr);
    QVERIFY(isStaticType(tensorType({2, 3}, DType::Float32)));
    QVERIFY(!isStaticType(tupleType({tensorType({2}, DType::Float32), tensorType({kAnyDim}, DType::Float32)})));
  }
};

QTEST_GUILESS_MAIN(TestDynamicShapes)
#include "test_dynamic_shapes.moc"
