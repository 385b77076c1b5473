#include <QtTest>

#include <cmath>

#include "runtime/interpreter.h"
#include "runtime/kernels/quantize_math.h"
#include "runtime_test_util.h"

using namespace byoc;
using namespace byoc::testing;

namespace {

/// Runs @main of `text` on `inputs` (converted to each parameter's dtype) and prints the result
/// as "[v, v, …]" with up to 6 significant digits, or "error: …".
std::string run(const std::string& text, const std::vector<std::vector<double>>& inputs) {
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
  Result<Value> result = Interpreter(module).call("main", args);
  if (!result) return "error: " + result.error().message;
  const NDArray& array = result->tensor();
  std::string printed = "[";
  for (int64_t i = 0; i < array.numElements(); ++i) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.6g", array.elementAsDouble(i));
    printed += (i ? ", " : "") + std::string(buffer);
  }
  return printed + "]";
}

}  // namespace

/// The qnn reference kernels against hand-computed values: TVM's rounding of ties in each mode,
/// saturation, per-axis parameters, zero points in the integer products.
class TestQnnKernels : public QObject {
  Q_OBJECT

 private slots:
  void fixedPoint() {
    using namespace kernels;
    // 0.5 = 2^30 * 2^(0 - 31); 2 = 2^30 * 2^(2 - 31); 0.75 = round(0.75 * 2^31) * 2^-31.
    QCOMPARE(fixedPointOf(0.5).significand, 1 << 30);
    QCOMPARE(fixedPointOf(0.5).shift, 0);
    QCOMPARE(fixedPointOf(2.0).shift, 2);
    QCOMPARE(fixedPointOf(0.75).significand, int32_t{1610612736});
    QCOMPARE(fixedPointOf(0.0).significand, 0);
    // Ties: upward goes toward +infinity, to-nearest away from zero.
    const FixedPoint half = fixedPointOf(0.5);
    QCOMPARE(fixedPointMultiply(1, half, QnnRounding::Upward), int64_t{1});
    QCOMPARE(fixedPointMultiply(-1, half, QnnRounding::Upward), int64_t{0});
    QCOMPARE(fixedPointMultiply(-3, half, QnnRounding::Upward), int64_t{-1});
    QCOMPARE(fixedPointMultiply(-1, half, QnnRounding::ToNearest), int64_t{-1});
    QCOMPARE(fixedPointMultiply(-3, half, QnnRounding::ToNearest), int64_t{-2});
    QCOMPARE(fixedPointMultiply(-2, half, QnnRounding::ToNearest), int64_t{-1});
    // A product far beyond int64 saturates instead of wrapping.
    QCOMPARE(fixedPointMultiply(INT64_MAX, fixedPointOf(4.0), QnnRounding::Upward), INT64_MAX);
    QCOMPARE(fixedPointMultiply(1000, fixedPointOf(1e-30), QnnRounding::Upward), int64_t{0});
    QCOMPARE(intRange(DType::UInt8).max, int64_t{255});
  }

  void handComputed_data() {
    QTest::addColumn<QString>("program");
    QTest::addColumn<QVariantList>("inputs");
    QTest::addColumn<QString>("expected");
    auto row = [](const char* tag, const std::string& program, std::vector<std::vector<double>> inputs,
                  const char* expected) {
      QVariantList list;
      for (const auto& values : inputs) {
        QVariantList inner;
        for (double v : values) inner.push_back(v);
        list.push_back(inner);
      }
      QTest::newRow(tag) << QString::fromStdString(program) << list << QString(expected);
    };
    const std::string f6 = "def @main(%x: Tensor[(6), float32]) { ";
    const std::vector<double> ties = {-1.0, -0.25, 0.25, 0.75, 1.25, 100};
    // x / 0.5 = -2, -0.5, 0.5, 1.5, 2.5, 200: half to even, then + 3, then saturation.
    row("quantize ties and saturation", f6 + "qnn.quantize(%x, 0.5f, 3) }", {ties}, "[1, 3, 3, 5, 5, 127]");
    row("quantize uint8", f6 + "qnn.quantize(%x, 0.5f, 0, out_dtype=\"uint8\") }", {ties}, "[0, 0, 0, 2, 2, 200]");
    row("quantize int32", f6 + "qnn.quantize(%x, 0.5f, -1, out_dtype=\"int32\") }", {ties}, "[-3, -1, -1, 1, 1, 199]");
    row("quantize per-axis",
        "def @main(%x: Tensor[(2, 3), float32], %s: Tensor[(3), float32], %z: Tensor[(3), int32]) { "
        "qnn.quantize(%x, %s, %z, axis=1) }",
        {{1, 1, 1, -2, 2, 0.125}, {1, 0.5, 0.25}, {0, 1, -1}}, "[1, 3, 3, -2, 5, -1]");
    row("dequantize", "def @main(%x: Tensor[(4), int8]) { qnn.dequantize(%x, 0.5f, 3) }", {{-128, 0, 5, 127}},
        "[-65.5, -1.5, 1, 62]");
    row("dequantize uint8 per-axis",
        "def @main(%x: Tensor[(2, 2), uint8], %s: Tensor[(2), float32], %z: Tensor[(2), int32]) { "
        "qnn.dequantize(%x, %s, %z, axis=0) }",
        {{0, 255, 10, 20}, {0.5, 2}, {128, 10}}, "[-64, 63.5, 0, 20]");

    const std::string i6 = "def @main(%x: Tensor[(6), int32]) { ";
    const std::vector<double> odd = {-3, -1, 1, 3, 1000, -1000};
    // A multiplier of 0.5: -1.5, -0.5, 0.5, 1.5 are ties.
    row("requantize upward", i6 + "qnn.requantize(%x, 1f, 0, 2f, 0) }", {odd}, "[-1, 0, 1, 2, 127, -128]");
    row("requantize tonearest", i6 + "qnn.requantize(%x, 1f, 0, 2f, 0, rounding=\"TONEAREST\") }", {odd},
        "[-2, -1, 1, 2, 127, -128]");
    row("requantize zero points", i6 + "qnn.requantize(%x, 1f, 1, 2f, 10, out_dtype=\"uint8\") }", {odd},
        "[8, 9, 10, 11, 255, 0]");
    row("requantize ratio", i6 + "qnn.requantize(%x, 0.3f, 0, 0.7f, 0, out_dtype=\"int32\") }", {odd},
        "[-1, 0, 0, 1, 429, -429]");
    row("requantize per-axis",
        "def @main(%x: Tensor[(2, 2), int32], %s: Tensor[(2), float32]) { "
        "qnn.requantize(%x, %s, 0, 2f, 0, axis=1) }",
        {{3, 3, -3, -3}, {1, 4}}, "[2, 6, -1, -6]");

    // (x - 1) is 0..8 in a 3x3 grid; kernels [[1, 0], [0, 1]] and all ones (the latter at zero point 1).
    row("conv2d",
        "def @main(%x: Tensor[(1, 1, 3, 3), uint8], %w: Tensor[(2, 1, 2, 2), int8], %zw: Tensor[(2), int32]) { "
        "qnn.conv2d(%x, %w, 1, %zw, 0.5f, 0.5f) }",
        {{1, 2, 3, 4, 5, 6, 7, 8, 9}, {1, 0, 0, 1, 2, 2, 2, 2}, {0, 1}}, "[4, 6, 10, 12, 8, 12, 20, 24]");
    // Padding holds the input zero point, so it adds nothing: out[i][j] = x'[i-1][j-1] + x'[i][j].
    row("conv2d padding",
        "def @main(%x: Tensor[(1, 1, 2, 2), int8], %w: Tensor[(1, 1, 2, 2), int8]) { "
        "qnn.conv2d(%x, %w, -5, 0, 0.5f, 0.5f, padding=[1, 1]) }",
        {{-4, -3, -2, -1}, {1, 0, 0, 1}}, "[1, 2, 0, 3, 5, 2, 0, 3, 4]");
    row("conv2d NHWC",
        "def @main(%x: Tensor[(1, 2, 2, 2), int8], %w: Tensor[(1, 1, 2, 1), int8]) { "
        "qnn.conv2d(%x, %w, 0, 0, 0.5f, 0.5f, data_layout=\"NHWC\", kernel_layout=\"HWIO\") }",
        {{1, 10, 2, 20, 3, 30, 4, 40}, {1, -1}}, "[-9, -18, -27, -36]");
    row("dense",
        "def @main(%x: Tensor[(2, 3), int8], %w: Tensor[(2, 3), int8], %zw: Tensor[(2), int32]) { "
        "qnn.dense(%x, %w, 1, %zw, 0.5f, 0.5f) }",
        {{1, 2, 3, -1, 0, 4}, {1, 1, 1, 2, 0, -1}, {0, 1}}, "[3, -5, 0, -7]");

    const std::string bin = "def @main(%a: Tensor[(4), int8], %b: Tensor[(4), int8]) { ";
    // lhs: x * 0.5 - 1 (upward ties); rhs: (4 - 2) * 0.25 = 0.5 rounds up to 1, - 1 = 0; then + 1.
    row("add", bin + "qnn.add(%a, %b, 0.5f, 0, 0.25f, 2, 1f, -1) }", {{10, 20, -128, 127}, {4, 4, 4, 4}},
        "[5, 10, -64, 64]");
    row("add saturation", bin + "qnn.add(%a, %b, 1f, 0, 1f, 0, 1f, 0) }", {{127, -100, 1, 0}, {127, -100, 2, 0}},
        "[127, -128, 3, 0]");
    row("add broadcast",
        "def @main(%a: Tensor[(2, 2), uint8], %b: Tensor[(2), uint8]) { qnn.add(%a, %b, 1f, 0, 1f, 0, 1f, 0) }",
        {{1, 2, 3, 4}, {10, 20}}, "[11, 22, 13, 24]");
    // The operands requantized as for add (lhs 4, 9, -65, 63; rhs 0), subtracted, plus the zero point -1.
    row("subtract", bin + "qnn.subtract(%a, %b, 0.5f, 0, 0.25f, 2, 1f, -1) }", {{10, 20, -128, 127}, {4, 4, 4, 4}},
        "[3, 8, -66, 62]");
    row("subtract saturation", bin + "qnn.subtract(%a, %b, 1f, 0, 1f, 0, 1f, 0) }", {{-128, 127, 5, 0}, {127, -128, 2, 0}},
        "[-128, 127, 3, 0]");
    row("subtract broadcast",
        "def @main(%a: Tensor[(2, 2), uint8], %b: Tensor[(2), uint8]) { qnn.subtract(%a, %b, 1f, 0, 1f, 0, 1f, 5) }",
        {{10, 20, 30, 40}, {1, 2}}, "[14, 23, 34, 43]");
    // %a: x * 0.5 (ties upward) + 1 gives 6, -2; %b: (x - 2) + 1 gives 4, 1 and -129, saturated.
    row("concatenate",
        "def @main(%a: Tensor[(1, 2), int8], %b: Tensor[(1, 3), int8]) { "
        "qnn.concatenate((%a, %b), (0.5f, 1f), (0, 2), 1f, 1, axis=1) }",
        {{10, -7}, {5, 2, -128}}, "[6, -2, 4, 1, -128]");
    row("concatenate at the output parameters",
        "def @main(%a: Tensor[(2), uint8], %b: Tensor[(1), uint8]) { qnn.concatenate((%a, %b), (2f, 2f), (3, 3), 2f, 3) }",
        {{0, 255}, {7}}, "[0, 255, 7]");
    // (2)(2), (-3)(2), (4)(-5) at scale 0.25, requantized to 0.5 (ties upward) plus 1.
    row("mul", "def @main(%a: Tensor[(3), int8], %b: Tensor[(3), int8]) { qnn.mul(%a, %b, 0.5f, 0, 0.5f, 1, 0.5f, 1) }",
        {{2, -3, 4}, {3, 3, -4}}, "[3, -2, -9]");
    // Scales that are not finite and positive, given at run time (no importer saw them).
    const std::string scalar = "def @main(%x: Tensor[(2), int32], %s: Tensor[(), float32]) { ";
    row("requantize nan input scale", scalar + "qnn.requantize(%x, %s, 0, 0.5f, 0) }", {{1, 2}, {std::nan("")}},
        "error: qnn.requantize: input_scale (argument 1) is nan; expected a finite positive scale");
    row("requantize zero output scale", scalar + "qnn.requantize(%x, 0.5f, 0, %s, 0) }", {{1, 2}, {0}},
        "error: qnn.requantize: output_scale (argument 3) is 0; expected a finite positive scale");
    row("dequantize infinite scale", scalar + "qnn.dequantize(%x, %s, 0, out_dtype=\"float32\") }", {{1, 2}, {INFINITY}},
        "error: qnn.dequantize: input_scale (argument 1) is inf; expected a finite positive scale");
    row("quantize negative per-axis scale",
        "def @main(%x: Tensor[(2, 3), float32], %s: Tensor[(3), float32]) { qnn.quantize(%x, %s, 0, axis=1) }",
        {{1, 1, 1, 1, 1, 1}, {0.5, -0.25, 1}},
        "error: qnn.quantize: output_scale (argument 1) is -0.25 at channel 1; expected a finite positive scale");
    row("add negative output scale",
        "def @main(%a: Tensor[(2), uint8], %s: Tensor[(), float32]) { qnn.add(%a, %a, 1f, 0, 1f, 0, %s, 0) }",
        {{1, 2}, {-1}}, "error: qnn.add: output_scale (argument 6) is -1; expected a finite positive scale");
    row("concatenate negative field scale",
        "def @main(%a: Tensor[(2), int8], %s: Tensor[(), float32]) { qnn.concatenate((%a, %a), (1f, %s), (0, 0), 1f, 0) }",
        {{1, 2}, {-1}}, "error: qnn.concatenate: input_scales (argument 1) field 1 is -1; expected a finite positive scale");
    row("concatenate zero output scale",
        "def @main(%a: Tensor[(2), int8], %s: Tensor[(), float32]) { qnn.concatenate((%a, %a), (1f, 1f), (0, 0), %s, 0) }",
        {{1, 2}, {0}}, "error: qnn.concatenate: output_scale (argument 3) is 0; expected a finite positive scale");
    row("dense nan kernel scale",
        "def @main(%a: Tensor[(1, 2), int8], %w: Tensor[(1, 2), int8], %s: Tensor[(), float32]) { "
        "qnn.dense(%a, %w, 0, 0, 1f, %s, units=1) }",
        {{1, 2}, {1, 1}, {std::nan("")}},
        "error: qnn.dense: kernel_scale (argument 5) is nan; expected a finite positive scale");
  }

  void handComputed() {
    QFETCH(QString, program);
    QFETCH(QVariantList, inputs);
    QFETCH(QString, expected);
    std::vector<std::vector<double>> values;
    for (const QVariant& list : inputs) {
      std::vector<double> inner;
      for (const QVariant& v : list.toList()) inner.push_back(v.toDouble());
      values.push_back(inner);
    }
    QCOMPARE(QString::fromStdString(run(program.toStdString(), values)), expected);
  }

  /// The integer convolution equals the float convolution of the centred operands.
  void conv2dMatchesCenteredFloat() {
    const int64_t c = 4, h = 7, o = 6;
    std::vector<double> x, w, zw;
    NDArray xf = NDArray::empty(DType::Float32, {1, c, h, h});
    NDArray wf = NDArray::empty(DType::Float32, {o, c / 2, 3, 3});
    for (int64_t i = 0; i < xf.numElements(); ++i) {
      x.push_back(double((i * 37) % 256));
      xf.data<float>()[i] = float(x.back() - 100);
    }
    for (int64_t oc = 0; oc < o; ++oc) zw.push_back(double(oc - 3));
    for (int64_t i = 0; i < wf.numElements(); ++i) {
      w.push_back(double((i * 29) % 255 - 127));
      wf.data<float>()[i] = float(w.back() - zw[static_cast<std::size_t>(i / (c / 2 * 9))]);
    }
    std::string program =
        "def @main(%x: Tensor[(1, 4, 7, 7), uint8], %w: Tensor[(6, 2, 3, 3), int8], %zw: Tensor[(6), int32]) { "
        "qnn.conv2d(%x, %w, 100, %zw, 0.5f, 0.5f, padding=[1, 1], strides=[2, 2], groups=2) }";
    NDArray expected = naiveConv2d(xf, wf, 2, 1, 1, 2);
    std::string printed = "[";
    for (int64_t i = 0; i < expected.numElements(); ++i)
      printed += (i ? ", " : "") + std::to_string(static_cast<int64_t>(expected.data<float>()[i]));
    QCOMPARE(run(program, {x, w, zw}), printed + "]");
  }
};

QTEST_APPLESS_MAIN(TestQnnKernels)
#include "test_qnn_kernels.moc"
