#include <QtTest>

#include "frontend/onnx/onnx_import.h"
#include "partitioned_module.h"
#include "runtime/executor.h"
#include "test_onnx_builder.h"

using namespace byoc;
using byoc::testing::OnnxModelBuilder;

namespace {

constexpr int kInt64 = onnx::TensorProto::INT64;

/// A model whose input "k" (int64, `count` elements) times 0 plus `values` gives "v": values the
/// model computes while it runs, which the importer cannot check.
OnnxModelBuilder withRunTimeValues(const std::vector<int64_t>& values) {
  OnnxModelBuilder b;
  const std::vector<int64_t> shape{static_cast<int64_t>(values.size())};
  b.input("k", shape, kInt64).intInitializer("zero", {}, {0}).intInitializer("given", shape, values);
  b.node("Mul", {"k", "zero"}, {"k0"});
  b.node("Add", {"k0", "given"}, {"v"});
  return b;
}

Module imported(const OnnxModelBuilder& b) {
  Result<Module> module = importOnnxModel(b.bytes(), "model.onnx", "");
  if (!module) qFatal("%s", module.error().str().c_str());
  return *module;
}

/// How `module` runs: on the host with the dataflow fast path, interpreted, or partitioned for dnnl.
enum class Way { FastPath, Interpreted, Dnnl };

/// Runs `b`'s model the way `way` says, on `inputs` with "k" filled with ones.
Result<std::vector<NDArray>> run(const OnnxModelBuilder& b, Way way, std::map<std::string, NDArray> inputs) {
  Module module = imported(b);
  if (way == Way::Dnnl) module = byoc::testing::partitionedFor(module, "dnnl");
  ExecutorOptions options;
  options.fastPath = way != Way::Interpreted;
  BYOC_ASSIGN_OR_RETURN(std::unique_ptr<Executor> executor, Executor::create(module, options));
  for (const Var& param : executor->inputs())
    if (param->name == "k") {
      const auto* type = param->type()->as<TensorTypeNode>();
      NDArray ones = NDArray::empty(DType::Int64, type->shape);
      std::fill_n(ones.data<int64_t>(), ones.numElements(), 1);
      inputs.emplace("k", ones);
    }
  BYOC_ASSIGN_OR_RETURN(std::vector<Value> args, executor->bindInputs(inputs));
  BYOC_ASSIGN_OR_RETURN(Value result, executor->run(args));
  std::vector<NDArray> outputs;
  result.flattenInto(outputs);
  return outputs;
}

NDArray ramp(Shape shape) {
  NDArray array = NDArray::empty(DType::Float32, std::move(shape));
  for (int64_t i = 0; i < array.numElements(); ++i) array.data<float>()[i] = static_cast<float>(i);
  return array;
}

std::vector<float> floats(const NDArray& array) { return {array.data<float>(), array.data<float>() + array.numElements()}; }

void addWays() {
  QTest::addColumn<Way>("way");
  QTest::newRow("fast path") << Way::FastPath;
  QTest::newRow("interpreted") << Way::Interpreted;
  QTest::newRow("dnnl") << Way::Dnnl;
}

}  // namespace

Q_DECLARE_METATYPE(Way)

/// Sizes and indices an ONNX model computes while it runs are checked as it runs, on the host and
/// partitioned for dnnl: a size past the limits is an error naming the node, the array and its
/// bytes before anything is allocated; an index outside its axis is an error, not clipped; TopK's
/// K of 0 gives no elements. Nothing stays allocated after such an error.
class TestRunTimeSizes : public QObject {
  Q_OBJECT

 private slots:
  void constantOfShapeOfARunTimeShape_data() { addWays(); }

  void constantOfShapeOfARunTimeShape() {
    QFETCH(Way, way);
    const int64_t held = Storage::liveBytes();
    OnnxModelBuilder b = withRunTimeValues({65536, 65536});
    b.node("ConstantOfShape", {"v"}, {"y"}, "c");
    b.output("y");
    Result<std::vector<NDArray>> out = run(b, way, {});
    QVERIFY(!out.isOk());
    QCOMPARE(out.error().message,
             std::string("node 'c' (ConstantOfShape): cannot allocate float32 (65536, 65536) (17179869184 bytes): more "
                         "than the 8589934592 bytes all tensors may hold at once (the limit of the runtime's memory)"));
    QCOMPARE(Storage::liveBytes(), held);
  }

  /// A Loop whose carried value of n elements is tiled n times each iteration: 2, 4, 16, 256,
  /// 65536, then 2^32 elements, refused before they are allocated.
  void aLoopGrowingItsValue_data() { addWays(); }

  void aLoopGrowingItsValue() {
    QFETCH(Way, way);
    OnnxModelBuilder b;
    b.input("x", {2}).intInitializer("m", {}, {10});
    onnx::NodeProto& loop = b.node("Loop", {"m", "", "x"}, {"y"}, "loop");
    onnx::GraphProto* body = byoc::testing::graphAttr(loop, "body");
    for (const char* name : {"i", "c_in", "v_in"}) body->add_input()->set_name(name);
    for (const char* name : {"c_out", "v_out"}) body->add_output()->set_name(name);
    body->mutable_input(0)->mutable_type()->mutable_tensor_type()->set_elem_type(kInt64);
    body->mutable_input(1)->mutable_type()->mutable_tensor_type()->set_elem_type(onnx::TensorProto::BOOL);
    auto add = [&](const char* op, std::vector<std::string> inputs, const char* output) {
      onnx::NodeProto* node = body->add_node();
      node->set_op_type(op);
      node->set_name(output);
      for (const std::string& input : inputs) node->add_input(input);
      node->add_output(output);
    };
    add("Identity", {"c_in"}, "c_out");
    add("Shape", {"v_in"}, "reps");
    add("Tile", {"v_in", "reps"}, "v_out");
    b.output("y");
    Result<std::vector<NDArray>> out = run(b, way, {{"x", ramp({2})}});
    QVERIFY(!out.isOk());
    QCOMPARE(out.error().message,
             std::string("node 'v_out' (Tile): cannot allocate float32 (4294967296) (17179869184 bytes): more than the "
                         "8589934592 bytes all tensors may hold at once (the limit of the runtime's memory)"));
  }

  void gatherChecksRunTimeIndices_data() { addWays(); }

  void gatherChecksRunTimeIndices() {
    QFETCH(Way, way);
    for (int64_t index : {int64_t{100}, int64_t{-100}, int64_t{1} << 62, int64_t{5}, int64_t{-6}}) {
      OnnxModelBuilder b = withRunTimeValues({index});
      b.input("x", {5, 3});
      b.node("Gather", {"x", "v"}, {"y"}, "g");
      b.output("y");
      Result<std::vector<NDArray>> out = run(b, way, {{"x", ramp({5, 3})}});
      QVERIFY(!out.isOk());
      QCOMPARE(out.error().message, "node 'g' (Gather): take: index " + std::to_string(index) +
                                        " is out of range for axis 0 of size 5; expected -5 to 4");
    }
    OnnxModelBuilder b = withRunTimeValues({-1, 0, 4, -5});
    b.input("x", {5, 3});
    onnx::NodeProto& gather = b.node("Gather", {"x", "v"}, {"y"}, "g");
    byoc::testing::attr(gather, "axis", int64_t{0});
    b.output("y");
    Result<std::vector<NDArray>> out = run(b, way, {{"x", ramp({5, 3})}});
    QVERIFY2(out.isOk(), out ? "" : out.error().str().c_str());
    QCOMPARE(floats((*out)[0]), (std::vector<float>{12, 13, 14, 0, 1, 2, 12, 13, 14, 0, 1, 2}));
  }

  /// TopK's K read at run time: 0 gives an empty axis (values and indices), the axis's size gives
  /// every element sorted, one more is an error naming the node.
  void topkOfARunTimeK_data() { addWays(); }

  void topkOfARunTimeK() {
    QFETCH(Way, way);
    auto topk = [](int64_t k) {
      OnnxModelBuilder b = withRunTimeValues({k});
      b.input("x", {2, 4});
      b.node("TopK", {"x", "v"}, {"values", "indices"}, "t");
      b.output("values").output("indices");
      return b;
    };
    Result<std::vector<NDArray>> out = run(topk(0), way, {{"x", ramp({2, 4})}});
    QVERIFY2(out.isOk(), out ? "" : out.error().str().c_str());
    QCOMPARE((*out)[0].shape(), (Shape{2, 0}));
    QCOMPARE((*out)[1].shape(), (Shape{2, 0}));
    out = run(topk(4), way, {{"x", ramp({2, 4})}});
    QVERIFY2(out.isOk(), out ? "" : out.error().str().c_str());
    QCOMPARE(floats((*out)[0]), (std::vector<float>{3, 2, 1, 0, 7, 6, 5, 4}));
    out = run(topk(5), way, {{"x", ramp({2, 4})}});
    QVERIFY(!out.isOk());
    QCOMPARE(out.error().message, std::string("node 't' (TopK): topk: k 5 exceeds axis 1 of (2, 4); expected at most 4"));
    out = run(topk(-1), way, {{"x", ramp({2, 4})}});
    QVERIFY(!out.isOk());
    QCOMPARE(out.error().message, std::string("node 't' (TopK): dyn.topk: k [-1]; expected one count of 0 or more"));
  }

  /// Reshape to the shape [] read at run time: a scalar of the one element, or an error for more.
  void reshapeToARunTimeScalar_data() { addWays(); }

  void reshapeToARunTimeScalar() {
    QFETCH(Way, way);
    auto reshape = [](int64_t elements) {
      OnnxModelBuilder b = withRunTimeValues({0});
      b.input("x", {elements}).intInitializer("start", {1}, {0});
      b.node("Slice", {"v", "start", "start"}, {"empty"});
      b.node("Reshape", {"x", "empty"}, {"y"}, "r");
      b.output("y");
      return b;
    };
    Result<std::vector<NDArray>> out = run(reshape(1), way, {{"x", ramp({1})}});
    QVERIFY2(out.isOk(), out ? "" : out.error().str().c_str());
    QCOMPARE((*out)[0].shape(), Shape{});
    out = run(reshape(6), way, {{"x", ramp({6})}});
    QVERIFY(!out.isOk());
    QCOMPARE(out.error().message,
             std::string("node 'r' (Reshape): dyn.reshape to []: reshape: cannot reshape (6) (6 elements) into ()"));
  }
};

QTEST_GUILESS_MAIN(TestRunTimeSizes)
#include "test_run_time_sizes.moc"
