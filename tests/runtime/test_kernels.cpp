#include <QtTest>

#include "ir/op.h"
#include "runtime/executor.h"
#include "runtime/interpreter.h"
#include "runtime/kernels/kernel.h"
#include "runtime/kernels/permute.h"
#include "runtime_test_util.h"

using namespace byoc;
using namespace byoc::testing;

namespace {

/// Runs @main of `text` with parameters filled from `inputs` (converted to each parameter's dtype).
Result<Value> evaluate(const std::string& text, const std::vector<std::vector<double>>& inputs) {
  Module module = typedModule(text);
  Function main = module.find("main");
  std::vector<Value> args;
  for (std::size_t i = 0; i < main->params.size(); ++i) {
    const auto* type = main->params[i]->type()->as<TensorTypeNode>();
    std::vector<std::byte> bytes;
    for (double value : inputs[i]) {
      TensorData scalar = TensorData::scalar(type->dtype, value);
      bytes.insert(bytes.end(), scalar.bytes().begin(), scalar.bytes().end());
    }
    args.push_back(NDArray::fromTensorData(TensorData::fromBytes(type->dtype, type->shape, bytes)));
  }
  Interpreter interpreter(module);
  return interpreter.call("main", args);
}

/// "(2, 3) [1, 2, 3, 4, 5, 6]" with 6 significant digits, tuples as "{a; b}".
std::string format(const Value& value) {
  if (value.isTuple()) {
    std::string text = "{";
    for (std::size_t i = 0; i < value.fields().size(); ++i) text += (i ? "; " : "") + format(value.fields()[i]);
    return text + "}";
  }
  const NDArray& array = value.tensor();
  std::string text = "(";
  for (std::size_t i = 0; i < array.rank(); ++i) text += (i ? ", " : "") + std::to_string(array.shape()[i]);
  text += ") [";
  for (int64_t i = 0; i < array.numElements(); ++i) {
    char buffer[32];
    double v = array.elementAsDouble(i);
    std::snprintf(buffer, sizeof buffer, "%.6g", v == 0 ? 0.0 : v);
    text += (i ? ", " : "") + std::string(buffer);
  }
  return text + "]";
}

std::vector<double> iota(int n, double start = 0) {
  std::vector<double> values(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) values[static_cast<std::size_t>(i)] = start + i;
  return values;
}

std::string tensor(const std::string& shape, const std::string& dtype = "float32") {
  return "Tensor[(" + shape + "), " + dtype + "]";
}

}  // namespace

/// Every reference kernel against hand-computed values or naive loops.
class TestKernels : public QObject {
  Q_OBJECT

 private slots:
  void everyRegisteredOpHasAKernel() {
    for (const OpDef* def : OpRegistry::global().all())
      QVERIFY2(kernels::kernelOf(*def) != nullptr, def->name.c_str());
  }

  void handComputed_data() {
    QTest::addColumn<QString>("program");
    QTest::addColumn<QVariantList>("inputs");
    QTest::addColumn<QString>("expected");
    auto row = [](const char* name, const std::string& program, std::vector<std::vector<double>> inputs,
                  const char* expected) {
      QVariantList list;
      for (const auto& values : inputs) {
        QVariantList inner;
        for (double v : values) inner.push_back(v);
        list.push_back(inner);
      }
      QTest::newRow(name) << QString::fromStdString(program) << list << QString(expected);
    };
    const std::string x23 = "def @main(%x: " + tensor("2, 3") + ") { ";
    const std::vector<double> v23 = {-2, -1, 0, 1, 2, 3};
    row("relu", x23 + "nn.relu(%x) }", {v23}, "(2, 3) [0, 0, 0, 1, 2, 3]");
    row("sigmoid", x23 + "sigmoid(%x) }", {v23}, "(2, 3) [0.119203, 0.268941, 0.5, 0.731059, 0.880797, 0.952574]");
    row("tanh", x23 + "tanh(%x) }", {v23}, "(2, 3) [-0.964028, -0.761594, 0, 0.761594, 0.964028, 0.995055]");
    row("erf", x23 + "erf(%x) }", {v23}, "(2, 3) [-0.995322, -0.842701, 0, 0.842701, 0.995322, 0.999978]");
    row("exp", x23 + "exp(%x) }", {v23}, "(2, 3) [0.135335, 0.367879, 1, 2.71828, 7.38906, 20.0855]");
    row("log", x23 + "log(%x) }", {{1, 2, 3, 4, 5, 6}}, "(2, 3) [0, 0.693147, 1.09861, 1.38629, 1.60944, 1.79176]");
    row("sqrt", x23 + "sqrt(%x) }", {{1, 4, 9, 16, 25, 2}}, "(2, 3) [1, 2, 3, 4, 5, 1.41421]");
    row("rsqrt", x23 + "rsqrt(%x) }", {{1, 4, 9, 16, 25, 100}}, "(2, 3) [1, 0.5, 0.333333, 0.25, 0.2, 0.1]");
    row("abs", x23 + "abs(%x) }", {v23}, "(2, 3) [2, 1, 0, 1, 2, 3]");
    row("negative", x23 + "negative(%x) }", {v23}, "(2, 3) [2, 1, 0, -1, -2, -3]");
    row("round", x23 + "round(%x) }", {{-2.5, -1.4, 0.5, 1.5, 2.49, 3.6}}, "(2, 3) [-3, -1, 1, 2, 2, 4]");
    row("floor", x23 + "floor(%x) }", {{-2.5, -1.4, 0.5, 1.5, 2.49, 3.6}}, "(2, 3) [-3, -2, 0, 1, 2, 3]");
    row("ceil", x23 + "ceil(%x) }", {{-2.5, -1.4, 0.5, 1.5, 2.49, 3.6}}, "(2, 3) [-2, -1, 1, 2, 3, 4]");
    row("copy", x23 + "copy(%x) }", {v23}, "(2, 3) [-2, -1, 0, 1, 2, 3]");
    row("zeros_like", x23 + "zeros_like(%x) }", {v23}, "(2, 3) [0, 0, 0, 0, 0, 0]");
    row("ones_like", x23 + "ones_like(%x) }", {v23}, "(2, 3) [1, 1, 1, 1, 1, 1]");
    row("leaky_relu", x23 + "nn.leaky_relu(%x, alpha=0.1f) }", {v23}, "(2, 3) [-0.2, -0.1, 0, 1, 2, 3]");
    row("clip", x23 + "clip(%x, a_min=-1f, a_max=2f) }", {v23}, "(2, 3) [-1, -1, 0, 1, 2, 2]");
    row("cast", x23 + "cast(%x, dtype=\"int32\") }", {{-2.7, -1, 0, 1.9, 2, 3}}, "(2, 3) [-2, -1, 0, 1, 2, 3]");
    row("logical_not", "def @main(%x: " + tensor("3", "bool") + ") { logical_not(%x) }", {{1, 0, 1}}, "(3) [0, 1, 0]");
    row("int relu", "def @main(%x: " + tensor("3", "int32") + ") { nn.relu(%x) }", {{-3, 0, 7}}, "(3) [0, 0, 7]");

    const std::string bin = "def @main(%x: " + tensor("2, 3") + ", %y: " + tensor("3") + ") { ";
    const std::vector<double> y3 = {1, 2, 4};
    row("add broadcast", bin + "add(%x, %y) }", {v23, y3}, "(2, 3) [-1, 1, 4, 2, 4, 7]");
    row("subtract", bin + "subtract(%x, %y) }", {v23, y3}, "(2, 3) [-3, -3, -4, 0, 0, -1]");
    row("multiply", bin + "multiply(%x, %y) }", {v23, y3}, "(2, 3) [-2, -2, 0, 1, 4, 12]");
    row("divide", bin + "divide(%x, %y) }", {v23, y3}, "(2, 3) [-2, -0.5, 0, 1, 1, 0.75]");
    row("power", bin + "power(%x, %y) }", {v23, y3}, "(2, 3) [-2, 1, 0, 1, 4, 81]");
    row("maximum", bin + "maximum(%x, %y) }", {v23, y3}, "(2, 3) [1, 2, 4, 1, 2, 4]");
    row("minimum", bin + "minimum(%x, %y) }", {v23, y3}, "(2, 3) [-2, -1, 0, 1, 2, 3]");
    row("less", bin + "less(%x, %y) }", {v23, y3}, "(2, 3) [1, 1, 1, 0, 0, 1]");
    row("greater", bin + "greater(%x, %y) }", {v23, y3}, "(2, 3) [0, 0, 0, 0, 0, 0]");
    row("less_equal", bin + "less_equal(%x, %y) }", {v23, y3}, "(2, 3) [1, 1, 1, 1, 1, 1]");
    row("greater_equal", bin + "greater_equal(%x, %y) }", {v23, y3}, "(2, 3) [0, 0, 0, 1, 1, 0]");
    row("equal", bin + "equal(%x, %y) }", {v23, y3}, "(2, 3) [0, 0, 0, 1, 1, 0]");
    row("not_equal", bin + "not_equal(%x, %y) }", {v23, y3}, "(2, 3) [1, 1, 1, 0, 0, 1]");
    row("outer broadcast", "def @main(%x: " + tensor("2, 1") + ", %y: " + tensor("1, 3") + ") { multiply(%x, %y) }",
        {{1, 2}, {3, 4, 5}}, "(2, 3) [3, 4, 5, 6, 8, 10]");
    row("scalar broadcast", "def @main(%x: " + tensor("2, 2") + ", %y: float32) { add(%x, %y) }", {{1, 2, 3, 4}, {10}},
        "(2, 2) [11, 12, 13, 14]");
    const std::string logic = "def @main(%x: " + tensor("4", "bool") + ", %y: " + tensor("4", "bool") + ") { ";
    row("logical_and", logic + "logical_and(%x, %y) }", {{0, 0, 1, 1}, {0, 1, 0, 1}}, "(4) [0, 0, 0, 1]");
    row("logical_or", logic + "logical_or(%x, %y) }", {{0, 0, 1, 1}, {0, 1, 0, 1}}, "(4) [0, 1, 1, 1]");
    row("where", "def @main(%c: " + tensor("2, 1", "bool") + ", %x: " + tensor("2, 3") + ", %y: float32) { where(%c, %x, %y) }",
        {{1, 0}, v23, {9}}, "(2, 3) [-2, -1, 0, 9, 9, 9]");

    const std::string img = "def @main(%x: " + tensor("1, 1, 4, 4") + ") { ";
    const std::vector<double> v16 = iota(16);
    row("max_pool", img + "nn.max_pool2d(%x, pool_size=[2, 2], strides=[2, 2]) }", {v16}, "(1, 1, 2, 2) [5, 7, 13, 15]");
    row("max_pool padded", img + "nn.max_pool2d(%x, pool_size=[3, 3], strides=[2, 2], padding=[1, 1]) }", {v16},
        "(1, 1, 2, 2) [5, 7, 13, 15]");
    row("avg_pool", img + "nn.avg_pool2d(%x, pool_size=[2, 2], strides=[2, 2]) }", {v16}, "(1, 1, 2, 2) [2.5, 4.5, 10.5, 12.5]");
    row("avg_pool exclude pad", img + "nn.avg_pool2d(%x, pool_size=[2, 2], strides=[2, 2], padding=[1, 1]) }", {v16},
        "(1, 1, 3, 3) [0, 1.5, 3, 6, 7.5, 9, 12, 13.5, 15]");
    row("avg_pool include pad",
        img + "nn.avg_pool2d(%x, pool_size=[2, 2], strides=[2, 2], padding=[1, 1], count_include_pad=True) }", {v16},
        "(1, 1, 3, 3) [0, 0.75, 0.75, 3, 7.5, 4.5, 3, 6.75, 3.75]");
    row("max_pool ceil", img + "nn.max_pool2d(%x, pool_size=[3, 3], strides=[2, 2], ceil_mode=True) }", {v16},
        "(1, 1, 2, 2) [10, 11, 14, 15]");
    row("global_avg", img + "nn.global_avg_pool2d(%x) }", {v16}, "(1, 1, 1, 1) [7.5]");
    row("global_max", img + "nn.global_max_pool2d(%x) }", {v16}, "(1, 1, 1, 1) [15]");
    row("adaptive_avg", img + "nn.adaptive_avg_pool2d(%x, output_size=[2, 2]) }", {v16}, "(1, 1, 2, 2) [2.5, 4.5, 10.5, 12.5]");
    row("max_pool nhwc", "def @main(%x: " + tensor("1, 2, 2, 2") + ") { nn.max_pool2d(%x, pool_size=[2, 2], layout=\"NHWC\") }",
        {{1, 8, 2, 7, 3, 6, 4, 5}}, "(1, 1, 1, 2) [4, 8]");
    row("resize nearest", "def @main(%x: " + tensor("1, 1, 2, 2") +
        ") { image.resize2d(%x, size=[4, 4], method=\"nearest_neighbor\", coordinate_transformation_mode=\"asymmetric\") }",
        {{1, 2, 3, 4}}, "(1, 1, 4, 4) [1, 1, 2, 2, 1, 1, 2, 2, 3, 3, 4, 4, 3, 3, 4, 4]");
    row("resize linear", "def @main(%x: " + tensor("1, 1, 2, 2") +
        ") { image.resize2d(%x, size=[3, 3], method=\"linear\", coordinate_transformation_mode=\"align_corners\") }",
        {{0, 2, 4, 6}}, "(1, 1, 3, 3) [0, 1, 2, 2, 3, 4, 4, 5, 6]");

    const std::string chw = "def @main(%x: " + tensor("1, 2, 2") + ", %p: " + tensor("2") + ") { ";
    row("bias_add", chw + "nn.bias_add(%x, %p) }", {iota(4), {10, 20}}, "(1, 2, 2) [10, 11, 22, 23]");
    row("prelu", chw + "nn.prelu(%x, %p) }", {{-1, 1, -2, 2}, {0.5, 0.25}}, "(1, 2, 2) [-0.5, 1, -0.5, 2]");
    row("softmax", "def @main(%x: " + tensor("2, 2") + ") { nn.softmax(%x) }", {{0, 0, 0, 1}}, "(2, 2) [0.5, 0.5, 0.268941, 0.731059]");
    row("softmax axis 0", "def @main(%x: " + tensor("2, 2") + ") { nn.softmax(%x, axis=0) }", {{0, 0, 0, 1}},
        "(2, 2) [0.5, 0.268941, 0.5, 0.731059]");
    row("log_softmax", "def @main(%x: " + tensor("2") + ") { nn.log_softmax(%x) }", {{0, 0}}, "(2) [-0.693147, -0.693147]");
    row("layer_norm", "def @main(%x: " + tensor("1, 4") + ", %g: " + tensor("4") + ", %b: " + tensor("4") +
        ") { nn.layer_norm(%x, %g, %b, epsilon=0f) }", {{1, 2, 3, 4}, {1, 1, 2, 2}, {0, 0, 0, 1}},
        "(1, 4) [-1.34164, -0.447214, 0.894427, 3.68328]");
    row("batch_norm", "def @main(%x: " + tensor("1, 2, 1, 2") + ", %g: " + tensor("2") + ", %b: " + tensor("2") + ", %m: " +
        tensor("2") + ", %v: " + tensor("2") + ") { nn.batch_norm(%x, %g, %b, %m, %v, epsilon=0f) }",
        {{1, 3, 5, 7}, {1, 2}, {0, 1}, {1, 5}, {4, 1}}, "{(1, 2, 1, 2) [0, 1, 1, 5]; (2) [1, 5]; (2) [4, 1]}");
    row("dropout", "def @main(%x: " + tensor("2") + ") { nn.dropout(%x) }", {{3, 4}}, "{(2) [3, 4]; (2) [1, 1]}");

    const std::string t234 = "def @main(%x: " + tensor("2, 3, 4") + ") { ";
    const std::vector<double> v24 = iota(24);
    row("reshape", x23 + "reshape(%x, newshape=[3, -1]) }", {v23}, "(3, 2) [-2, -1, 0, 1, 2, 3]");
    row("transpose", x23 + "transpose(%x) }", {v23}, "(3, 2) [-2, 1, -1, 2, 0, 3]");
    row("transpose axes", t234 + "transpose(%x, axes=[1, 2, 0]) }", {v24},
        "(3, 4, 2) [0, 12, 1, 13, 2, 14, 3, 15, 4, 16, 5, 17, 6, 18, 7, 19, 8, 20, 9, 21, 10, 22, 11, 23]");
    row("squeeze", "def @main(%x: " + tensor("1, 3, 1") + ") { squeeze(%x) }", {{1, 2, 3}}, "(3) [1, 2, 3]");
    row("expand_dims", x23 + "expand_dims(%x, axis=1) }", {v23}, "(2, 1, 3) [-2, -1, 0, 1, 2, 3]");
    row("batch_flatten", t234 + "nn.batch_flatten(%x) }", {v24},
        "(2, 12) [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23]");
    row("concatenate", "def @main(%x: " + tensor("2, 1") + ", %y: " + tensor("2, 2") + ") { concatenate((%x, %y), axis=1) }",
        {{1, 2}, {3, 4, 5, 6}}, "(2, 3) [1, 3, 4, 2, 5, 6]");
    row("split", x23 + "split(%x, indices_or_sections=[1], axis=1) }", {v23}, "{(2, 1) [-2, 1]; (2, 2) [-1, 0, 2, 3]}");
    row("strided_slice", t234 + "strided_slice(%x, begin=[1, 0, 3], end=[2, 3, 0], strides=[1, 2, -2]) }", {v24},
        "(1, 2, 2) [15, 13, 23, 21]");
    row("strided_slice axes", t234 + "strided_slice(%x, begin=[-1], end=[4], axes=[2]) }", {v24},
        "(2, 3, 1) [3, 7, 11, 15, 19, 23]");
    row("take axis", x23 + "take(%x, %i, axis=1) }" , {v23, {2, 0}}, "(2, 2) [0, -2, 3, 1]");
    row("take flat wrap", x23 + "take(%x, %i, mode=\"wrap\") }", {v23, {-1, 7}}, "(2) [3, -1]");
    row("pad constant", "def @main(%x: " + tensor("2") + ", %v: float32) { nn.pad(%x, %v, pad_width=[[1, 2]]) }",
        {{1, 2}, {9}}, "(5) [9, 1, 2, 9, 9]");
    row("pad reflect", "def @main(%x: " + tensor("3") + ", %v: float32) { nn.pad(%x, %v, pad_width=[[2, 2]], pad_mode=\"reflect\") }",
        {{1, 2, 3}, {0}}, "(7) [3, 2, 1, 2, 3, 2, 1]");
    row("pad edge", "def @main(%x: " + tensor("2") + ", %v: float32) { nn.pad(%x, %v, pad_width=[[1, 1]], pad_mode=\"edge\") }",
        {{1, 2}, {0}}, "(4) [1, 1, 2, 2]");
    row("sum", t234 + "sum(%x, axis=[1]) }", {v24}, "(2, 4) [12, 15, 18, 21, 48, 51, 54, 57]");
    row("mean keepdims", x23 + "mean(%x, axis=[1], keepdims=True) }", {v23}, "(2, 1) [-1, 2]");
    row("max exclude", t234 + "max(%x, axis=[0], exclude=True) }", {v24}, "(2) [11, 23]");
    row("min all", x23 + "min(%x) }", {v23}, "() [-2]");
    row("prod", x23 + "prod(%x, axis=[0]) }", {v23}, "(3) [-2, -2, 0]");
    row("argmax", x23 + "argmax(%x, axis=[1]) }", {{1, 5, 2, 9, 0, 9}}, "(2) [1, 0]");
    row("argmax last", x23 + "argmax(%x, axis=[1], select_last_index=True) }", {{1, 5, 2, 9, 0, 9}}, "(2) [1, 2]");
    row("argmin", x23 + "argmin(%x, axis=[1]) }", {{1, 5, 1, 9, 0, 0}}, "(2) [0, 1]");
    row("argmin last", x23 + "argmin(%x, axis=[1], select_last_index=True) }", {{1, 5, 1, 9, 0, 0}}, "(2) [2, 2]");
    row("annotations", x23 + "annotation.compiler_end(annotation.compiler_begin(%x, compiler=\"t\"), compiler=\"t\") }",
        {v23}, "(2, 3) [-2, -1, 0, 1, 2, 3]");
    row("dense", "def @main(%x: " + tensor("2, 3") + ", %w: " + tensor("2, 3") + ") { nn.dense(%x, %w) }",
        {v23, {1, 0, 1, 0, 1, 1}}, "(2, 2) [-2, -1, 4, 5]");
    row("matmul transposes", "def @main(%x: " + tensor("3, 2") + ", %w: " + tensor("2, 3") +
        ") { nn.matmul(%x, %w, transpose_a=True, transpose_b=True) }", {{1, 2, 3, 4, 5, 6}, {1, 0, 1, 0, 1, 1}},
        "(2, 2) [6, 8, 8, 10]");
    row("batch_matmul broadcast", "def @main(%x: " + tensor("2, 1, 2") + ", %y: " + tensor("1, 2, 2") +
        ") { nn.batch_matmul(%x, %y, transpose_b=False) }", {{1, 2, 3, 4}, {1, 0, 0, 2}}, "(2, 1, 2) [1, 4, 3, 8]");
    // The 1-D and 3-D family; expected values computed once with numpy from naive loops over the
    // padded input (scatter loops for the transposed convolution).
    row("conv1d", "def @main(%x: " + tensor("1, 2, 5") + ", %w: " + tensor("2, 2, 3") +
        ") { nn.conv1d(%x, %w, strides=[2], padding=[1, 1]) }", {iota(10), {1, 0, -1, 0, 1, 0, 1, 1, 1, 0, 0, 2}},
        "(1, 2, 3) [4, 5, 12, 13, 22, 7]");
    row("conv3d", "def @main(%x: " + tensor("1, 1, 3, 3, 3") + ", %w: " + tensor("1, 1, 2, 2, 2") +
        ") { nn.conv3d(%x, %w) }", {iota(27), {1, -1, 2, 0, 0, 1, -2, 1}}, "(1, 1, 2, 2, 2) [4, 6, 10, 12, 22, 24, 28, 30]");
    row("conv3d_transpose", "def @main(%x: " + tensor("1, 1, 1, 2, 2") + ", %w: " + tensor("1, 1, 1, 2, 2") +
        ") { nn.conv3d_transpose(%x, %w, strides=[2, 2, 2]) }", {iota(4, 1), {1, 2, 3, 4}},
        "(1, 1, 1, 4, 4) [1, 2, 2, 4, 3, 4, 6, 8, 3, 6, 4, 8, 9, 12, 12, 16]");
    // By hand: x scatters w at positions 0, 2, 4 of the 7 unpadded outputs ([1, 10, 102, 20, 203,
    // 30, 300]); the padding drops the first and the last.
    row("conv1d_transpose", "def @main(%x: " + tensor("1, 1, 3") + ", %w: " + tensor("1, 1, 3") +
        ") { nn.conv1d_transpose(%x, %w, strides=[2], padding=[1, 1]) }", {{1, 2, 3}, {1, 10, 100}}, "(1, 1, 5) [10, 102, 20, 203, 30]");
    // By hand: output cell o of n pools cells [floor(o·in/n), ceil((o+1)·in/n)), so 5 cells to 2
    // average [1, 2, 3] and [3, 4, 5].
    row("adaptive_avg_pool1d", "def @main(%x: " + tensor("1, 1, 5") + ") { nn.adaptive_avg_pool1d(%x, output_size=[2]) }",
        {{1, 2, 3, 4, 5}}, "(1, 1, 2) [2, 4]");
    row("adaptive_max_pool3d global", "def @main(%x: " + tensor("1, 2, 2, 1, 2") +
        ") { nn.adaptive_max_pool3d(%x, output_size=[1, 1, 1]) }", {{3, -1, 7, 2, -5, -2, -4, -3}}, "(1, 2, 1, 1, 1) [7, -2]");
    // By hand: gelu(0) = 0, gelu(x) - gelu(-x) = x, and gelu(1) = Φ(1) = 0.8413447.
    row("gelu", "def @main(%x: " + tensor("4") + ") { nn.gelu(%x) }", {{0, 1, -1, 3}}, "(4) [0, 0.841345, -0.158655, 2.99595]");
    // By hand: windows [0, 1], [2, 3], [4] (ceil mode) of [5, -1, 2, 8, 3]; the average pads
    // one zero on each side, counts it and steps by 2: (0 + 5 - 1) / 3, (-1 + 2 + 8) / 3, (8 + 3 + 0) / 3.
    row("max_pool1d ceil", "def @main(%x: " + tensor("1, 1, 5") + ") { nn.max_pool1d(%x, pool_size=[2], strides=[2], ceil_mode=True) }",
        {{5, -1, 2, 8, 3}}, "(1, 1, 3) [5, 8, 3]");
    row("avg_pool1d count_include_pad", "def @main(%x: " + tensor("1, 1, 5") +
        ") { nn.avg_pool1d(%x, pool_size=[3], strides=[2], padding=[1, 1], count_include_pad=True) }",
        {{5, -1, 2, 8, 3}}, "(1, 1, 3) [1.33333, 3, 3.66667]");
    row("max_pool3d", "def @main(%x: " + tensor("1, 1, 2, 3, 3") + ") { nn.max_pool3d(%x, pool_size=[2, 2, 2]) }",
        {{0, 7, 14, 3, 10, 17, 6, 13, 2, 9, 16, 5, 12, 1, 8, 15, 4, 11}}, "(1, 1, 1, 2, 2) [16, 17, 15, 17]");
    row("avg_pool3d", "def @main(%x: " + tensor("1, 1, 3, 3, 3") +
        ") { nn.avg_pool3d(%x, pool_size=[2, 2, 2], strides=[2, 2, 2], padding=[1, 1, 1, 1, 1, 1]) }", {iota(27)},
        "(1, 1, 2, 2, 2) [0, 1.5, 4.5, 6, 13.5, 15, 18, 19.5]");
    row("avg_pool3d count_include_pad", "def @main(%x: " + tensor("1, 1, 3, 3, 3") +
        ") { nn.avg_pool3d(%x, pool_size=[2, 2, 2], strides=[2, 2, 2], padding=[1, 1, 1, 1, 1, 1], count_include_pad=True) }",
        {iota(27)}, "(1, 1, 2, 2, 2) [0, 0.375, 1.125, 3, 3.375, 7.5, 9, 19.5]");
    // zeros, ones, layout_transform and einsum; expected values computed once with numpy
    // (numpy.einsum with the same equation, numpy.transpose with the layout's permutation).
    row("zeros", "def @main() { zeros(shape=[2, 2], dtype=\"int32\") }", {}, "(2, 2) [0, 0, 0, 0]");
    row("ones", "def @main() { ones(shape=[3], dtype=\"float32\") }", {}, "(3) [1, 1, 1]");
    row("layout_transform", "def @main(%x: " + tensor("1, 2, 3, 4") +
        ") { layout_transform(%x, src_layout=\"NCHW\", dst_layout=\"NHWC\") }", {iota(24)},
        "(1, 3, 4, 2) [0, 12, 1, 13, 2, 14, 3, 15, 4, 16, 5, 17, 6, 18, 7, 19, 8, 20, 9, 21, 10, 22, 11, 23]");
    const std::string xy = "def @main(%x: " + tensor("2, 3") + ", %y: " + tensor("3, 2") + ") { ";
    row("einsum matmul", xy + "einsum((%x, %y), equation=\"ij,jk->ik\") }", {iota(6), {1, 0, 0, 1, 1, 1}}, "(2, 2) [2, 3, 8, 9]");
    row("einsum implicit", xy + "einsum((%x, %y), equation=\"ij,jk\") }", {iota(6), {1, 0, 0, 1, 1, 1}}, "(2, 2) [2, 3, 8, 9]");
    row("einsum batch matmul", "def @main(%a: " + tensor("2, 2, 3") + ", %b: " + tensor("2, 3, 1") +
        ") { einsum((%a, %b), equation=\"bij,bjk->bik\") }", {iota(12), iota(6)}, "(2, 2, 1) [5, 14, 86, 122]");
    row("einsum transpose", x23 + "einsum((%x,), equation=\"ij->ji\") }", {iota(6)}, "(3, 2) [0, 3, 1, 4, 2, 5]");
    row("einsum reduction", x23 + "einsum((%x,), equation=\"ij->i\") }", {iota(6)}, "(2) [3, 12]");
    row("einsum trace", "def @main(%m: " + tensor("3, 3") + ") { einsum((%m,), equation=\"ii->\") }", {iota(9)}, "() [12]");
    row("einsum diagonal", "def @main(%m: " + tensor("3, 3") + ") { einsum((%m,), equation=\"ii->i\") }", {iota(9)}, "(3) [0, 4, 8]");
    // tile, broadcast_to, reverse, topk, cumsum, gather_nd and scatter_nd; expected values worked out by
    // hand from the ops' definitions (numpy.tile, numpy.broadcast_to, numpy.flip, numpy.cumsum) and
    // ONNX's GatherND/ScatterND examples with the tuple axis moved first.
    row("tile", x23 + "tile(%x, reps=[1, 2]) }", {iota(6)}, "(2, 6) [0, 1, 2, 0, 1, 2, 3, 4, 5, 3, 4, 5]");
    row("tile new axis", "def @main(%x: " + tensor("3") + ") { tile(%x, reps=[2, 1]) }", {iota(3)}, "(2, 3) [0, 1, 2, 0, 1, 2]");
    row("broadcast_to", "def @main(%x: " + tensor("3, 1") + ") { broadcast_to(%x, shape=[2, 3, 2]) }", {{1, 2, 3}},
        "(2, 3, 2) [1, 1, 2, 2, 3, 3, 1, 1, 2, 2, 3, 3]");
    row("reverse", x23 + "reverse(%x, axis=1) }", {iota(6)}, "(2, 3) [2, 1, 0, 5, 4, 3]");
    row("topk", x23 + "topk(%x, k=2) }", {{3, 1, 2, 5, 5, 4}}, "{(2, 2) [3, 2, 5, 5]; (2, 2) [0, 2, 0, 1]}");
    row("topk ascending", x23 + "topk(%x, k=1, axis=0, ret_type=\"values\", is_ascend=True) }", {{3, 1, 2, 5, 0, 4}},
        "(1, 3) [3, 0, 2]");
    row("topk indices int64", x23 + "topk(%x, k=0, ret_type=\"indices\", dtype=\"int64\") }", {{3, 1, 2, 5, 5, 4}},
        "(2, 3) [0, 2, 1, 0, 1, 2]");
    row("cumsum", x23 + "cumsum(%x, axis=1) }", {iota(6)}, "(2, 3) [0, 1, 3, 3, 7, 12]");
    row("cumsum exclusive", x23 + "cumsum(%x, axis=0, exclusive=True) }", {iota(6)}, "(2, 3) [0, 0, 0, 0, 1, 2]");
    row("cumsum flat", x23 + "cumsum(%x, dtype=\"int32\") }", {iota(6)}, "(6) [0, 1, 3, 6, 10, 15]");
    row("gather_nd elements", "def @main(%x: " + tensor("2, 2") + ", %n: " + tensor("2, 2", "int64") + ") { gather_nd(%x, %n) }",
        {iota(4), {0, 1, 0, 1}}, "(2) [0, 3]");
    row("gather_nd slices", "def @main(%x: " + tensor("2, 2") + ", %n: " + tensor("1, 2", "int64") + ") { gather_nd(%x, %n) }",
        {iota(4), {1, 0}}, "(2, 2) [2, 3, 0, 1]");
    row("gather_nd batch", "def @main(%x: " + tensor("2, 2, 2") + ", %n: " + tensor("1, 2", "int64") +
        ") { gather_nd(%x, %n, batch_dims=1) }", {iota(8), {1, 0}}, "(2, 2) [2, 3, 4, 5]");
    row("gather_nd negative", "def @main(%x: " + tensor("3") + ", %n: " + tensor("1, 1", "int32") + ") { gather_nd(%x, %n) }",
        {{5, 6, 7}, {-1}}, "(1) [7]");
    row("scatter_nd", "def @main(%x: " + tensor("8") + ", %n: " + tensor("1, 4", "int64") + ", %u: " + tensor("4") +
        ") { scatter_nd(%x, %n, %u) }", {iota(8, 1), {4, 3, 1, 7}, {9, 10, 11, 12}}, "(8) [1, 11, 3, 10, 9, 6, 7, 12]");
    row("scatter_nd add", "def @main(%x: " + tensor("3") + ", %n: " + tensor("1, 2", "int64") + ", %u: " + tensor("2") +
        ") { scatter_nd(%x, %n, %u, mode=\"add\") }", {{10, 20, 30}, {0, 0}, {1, 2}}, "(3) [13, 20, 30]");
    row("scatter_nd rows", "def @main(%x: " + tensor("2, 2") + ", %n: " + tensor("1, 1", "int64") + ", %u: " + tensor("1, 2") +
        ") { scatter_nd(%x, %n, %u, mode=\"max\") }", {{1, 5, 3, 4}, {0}, {2, 2}}, "(2, 2) [2, 5, 3, 4]");
    // vision.roi_align on a plane holding 4y + x, which bilinear sampling reproduces exactly inside it;
    // samples more than a pixel outside count as 0 (TVM's topi roi_align).
    const std::string roi = "def @main(%x: " + tensor("1, 1, 4, 4") + ", %r: " + tensor("1, 5") + ") { ";
    row("roi_align", roi + "vision.roi_align(%x, %r, pooled_size=[2, 2], spatial_scale=1f, sample_ratio=1) }",
        {iota(16), {0, 0, 0, 3, 3}}, "(1, 1, 2, 2) [3.75, 5.25, 9.75, 11.25]");
    row("roi_align adaptive grid", roi + "vision.roi_align(%x, %r, pooled_size=[2, 2], spatial_scale=1f) }",
        {iota(16), {0, 0, 0, 3, 3}}, "(1, 1, 2, 2) [3.75, 5.25, 9.75, 11.25]");
    row("roi_align outside", roi + "vision.roi_align(%x, %r, pooled_size=[1, 1], spatial_scale=1f, sample_ratio=2) }",
        {iota(16), {0, 2, 2, 6, 6}}, "(1, 1, 1, 1) [3.75]");
    row("roi_align max", roi + "vision.roi_align(%x, %r, pooled_size=[1, 1], spatial_scale=1f, sample_ratio=2, mode=\"max\") }",
        {iota(16), {0, 2, 2, 6, 6}}, "(1, 1, 1, 1) [15]");
    row("roi_align scale", roi + "vision.roi_align(%x, %r, pooled_size=[1, 1], spatial_scale=0.5f, sample_ratio=1) }",
        {iota(16), {0, 0, 0, 6, 6}}, "(1, 1, 1, 1) [7.5]");
  }
  void handComputed() {
    QFETCH(QString, program);
    QFETCH(QVariantList, inputs);
    QFETCH(QString, expected);
    std::string text = program.toStdString();
    // Rows that take integer indices declare them here to keep the table compact.
    if (text.find("%i") != std::string::npos)
      text.replace(text.find(") {"), 3, ", %i: Tensor[(2), int32]) {");
    std::vector<std::vector<double>> values;
    for (const QVariant& list : inputs) {
      std::vector<double> inner;
      for (const QVariant& v : list.toList()) inner.push_back(v.toDouble());
      values.push_back(inner);
    }
    Result<Value> out = evaluate(text, values);
    QVERIFY2(out.isOk(), out.isOk() ? "" : out.error().str().c_str());
    QCOMPARE(QString::fromStdString(format(*out)), expected);
  }

  void conv2dMatchesNaiveLoops_data() {
    QTest::addColumn<int>("channels");
    QTest::addColumn<int>("outChannels");
    QTest::addColumn<int>("kernel");
    QTest::addColumn<int>("stride");
    QTest::addColumn<int>("pad");
    QTest::addColumn<int>("dilation");
    QTest::addColumn<int>("groups");
    QTest::newRow("3x3 same") << 4 << 8 << 3 << 1 << 1 << 1 << 1;
    QTest::newRow("strided 7x7") << 3 << 5 << 7 << 2 << 3 << 1 << 1;
    QTest::newRow("dilated") << 4 << 4 << 3 << 1 << 2 << 2 << 1;
    QTest::newRow("grouped") << 8 << 6 << 3 << 1 << 1 << 1 << 2;
    QTest::newRow("depthwise") << 6 << 6 << 3 << 2 << 1 << 1 << 6;
    QTest::newRow("pointwise") << 16 << 12 << 1 << 1 << 0 << 1 << 1;
  }
  void conv2dMatchesNaiveLoops() {
    QFETCH(int, channels);
    QFETCH(int, outChannels);
    QFETCH(int, kernel);
    QFETCH(int, stride);
    QFETCH(int, pad);
    QFETCH(int, dilation);
    QFETCH(int, groups);
    NDArray x = randomTensor({2, channels, 11, 13}, 11);
    NDArray w = randomTensor({outChannels, channels / groups, kernel, kernel}, 12);
    const std::string attrs = "strides=[" + std::to_string(stride) + ", " + std::to_string(stride) + "], padding=[" +
                              std::to_string(pad) + ", " + std::to_string(pad) + "], dilation=[" +
                              std::to_string(dilation) + ", " + std::to_string(dilation) + "], groups=" + std::to_string(groups);
    Interpreter interpreter(typedModule("def @main(%x: " + typeToString(x.type()) + ", %w: " + typeToString(w.type()) +
                                        ") { nn.conv2d(%x, %w, " + attrs + ") }"));
    Result<Value> out = interpreter.call("main", std::vector<Value>{x, w});
    QVERIFY(out.isOk());
    QCOMPARE(toleranceExcess(out->tensor(), naiveConv2d(x, w, stride, pad, dilation, groups)), 0.0);

    // The same convolution in NHWC / HWIO.
    Interpreter nhwc(typedModule("def @main(%x: " + typeToString(kernels::permuted(x, {0, 2, 3, 1}).type()) + ", %w: " +
                                 typeToString(kernels::permuted(w, {2, 3, 1, 0}).type()) + ") { nn.conv2d(%x, %w, " +
                                 attrs + ", data_layout=\"NHWC\", kernel_layout=\"HWIO\") }"));
    Result<Value> permutedOut = nhwc.call(
        "main", std::vector<Value>{kernels::permuted(x, {0, 2, 3, 1}), kernels::permuted(w, {2, 3, 1, 0})});
    QVERIFY(permutedOut.isOk());
    QCOMPARE(toleranceExcess(kernels::permuted(permutedOut->tensor(), {0, 3, 1, 2}), out->tensor()), 0.0);
  }

  void conv2dTransposeMatchesScatterLoops_data() {
    QTest::addColumn<int>("stride");
    QTest::addColumn<int>("pad");
    QTest::addColumn<int>("groups");
    QTest::newRow("stride 2") << 2 << 1 << 1;
    QTest::newRow("stride 1 grouped") << 1 << 0 << 2;
  }
  void conv2dTransposeMatchesScatterLoops() {
    QFETCH(int, stride);
    QFETCH(int, pad);
    QFETCH(int, groups);
    const int64_t c = 4, o = 6 / groups, h = 5, k = 3;
    NDArray x = randomTensor({1, c, h, h}, 21);
    NDArray w = randomTensor({c, o, k, k}, 22);
    Interpreter interpreter(typedModule(
        "def @main(%x: " + typeToString(x.type()) + ", %w: " + typeToString(w.type()) + ") { nn.conv2d_transpose(%x, %w, strides=[" +
        std::to_string(stride) + ", " + std::to_string(stride) + "], padding=[" + std::to_string(pad) + ", " +
        std::to_string(pad) + "], groups=" + std::to_string(groups) + ") }"));
    Result<Value> out = interpreter.call("main", std::vector<Value>{x, w});
    QVERIFY(out.isOk());
    const int64_t oh = (h - 1) * stride - 2 * pad + k;
    const int64_t outChannels = o * groups, cg = c / groups;
    NDArray expected = NDArray::zeros(DType::Float32, {1, outChannels, oh, oh});
    for (int64_t ic = 0; ic < c; ++ic)
      for (int64_t oc = 0; oc < o; ++oc)
        for (int64_t i = 0; i < h; ++i)
          for (int64_t j = 0; j < h; ++j)
            for (int64_t a = 0; a < k; ++a)
              for (int64_t b = 0; b < k; ++b) {
                const int64_t r = i * stride - pad + a, q = j * stride - pad + b;
                if (r < 0 || r >= oh || q < 0 || q >= oh) continue;
                const int64_t channel = (ic / cg) * o + oc;
                expected.data<float>()[(channel * oh + r) * oh + q] +=
                    x.data<float>()[(ic * h + i) * h + j] * w.data<float>()[((ic * o + oc) * k + a) * k + b];
              }
    QCOMPARE(toleranceExcess(out->tensor(), expected), 0.0);
  }

  void denseMatchesNaiveLoops_data() {
    QTest::addColumn<int>("threads");
    QTest::newRow("1 thread") << 1;
    QTest::newRow("2 threads") << 2;
  }
  void denseMatchesNaiveLoops() {
    QFETCH(int, threads);
    NDArray x = randomTensor({3, 7, 300}, 31);
    NDArray w = randomTensor({130, 300}, 32);
    ExecutorOptions options;
    options.threads = threads;
    Result<std::unique_ptr<Executor>> executor = Executor::create(
        typedModule("def @main(%x: " + typeToString(x.type()) + ", %w: " + typeToString(w.type()) + ") { nn.dense(%x, %w) }"),
        options);
    QVERIFY(executor.isOk());
    Result<Value> out = (*executor)->run(std::vector<Value>{x, w});
    QVERIFY(out.isOk());
    NDArray expected = NDArray::empty(DType::Float32, {3, 7, 130});
    for (int64_t m = 0; m < 21; ++m)
      for (int64_t n = 0; n < 130; ++n) {
        double sum = 0;
        for (int64_t k = 0; k < 300; ++k) sum += double(x.data<float>()[m * 300 + k]) * w.data<float>()[n * 300 + k];
        expected.data<float>()[m * 130 + n] = static_cast<float>(sum);
      }
    QCOMPARE(toleranceExcess(out->tensor(), expected), 0.0);
  }

  void kernelErrors_data() {
    QTest::addColumn<QString>("program");
    QTest::addColumn<QString>("error");
    QTest::newRow("pad mode") << "def @main(%x: Tensor[(2), float32], %v: float32) { nn.pad(%x, %v, pad_width=[[1, 1]], pad_mode=\"wrap\") }"
                              << "in.relay:1:52: nn.pad: unknown pad_mode \"wrap\"; expected constant, edge or reflect";
    QTest::newRow("where condition") << "def @main(%c: Tensor[(2), int32], %x: Tensor[(2), float32]) { where(%c, %x, %x) }"
                                     << "in.relay:1:63: where: the condition must be bool, found int32";
    QTest::newRow("resize mode") << "def @main(%x: Tensor[(1, 1, 2, 2), float32]) { image.resize2d(%x, size=[4, 4], "
                                    "coordinate_transformation_mode=\"tf_crop_and_resize\") }"
                                 << "in.relay:1:48: image.resize2d: unsupported coordinate_transformation_mode \"tf_crop_and_resize\"";
    QTest::newRow("take empty") << "def @main(%x: Tensor[(0, 2), float32], %i: Tensor[(1), int32]) { take(%x, %i, axis=0) }"
                                << "in.relay:1:66: take: cannot take from an empty axis";
    QTest::newRow("conv int8") << "def @main(%x: Tensor[(1, 1, 3, 3), int8], %w: Tensor[(1, 1, 1, 1), int8]) { nn.conv2d(%x, %w) }"
                               << "in.relay:1:77: nn.conv2d: int8 is not supported by the reference kernels";
  }
  void kernelErrors() {
    QFETCH(QString, program);
    QFETCH(QString, error);
    Module module = typedModule(program.toStdString());
    std::vector<Value> args;
    for (const Var& param : module.find("main")->params) {
      const auto* type = param->type()->as<TensorTypeNode>();
      args.push_back(NDArray::zeros(type->dtype, type->shape));
    }
    Interpreter interpreter(module);
    Result<Value> out = interpreter.call("main", args);
    QVERIFY(!out.isOk());
    QCOMPARE(QString::fromStdString(out.error().str()), error);
  }

  void indexOutsideItsAxisIsAnError() {
    const std::string program = "def @main(%x: " + tensor("3") + ", %n: " + tensor("1, 2", "int64") + ") { gather_nd(%x, %n) }";
    Result<Value> out = evaluate(program, {{1, 2, 3}, {0, 3}});
    QVERIFY(!out.isOk());
    QCOMPARE(QString::fromStdString(out.error().str()),
             QStringLiteral("in.relay:1:66: gather_nd: index 3 of tuple 1 is outside an axis of size 3; expected -3 to 2"));
  }

  void hostileRegionsAreErrors() {
    const std::string program = "def @main(%x: " + tensor("1, 1, 4, 4") + ", %r: " + tensor("1, 5") +
                                ") { vision.roi_align(%x, %r, pooled_size=[1, 1], spatial_scale=1f) }";
    auto error = [&](std::vector<double> region) {
      Result<Value> out = evaluate(program, {iota(16), std::move(region)});
      return out.isOk() ? std::string("(no error)") : out.error().message;
    };
    QCOMPARE(error({1, 0, 0, 2, 2}), std::string("vision.roi_align: region 0 names batch entry 1; expected 0 to 0"));
    QCOMPARE(error({0, 0, 0, 1048576, 2}), std::string("vision.roi_align: region 0 spans 2 x 1048576 pixels: more than 65536 samples "
                                                    "per output element; expected a smaller region or a positive sample_ratio"));
    QCOMPARE(error({0, 0, std::nan(""), 2, 2}), std::string("vision.roi_align: region 0 has a non-finite coordinate"));
  }

  void unsupportedDTypeIsAnError() {
    Result<Value> out = evaluate("def @main(%x: " + tensor("2", "int32") + ", %w: " + tensor("2, 2", "int32") +
                                     ") { nn.dense(%x, %w) }",
                                 {{1, 2}, {1, 2, 3, 4}});
    QVERIFY(!out.isOk());
    QCOMPARE(QString::fromStdString(out.error().str()), QString("in.relay:1:64: nn.dense: int32 is not supported by the reference kernels"));
  }
};

QTEST_GUILESS_MAIN(TestKernels)
#include "test_kernels.moc"
