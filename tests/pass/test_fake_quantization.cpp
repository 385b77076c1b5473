#include <QtTest>

#include <random>

#include "pass/infer_type.h"
#include "pass/transforms/fake_quantization_to_integer.h"
#include "pass_test_helpers.h"
#include "runtime/interpreter.h"
#include "support/base64.h"
#include "text/parser.h"

using namespace byoc;
using namespace byoc::testing;

namespace {

Module typed(const std::string& text) {
  Result<Module> parsed = parseModule(text, "in.relay");
  if (!parsed) qFatal("%s", parsed.error().str().c_str());
  Result<Module> module = inferTypes(*parsed);
  if (!module) qFatal("%s", module.error().str().c_str());
  return *module;
}

/// A metadata entry holding `values` as float32 or int32.
std::string metadataEntry(const std::vector<double>& values, DType dtype) {
  std::vector<std::byte> bytes;
  for (double v : values) {
    TensorData one = TensorData::scalar(dtype, v);
    bytes.insert(bytes.end(), one.bytes().begin(), one.bytes().end());
  }
  return "{\"dtype\": \"" + std::string(dtypeName(dtype)) + "\", \"shape\": [" + std::to_string(values.size()) +
         "], \"data\": \"" + base64Encode(bytes) + "\"}";
}

/// Random integers in [low, high] for every parameter of @main, in its dtype.
std::vector<Value> randomInputs(const Module& module, int low, int high, unsigned seed) {
  std::mt19937 generator(seed);
  std::uniform_int_distribution<int> uniform(low, high);
  std::vector<Value> inputs;
  for (const Var& param : module.find("main")->params) {
    const auto* type = param->type()->as<TensorTypeNode>();
    NDArray array = NDArray::empty(type->dtype, type->shape);
    std::vector<std::byte> bytes;
    for (int64_t i = 0; i < array.numElements(); ++i) {
      TensorData one = TensorData::scalar(type->dtype, uniform(generator));
      bytes.insert(bytes.end(), one.bytes().begin(), one.bytes().end());
    }
    inputs.emplace_back(NDArray::fromTensorData(TensorData::fromBytes(type->dtype, type->shape, bytes)));
  }
  return inputs;
}

NDArray run(const Module& module, const std::vector<Value>& inputs) {
  Result<Value> result = Interpreter(module).call("main", inputs);
  if (!result) qFatal("%s", result.error().str().c_str());
  return result->tensor();
}

Module fakeQuantizationToInteger(const Module& module) {
  return runVerified(createFakeQuantizationToIntegerPass(), module).module;
}

}  // namespace

/// FakeQuantizationToInteger on the cases of TVM's tests/python/relay/test_pass_fake_quantization_to_integer.py
/// (smaller shapes): the rewritten graph holds the integer ops and none of the float ones, and
/// computes what the fake-quantized graph computes, exactly or (where TVM's test allows it) within
/// one quantization step.
class TestFakeQuantization : public QObject {
  Q_OBJECT

 private slots:
  void matchesTvmCases_data() {
    QTest::addColumn<QString>("program");
    QTest::addColumn<int>("low");
    QTest::addColumn<int>("high");
    QTest::addColumn<QStringList>("present");
    QTest::addColumn<QStringList>("absent");
    QTest::addColumn<bool>("roundingError");
    auto row = [](const char* tag, const std::string& program, int low, int high, QStringList present,
                  QStringList absent, bool roundingError) {
      QTest::newRow(tag) << QString::fromStdString(program) << low << high << present << absent << roundingError;
    };
    const std::string x8 = "%x: Tensor[(1, 3, 16, 16), int8]";
    const std::string u8 = "%x: Tensor[(1, 3, 16, 16), uint8]";
    const std::string dqx = "qnn.dequantize(%x, 2f, 0)";
    for (const char* dtype : {"int8", "uint8"}) {
      row((std::string("conv ") + dtype).c_str(),
          "def @main(" + x8 + ", %w: Tensor[(16, 3, 5, 5), int8]) { %0 = nn.conv2d(" + dqx +
              ", qnn.dequantize(%w, 0.5f, 0), kernel_size=[5, 5]); qnn.quantize(%0, 1f, 0, out_dtype=\"" + dtype + "\") }",
          -128, 127, {"qnn.conv2d(", "qnn.requantize("}, {" nn.conv2d(", "qnn.dequantize("}, false);
    }
    const std::string channelScales = metadataEntry({0.5, 0.25, 0.125, 1.0}, DType::Float32);
    const std::string channelZeros = metadataEntry({0, 0, 0, 0}, DType::Int32);
    row("conv per channel",
        "def @main(" + x8 + ", %w: Tensor[(4, 3, 5, 5), int8]) { %0 = nn.conv2d(" + dqx +
            ", qnn.dequantize(%w, meta[relay.Constant][0], meta[relay.Constant][1], axis=0), kernel_size=[5, 5]); "
            "qnn.quantize(%0, 1f, 0) }\n#[metadata]\n{\"relay.Constant\": [" + channelScales + ", " + channelZeros + "]}",
        -128, 127, {"qnn.conv2d(", "qnn.requantize("}, {" nn.conv2d("}, true);
    row("dense",
        "def @main(%x: Tensor[(16, 64), int8], %w: Tensor[(32, 64), int8]) { %0 = nn.dense(qnn.dequantize(%x, 2f, 0), "
        "qnn.dequantize(%w, 0.5f, 0), units=32); qnn.quantize(%0, 1f, 0) }",
        -128, 127, {"qnn.dense(", "qnn.requantize("}, {" nn.dense("}, false);
    const std::string xy = "def @main(" + x8 + ", %y: Tensor[(1, 3, 16, 16), int8]) { %0 = ";
    const std::string dqxy = "(qnn.dequantize(%x, 0.1f, 0), qnn.dequantize(%y, 0.2f, 0)); ";
    row("add", xy + "add" + dqxy + "qnn.quantize(%0, 0.1f, 0) }", -25, 25, {"qnn.add("}, {"qnn.dequantize("}, true);
    row("subtract", xy + "subtract" + dqxy + "qnn.quantize(%0, 0.1f, 0) }", -25, 25, {"qnn.subtract("},
        {"qnn.dequantize("}, true);
    row("concatenate",
        "def @main(%x0: Tensor[(1, 4), int8], %x1: Tensor[(1, 4), int8], %x2: Tensor[(1, 4), int8], "
        "%x3: Tensor[(1, 4), int8]) { %0 = concatenate((qnn.dequantize(%x0, 0.5f, 0), qnn.dequantize(%x1, 1.5f, 0), "
        "qnn.dequantize(%x2, 2.5f, 0), qnn.dequantize(%x3, 3.5f, 0)), axis=1); qnn.quantize(%0, 3.5f, 0) }",
        -128, 127, {"qnn.concatenate("}, {"qnn.dequantize(", " concatenate(", "qnn.requantize("}, false);
    // The concatenate reads the quantize of another region, rewritten into a qnn.add: the tuple of
    // its fields holds that region's new, untyped calls, which InferType must reach.
    row("concatenate of another region's result",
        xy + "add" + dqxy + "%1 = qnn.dequantize(qnn.quantize(%0, 0.2f, 0), 0.2f, 0); "
        "%2 = concatenate((%1, qnn.dequantize(%x, 0.1f, 0)), axis=1); qnn.quantize(%2, 0.3f, 0) }",
        -25, 25, {"qnn.add(", "qnn.concatenate("}, {"qnn.dequantize(", " concatenate("}, true);
    row("multiply", xy + "multiply" + dqxy + "qnn.quantize(%0, 20f, 0) }", -25, 25, {"qnn.mul("}, {"qnn.dequantize("},
        true);
    row("minimum", xy + "minimum" + dqxy + "qnn.quantize(%0, 0.1f, 0) }", -25, 25, {"minimum("}, {"qnn.dequantize("},
        true);
    row("maximum", xy + "maximum" + dqxy + "qnn.quantize(%0, 0.1f, 0) }", -25, 25, {"maximum("}, {"qnn.dequantize("},
        true);
    // The fake-quantized graph adds in float and rounds once: qnn.add produces the quantize's
    // parameters, rather than saturating to an operand's range and requantizing after.
    row("add at the output parameters",
        "def @main(" + x8 + ", %y: Tensor[(1, 3, 16, 16), int8]) { %0 = add(qnn.dequantize(%x, 0.1f, 0), "
        "qnn.dequantize(%y, 0.01f, 0)); qnn.quantize(%0, 0.1f, 0) }",
        -25, 25, {"0.01f /* ty=float32 */, 0 /* ty=int32 */, 0.1f /* ty=float32 */, 0 /* ty=int32 */)"}, {"qnn.requantize(", "qnn.dequantize("}, true);
    // So does a sum under ops that keep their input's type (a residual block's add and relu).
    row("add under relu at the output parameters",
        "def @main(" + x8 + ", %y: Tensor[(1, 3, 16, 16), int8]) { %0 = add(qnn.dequantize(%x, 0.1f, 0), "
        "qnn.dequantize(%y, 0.01f, 0)); %1 = nn.relu(%0); qnn.quantize(%1, 0.2f, 0) }",
        -25, 25, {"0.01f /* ty=float32 */, 0 /* ty=int32 */, 0.2f /* ty=float32 */, 0 /* ty=int32 */)"}, {"qnn.requantize(", "qnn.dequantize("}, true);
    // A Gemm's bias imports as add, not nn.bias_add: an int32 bias at the product's scale stays an add.
    row("dense add bias",
        "def @main(%x: Tensor[(16, 64), int8], %w: Tensor[(32, 64), int8], %b: Tensor[(32), int32]) { "
        "%0 = nn.dense(qnn.dequantize(%x, 2f, 0), qnn.dequantize(%w, 0.5f, 0), units=32); "
        "%1 = add(%0, qnn.dequantize(%b, 1f, 0, axis=0)); qnn.quantize(%1, 1f, 0) }",
        -128, 127, {"qnn.dense(", " add(", "qnn.requantize("}, {"qnn.add(", "qnn.dequantize("}, false);
    row("add constant",
        "def @main(" + x8 + ") { %0 = add(qnn.dequantize(%x, 0.1f, 0), 1f); qnn.quantize(%0, 0.1f, 0) }", -25, 25,
        {"qnn.add(", "qnn.quantize(1f"}, {"qnn.dequantize("}, true);
    row("relu",
        "def @main(" + u8 + ") { %0 = nn.relu(qnn.dequantize(%x, 2f, 114)); qnn.quantize(%0, 2f, 114, out_dtype=\"uint8\") }",
        0, 255, {"maximum(%x, 114u8"}, {"nn.relu(", "qnn.requantize("}, false);
    row("relu per channel",
        "def @main(" + u8 + ") { %0 = nn.relu(qnn.dequantize(%x, meta[relay.Constant][0], meta[relay.Constant][1], "
        "axis=1)); qnn.quantize(%0, 2f, 114, out_dtype=\"uint8\") }\n#[metadata]\n{\"relay.Constant\": [" +
            metadataEntry({1, 2, 3}, DType::Float32) + ", " + metadataEntry({96, 114, 128}, DType::Int32) + "]}",
        0, 255, {"maximum(", "qnn.requantize("}, {"nn.relu("}, true);
    row("clip",
        "def @main(" + u8 + ") { %0 = clip(qnn.dequantize(%x, 2f, 114), a_min=0f, a_max=6f); "
        "qnn.quantize(%0, 2f, 114, out_dtype=\"uint8\") }",
        0, 255, {"clip(%x, a_min=114f, a_max=117f)"}, {"qnn.dequantize("}, false);
    row("max pool", "def @main(" + x8 + ") { %0 = nn.max_pool2d(" + dqx + ", pool_size=[3, 3]); qnn.quantize(%0, 2f, 0) }",
        -128, 127, {"nn.max_pool2d(%x"}, {"qnn.dequantize("}, false);
    row("avg pool", "def @main(" + x8 + ") { %0 = nn.avg_pool2d(" + dqx + ", pool_size=[3, 3]); qnn.quantize(%0, 2f, 0) }",
        -128, 127, {"cast(%x, dtype=\"int32\")"}, {"qnn.dequantize("}, true);
    // The mean rounds once: the int32 sum requantized from the scale / count (TVM's int32 average
    // truncates, then requantizes: five steps of the finer scale lost in the second row).
    row("global avg pool", "def @main(" + x8 + ") { %0 = nn.global_avg_pool2d(" + dqx + "); qnn.quantize(%0, 2f, 0) }",
        -128, 127, {"sum(%0, axis=[2, 3], keepdims=True)", "qnn.requantize("}, {"qnn.dequantize(", "nn.global_avg_pool2d("},
        true);
    row("global avg pool into a finer scale",
        "def @main(" + x8 + ") { %0 = nn.global_avg_pool2d(qnn.dequantize(%x, 0.5f, 3)); qnn.quantize(%0, 0.1f, -2) }",
        -20, 20, {"sum(%0, axis=[2, 3], keepdims=True)", "0.001953125f /* ty=float32 */, 768 /* ty=int32 */, 0.1f"},
        {"qnn.dequantize(", "nn.global_avg_pool2d("}, true);
    // Wider values could overflow the int32 sum: they pool as TVM does.
    row("global avg pool of int32 values",
        "def @main(%x: Tensor[(1, 3, 16, 16), int32]) { %0 = nn.global_avg_pool2d(qnn.dequantize(%x, 2f, 0)); "
        "qnn.quantize(%0, 20f, 0) }",
        -1000, 1000, {"nn.global_avg_pool2d("}, {"qnn.dequantize(", "sum("}, true);
    row("reshape", "def @main(" + x8 + ") { %0 = reshape(" + dqx + ", newshape=[1, 3, -1]); qnn.quantize(%0, 2f, 0) }",
        -128, 127, {"reshape(%x"}, {"qnn.dequantize(", "qnn.quantize("}, false);
    row("transpose", "def @main(" + x8 + ") { %0 = transpose(" + dqx + ", axes=[0, 2, 3, 1]); qnn.quantize(%0, 2f, 0) }",
        -128, 127, {"transpose(%x"}, {"qnn.dequantize("}, false);
    row("conv bias relu",
        "def @main(" + u8 + ", %w: Tensor[(4, 3, 3, 3), int8], %b: Tensor[(4), int32]) { "
        "%0 = nn.conv2d(qnn.dequantize(%x, 0.05f, 128), qnn.dequantize(%w, 0.02f, 0), padding=[1, 1]); "
        "%1 = nn.bias_add(%0, qnn.dequantize(%b, 0.001f, 0)); %2 = nn.relu(%1); "
        "qnn.quantize(%2, 0.1f, 100, out_dtype=\"uint8\") }",
        0, 255, {"qnn.conv2d(", "nn.bias_add(", "maximum(", "qnn.requantize("}, {" nn.conv2d(", "qnn.dequantize("}, true);
  }

  void matchesTvmCases() {
    QFETCH(QString, program);
    QFETCH(int, low);
    QFETCH(int, high);
    QFETCH(QStringList, present);
    QFETCH(QStringList, absent);
    QFETCH(bool, roundingError);
    const Module original = typed(program.toStdString());
    const Module integer = fakeQuantizationToInteger(original);
    const std::string printed = printTyped(integer);
    for (const QString& text : present) QVERIFY2(printed.find(text.toStdString()) != std::string::npos, printed.c_str());
    for (const QString& text : absent) QVERIFY2(printed.find(text.toStdString()) == std::string::npos, printed.c_str());
    const std::vector<Value> inputs = randomInputs(original, low, high, 7);
    const NDArray expected = run(original, inputs);
    const NDArray actual = run(integer, inputs);
    QCOMPARE(actual.dtype(), expected.dtype());
    QCOMPARE(actual.shape(), expected.shape());
    double worst = 0;
    for (int64_t i = 0; i < actual.numElements(); ++i)
      worst = std::max(worst, std::abs(actual.elementAsDouble(i) - expected.elementAsDouble(i)));
    QVERIFY2(worst <= (roundingError ? 1.0 : 0.0), qPrintable(QString("largest difference %1").arg(worst)));
  }

  /// The form TVM gives a QDQ conv → bias → relu chain: qnn.conv2d, an int32 bias_add, a maximum
  /// at the zero point 0, and one requantize to the output parameters.
  void convBiasReluForm() {
    const Module integer = fakeQuantizationToInteger(typed(
        "def @main(%x: Tensor[(1, 3, 8, 8), uint8], %w: Tensor[(4, 3, 3, 3), int8], %b: Tensor[(4), int32]) { "
        "%0 = nn.conv2d(qnn.dequantize(%x, 0.05f, 128), qnn.dequantize(%w, 0.02f, 0), padding=[1, 1]); "
        "%1 = nn.bias_add(%0, qnn.dequantize(%b, 0.001f, 0)); %2 = nn.relu(%1); "
        "qnn.quantize(%2, 0.1f, 100, out_dtype=\"uint8\") }"));
    QVERIFY(sameText(printTyped(integer),
                     "def @main(%x: Tensor[(1, 3, 8, 8), uint8] /* ty=Tensor[(1, 3, 8, 8), uint8] */, %w: Tensor[(4, 3, 3, 3), int8] /* ty=Tensor[(4, 3, 3, 3), int8] */, %b: Tensor[(4), int32] /* ty=Tensor[(4), int32] */) -> Tensor[(1, 4, 8, 8), uint8] {\n"
                     "  %0 = qnn.conv2d(%x, %w, 128 /* ty=int32 */, 0 /* ty=int32 */, 0.05f /* ty=float32 */, 0.02f /* ty=float32 */, padding=[1, 1, 1, 1], out_dtype=\"int32\") /* ty=Tensor[(1, 4, 8, 8), int32] */;\n"
                     "  %1 = nn.bias_add(%0, %b) /* ty=Tensor[(1, 4, 8, 8), int32] */;\n"
                     "  %2 = maximum(%1, 0 /* ty=int32 */) /* ty=Tensor[(1, 4, 8, 8), int32] */;\n"
                     "  qnn.requantize(%2, 0.001f /* ty=float32 */, 0 /* ty=int32 */, 0.1f /* ty=float32 */, 100 /* ty=int32 */, axis=1, rounding=\"UPWARD\", out_dtype=\"uint8\") /* ty=Tensor[(1, 4, 8, 8), uint8] */\n"
                     "}\n"));
  }

  /// TVM's form of test_fake_quantize_concat: one qnn.concatenate of the integer tensors with their
  /// parameters as tuples, at the quantize's parameters, and no requantize after it.
  void concatenateForm() {
    const Module integer = fakeQuantizationToInteger(typed(
        "def @main(%x0: Tensor[(1, 4), int8], %x1: Tensor[(1, 4), int8]) { "
        "%0 = concatenate((qnn.dequantize(%x0, 0.5f, 0), qnn.dequantize(%x1, 1.5f, 0)), axis=1); "
        "qnn.quantize(%0, 3.5f, 0) }"));
    QVERIFY(sameText(printTyped(integer),
                     "def @main(%x0: Tensor[(1, 4), int8] /* ty=Tensor[(1, 4), int8] */, %x1: Tensor[(1, 4), int8] /* ty=Tensor[(1, 4), int8] */) -> Tensor[(1, 8), int8] {\n"
                     "  %0 = (%x0, %x1) /* ty=(Tensor[(1, 4), int8], Tensor[(1, 4), int8]) */;\n"
                     "  %1 = (0.5f /* ty=float32 */, 1.5f /* ty=float32 */) /* ty=(float32, float32) */;\n"
                     "  %2 = (0 /* ty=int32 */, 0 /* ty=int32 */) /* ty=(int32, int32) */;\n"
                     "  qnn.concatenate(%0, %1, %2, 3.5f /* ty=float32 */, 0 /* ty=int32 */, axis=1) /* ty=Tensor[(1, 8), int8] */\n"
                     "}\n"));
  }

  /// A region holding an op without a rewrite, or reaching a float variable, stays as it is.
  void regionsThatCannotBeIntegerStayFloat() {
    for (const char* text :
         {"def @main(%x: Tensor[(4), int8]) { %0 = sigmoid(qnn.dequantize(%x, 0.5f, 0)); qnn.quantize(%0, 0.5f, 0) }",
          "def @main(%x: Tensor[(4), int8], %y: Tensor[(4), float32]) { %0 = add(qnn.dequantize(%x, 0.5f, 0), %y); "
          "qnn.quantize(%0, 0.5f, 0) }",
          "def @main(%x: Tensor[(4), float32]) { qnn.quantize(%x, 0.5f, 0) }"}) {
      const Module module = typed(text);
      PassResult result = runVerified(createFakeQuantizationToIntegerPass(), module);
      QVERIFY2(structuralEqual(result.module, module), text);
    }
  }
};

QTEST_APPLESS_MAIN(TestFakeQuantization)
#include "test_fake_quantization.moc"
