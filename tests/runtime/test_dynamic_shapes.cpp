#include <QtTest>

#include <limits>
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

/// A 1-D int64 tensor of `values`.
NDArray ints(std::vector<int64_t> values) {
  NDArray array = NDArray::empty(DType::Int64, {static_cast<int64_t>(values.size())});
  std::copy(values.begin(), values.end(), array.data<int64_t>());
  return array;
}

std::vector<int64_t> int64s(const NDArray& array) {
  return {array.data<int64_t>(), array.data<int64_t>() + array.numElements()};
}

std::vector<float> floats(const NDArray& array) { return {array.data<float>(), array.data<float>() + array.numElements()}; }

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

  /// A newshape tensor of length 0 types the result a scalar before its input's values are
  /// known: one element reshapes to it, more are an error (not a copy between arrays of different
  /// sizes), on the fast path and interpreted.
  void reshapeToAScalarReadAtRunTime_data() {
    QTest::addColumn<bool>("fastPath");
    QTest::newRow("fast path") << true;
    QTest::newRow("interpreted") << false;
  }

  void reshapeToAScalarReadAtRunTime() {
    QFETCH(bool, fastPath);
    const std::string text = "def @main(%x: Tensor[(?), float32], %s: Tensor[(0), int64]) { dyn.reshape(%x, %s) }\n";
    Module module = typedModule(text);
    QCOMPARE(typeToString(module.find("main")->body->type()), std::string("float32"));
    Result<Value> out = runOn(module, {NDArray::fromFloats({1}, std::vector<float>{2.5f}), ints({})}, fastPath);
    QVERIFY2(out.isOk(), out ? "" : out.error().str().c_str());
    QCOMPARE(out->tensor().shape(), Shape{});
    QCOMPARE(floats(out->tensor()), std::vector<float>{2.5f});
    Module six = typedModule(std::regex_replace(text, std::regex("\\?"), "6"));
    out = runOn(six, {randomTensor({6}, 1), ints({})}, fastPath);
    QVERIFY(!out.isOk());
    QCOMPARE(out.error().message, std::string("dyn.reshape to []: reshape: cannot reshape (6) (6 elements) into ()"));
  }

  /// dyn.topk's k read from a tensor is a count, as ONNX TopK's K: 0 gives an empty axis (values
  /// and indices), where topk's attribute k of 0 keeps the whole axis.
  void topkOfNoneIsEmpty_data() { reshapeToAScalarReadAtRunTime_data(); }

  void topkOfNoneIsEmpty() {
    QFETCH(bool, fastPath);
    Module module = typedModule("def @main(%x: Tensor[(2, 8), float32], %k: Tensor[(1), int64]) {\n"
                                "  dyn.topk(%x, %k, axis=1, dtype=\"int64\")\n"
                                "}\n");
    Result<Value> out = runOn(module, {randomTensor({2, 8}, 1), ints({0})}, fastPath);
    QVERIFY2(out.isOk(), out ? "" : out.error().str().c_str());
    QCOMPARE(out->fields()[0].tensor().shape(), (Shape{2, 0}));
    QCOMPARE(out->fields()[1].tensor().shape(), (Shape{2, 0}));
    QCOMPARE(out->fields()[1].tensor().dtype(), DType::Int64);
    Module whole = typedModule("def @main(%x: Tensor[(2, 8), float32]) { topk(%x, k=0, axis=1, dtype=\"int64\") }\n");
    out = runOn(whole, {randomTensor({2, 8}, 1)}, fastPath);
    QVERIFY2(out.isOk(), out ? "" : out.error().str().c_str());
    QCOMPARE(out->fields()[0].tensor().shape(), (Shape{2, 8}));
  }

  /// take in mode "fast" (ONNX Gather of indices computed at run time) checks its indices as ONNX
  /// does: negative ones count from the end, others outside the axis are an error naming the
  /// index and the axis; mode "clip" (TVM's default) still clips.
  void takeChecksItsIndicesInFastMode() {
    const std::string take = "def @main(%x: Tensor[(5, 2), float32], %i: Tensor[(2), int64]) { take(%x, %i, axis=0, mode=\"MODE\") }\n";
    Module fast = typedModule(std::regex_replace(take, std::regex("MODE"), "fast"));
    const NDArray x = NDArray::fromFloats({5, 2}, std::vector<float>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9});
    Result<Value> out = runOn(fast, {x, ints({-1, 1})});
    QVERIFY2(out.isOk(), out ? "" : out.error().str().c_str());
    QCOMPARE(floats(out->tensor()), (std::vector<float>{8, 9, 2, 3}));
    for (int64_t index : {int64_t{5}, int64_t{-6}, int64_t{100}, int64_t{1} << 62, std::numeric_limits<int64_t>::min()}) {
      out = runOn(fast, {x, ints({0, index})});
      QVERIFY(!out.isOk());
      QCOMPARE(out.error().message,
               "take: index " + std::to_string(index) + " is out of range for axis 0 of size 5; expected -5 to 4");
    }
    Module clip = typedModule(std::regex_replace(take, std::regex("MODE"), "clip"));
    out = runOn(clip, {x, ints({100, -100})});
    QVERIFY2(out.isOk(), out ? "" : out.error().str().c_str());
    QCOMPARE(floats(out->tensor()), (std::vector<float>{8, 9, 0, 1}));
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

  /// dyn.topk, dyn.full and dyn.strided_slice read their sizes from tensors at run time; values
  /// worked out by hand (numpy.sort, numpy.full, x[1:4:2]).
  void sizesGivenAsTensors() {
    Module module = typedModule(
        "def @main(%x: Tensor[(?), float32], %k: Tensor[(1), int64], %b: Tensor[(1), int64], %e: Tensor[(1), int64],"
        " %s: Tensor[(1), int64]) {\n"
        "  %0 = dyn.topk(%x, %k, axis=0, dtype=\"int64\");\n"
        "  (%0.0, %0.1, dyn.full(7i64, shape_of(%x, dtype=\"int64\"), dtype=\"int64\"), dyn.strided_slice(%x, %b, %e, %s))\n"
        "}\n");
    const NDArray x = NDArray::fromFloats({5}, std::vector<float>{3, 1, 4, 1, 5});
    Result<Value> out = runOn(module, {x, ints({2}), ints({1}), ints({4}), ints({2})});
    QVERIFY2(out.isOk(), out ? "" : out.error().str().c_str());
    QCOMPARE(floats(out->fields()[0].tensor()), (std::vector<float>{5, 4}));
    QCOMPARE(int64s(out->fields()[1].tensor()), (std::vector<int64_t>{4, 2}));
    QCOMPARE(int64s(out->fields()[2].tensor()), (std::vector<int64_t>{7, 7, 7, 7, 7}));
    QCOMPARE(floats(out->fields()[3].tensor()), (std::vector<float>{1, 1}));
    out = runOn(module, {x, ints({-1}), ints({1}), ints({4}), ints({2})});
    QVERIFY(!out.isOk());
    QCOMPARE(out.error().message, std::string("dyn.topk: k [-1]; expected one count of 0 or more"));
    out = runOn(module, {x, ints({6}), ints({1}), ints({4}), ints({2})});
    QVERIFY(!out.isOk());
    QCOMPARE(out.error().message, std::string("topk: k 6 exceeds axis 0 of (5); expected at most 5"));
    Module full = typedModule("def @main(%s: Tensor[(2), int64]) { dyn.full(0f, %s) }\n");
    out = runOn(full, {ints({65536, 65537 * 65536LL})});
    QVERIFY(!out.isOk());
    QVERIFY2(out.error().message.starts_with("dyn.full: shape [65536, 4295032832]: "), out.error().message.c_str());
  }

  /// dyn.tile, dyn.broadcast_to (both ways, as ONNX Expand) and arange of run-time sizes; values
  /// by hand (numpy.tile, numpy.broadcast_to, numpy.arange). A size beyond the tensor limit is
  /// refused before anything is allocated.
  void repeatsAndRangesGivenAsTensors() {
    Module module = typedModule(
        "def @main(%x: Tensor[(2, 1), float32], %r: Tensor[(2), int64], %s: Tensor[(1), int64], %a: int64, %b: int64,"
        " %c: int64) {\n"
        "  (dyn.tile(%x, %r), dyn.broadcast_to(%x, %s), arange(%a, %b, %c))\n"
        "}\n");
    const NDArray x = NDArray::fromFloats({2, 1}, std::vector<float>{1, 2});
    auto scalar = [](int64_t value) { return ints({value}).reshaped({}); };
    Result<Value> out = runOn(module, {x, ints({1, 2}), ints({3}), scalar(7), scalar(-2), scalar(-3)});
    QVERIFY2(out.isOk(), out ? "" : out.error().str().c_str());
    QCOMPARE(out->fields()[0].tensor().shape(), (Shape{2, 2}));
    QCOMPARE(floats(out->fields()[0].tensor()), (std::vector<float>{1, 1, 2, 2}));
    QCOMPARE(out->fields()[1].tensor().shape(), (Shape{2, 3}));
    QCOMPARE(floats(out->fields()[1].tensor()), (std::vector<float>{1, 1, 1, 2, 2, 2}));
    QCOMPARE(int64s(out->fields()[2].tensor()), (std::vector<int64_t>{7, 4, 1}));
    out = runOn(module, {x, ints({65536, 65536}), ints({3}), scalar(0), scalar(1), scalar(1)});
    QVERIFY(!out.isOk());
    QCOMPARE(out.error().message, std::string("tile: result shape: more than 4294967296 elements (the limit of one tensor)"));
    out = runOn(module, {x, ints({1, 1}), ints({3}), scalar(0), scalar(1), scalar(0)});
    QVERIFY(!out.isOk());
    QCOMPARE(out.error().message, std::string("arange: Range has a delta of 0; expected a non-zero step"));
    // From near INT64_MAX down by 2^62: 2 * step alone is below INT64_MIN, the values are not.
    const int64_t top = std::numeric_limits<int64_t>::max() - 5;
    const int64_t step = -(int64_t{1} << 62);
    out = runOn(module, {x, ints({1, 1}), ints({3}), scalar(top), scalar(std::numeric_limits<int64_t>::min()), scalar(step)});
    QVERIFY2(out.isOk(), out ? "" : out.error().str().c_str());
    QCOMPARE(int64s(out->fields()[2].tensor()), (std::vector<int64_t>{top, top + step, top + step + step, top + step + step + step}));
    Module floatRange = typedModule("def @main(%a: float32, %b: float32) { arange(%a, %b, 0.5f) }\n");
    out = runOn(floatRange, {NDArray::fromFloats({}, std::vector<float>{1}), NDArray::fromFloats({}, std::vector<float>{2.2f})});
    QVERIFY(out.isOk());
    QCOMPARE(floats(out->tensor()), (std::vector<float>{1, 1.5f, 2}));
  }

  /// ONNX NonMaxSuppression's selection: by descending score, a box kept unless it overlaps a kept
  /// one by more than the IoU threshold, per class, at most max_output_boxes_per_class of them.
  /// Box 3 (corners given the other way round) scores highest; box 0 overlaps it by 81/119 = 0.68
  /// and stays; box 1 overlaps box 3 by 90/110 = 0.82 and goes; box 2 overlaps nothing. Class 1
  /// scores below the threshold everywhere.
  void nonMaxSuppressionSelectsAsOnnxDoes() {
    Module module = typedModule(
        "def @main(%boxes: Tensor[(1, 4, 4), float32], %scores: Tensor[(1, 2, 4), float32], %max: int64) {\n"
        "  %0 = vision.all_class_non_max_suppression(%boxes, %scores, %max, 0.7f, 0.2f);\n"
        "  dyn.strided_slice(%0.0, meta[relay.Constant][0], %0.1, meta[relay.Constant][1])\n"
        "}\n"
        "#[metadata]\n"
        "{\"relay.Constant\":[{\"dtype\":\"int64\",\"shape\":[1],\"data\":\"AAAAAAAAAAA=\"},"
        "{\"dtype\":\"int64\",\"shape\":[1],\"data\":\"AQAAAAAAAAA=\"}]}\n");
    const NDArray boxes = NDArray::fromFloats({1, 4, 4}, std::vector<float>{0, 0, 10, 10, 0, 1, 10, 11, 0, 20, 10, 30, 11, 11, 1, 1});
    const NDArray scores = NDArray::fromFloats({1, 2, 4}, std::vector<float>{0.9f, 0.8f, 0.7f, 0.95f, 0.1f, 0.1f, 0.1f, 0.1f});
    NDArray max = NDArray::empty(DType::Int64, {});
    max.data<int64_t>()[0] = std::numeric_limits<int64_t>::max();  // what exporters write for "no limit"
    Result<Value> out = runOn(module, {boxes, scores, max});
    QVERIFY2(out.isOk(), out ? "" : out.error().str().c_str());
    QCOMPARE(out->tensor().shape(), (Shape{3, 3}));
    QCOMPARE(int64s(out->tensor()), (std::vector<int64_t>{0, 0, 3, 0, 0, 0, 0, 0, 2}));
    max.data<int64_t>()[0] = 2;
    out = runOn(module, {boxes, scores, max});
    QVERIFY(out.isOk());
    QCOMPARE(int64s(out->tensor()), (std::vector<int64_t>{0, 0, 3, 0, 0, 0}));
    Module badThreshold = typedModule(
        "def @main(%boxes: Tensor[(1, 4, 4), float32], %scores: Tensor[(1, 2, 4), float32]) {\n"
        "  vision.all_class_non_max_suppression(%boxes, %scores, 5i64, 1.5f, 0f)\n"
        "}\n");
    out = runOn(badThreshold, {boxes, scores});
    QVERIFY(!out.isOk());
    QCOMPARE(out.error().message, std::string("vision.all_class_non_max_suppression: iou_threshold 1.5; expected 0 to 1"));
  }

  /// Only the dyn. ops and argwhere need the values of their inputs to know their result types.
  void valueDependentShapeFunctions() {
    for (const char* op : {"dyn.reshape", "argwhere", "dyn.topk", "dyn.full", "dyn.strided_slice", "dyn.tile", "dyn.broadcast_to",
                           "arange"})
      QVERIFY(kernels::findShapeFunction(op) != nullptr);
    QVERIFY(kernels::findShapeFunction("reshape") == nullptr);
    QVERIFY(isStaticType(tensorType({2, 3}, DType::Float32)));
    QVERIFY(!isStaticType(tupleType({tensorType({2}, DType::Float32), tensorType({kAnyDim}, DType::Float32)})));
  }
};

QTEST_GUILESS_MAIN(TestDynamicShapes)
#include "test_dynamic_shapes.moc"
