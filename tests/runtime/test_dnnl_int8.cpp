#include <QtTest>

#include <set>

#include "frontend/loader.h"
#include "runtime/executor.h"
#include "partitioned_module.h"
#include "runtime_test_util.h"
#include "support/base64.h"
#include "test_files.h"
#include "text/printer.h"

using namespace byoc;
using namespace byoc::testing;

namespace {

/// A metadata entry holding `values` in `dtype` with `shape`.
std::string metadataEntry(const std::vector<double>& values, DType dtype, const Shape& shape) {
  std::vector<std::byte> bytes;
  for (double v : values) {
    TensorData one = TensorData::scalar(dtype, v);
    bytes.insert(bytes.end(), one.bytes().begin(), one.bytes().end());
  }
  std::string dims;
  for (int64_t d : shape) dims += (dims.empty() ? "" : ", ") + std::to_string(d);
  return "{\"dtype\": \"" + std::string(dtypeName(dtype)) + "\", \"shape\": [" + dims + "], \"data\": \"" +
         base64Encode(bytes) + "\"}";
}

std::vector<double> ramp(int64_t count, int modulo, int offset) {
  std::vector<double> values;
  for (int64_t i = 0; i < count; ++i) values.push_back(double((i * 7) % modulo - offset));
  return values;
}

/// A QDQ layer as ONNX Runtime's quantizer writes it: x (float) quantized to uint8 at `inZp`,
/// dequantized, convolved (or multiplied) with dequantized int8 weights (per channel when
/// `perChannel`), plus a dequantized int32 bias, relu, quantized to `outDtype`.
struct Layer {
  bool dense = false;
  bool perChannel = false;
  int inZp = 0;
  std::string outDtype = "uint8";
  std::string attrs = "padding=[1, 1, 1, 1]";
  int groups = 1;
  /// Instead of the relu, the layer's output (quantized at zero point 120) plus a quantized second
  /// input %r (TVM's residual sum), as the left operand of the add or the right.
  bool residual = false;
  bool residualLeft = false;
};

std::string qdqText(const Layer& layer) {
  const int64_t in = 8, out = 16;
  const double inScale = 0.05;
  std::vector<double> weightScales;
  for (int64_t c = 0; c < (layer.perChannel ? out : 1); ++c) weightScales.push_back(0.01 + 0.002 * double(c));
  std::vector<double> biasScales;
  for (double s : weightScales) biasScales.push_back(double(float(inScale) * float(s)));
  const Shape weightShape = layer.dense ? Shape{out, in * 9} : Shape{out, in / layer.groups, 3, 3};
  const int64_t weightCount = shapeElements(weightShape);
  std::string meta = metadataEntry(ramp(weightCount, 255, 127), DType::Int8, weightShape) + ", " +
                     metadataEntry(ramp(out, 400, 200), DType::Int32, {out});
  auto scalarOrMeta = [&](const std::vector<double>& values, int index) {
    if (values.size() == 1) return std::to_string(values[0]) + "f";
    meta += ", " + metadataEntry(values, DType::Float32, {static_cast<int64_t>(values.size())});
    return "meta[relay.Constant][" + std::to_string(index) + "]";
  };
  const std::string wScale = scalarOrMeta(weightScales, 2);
  const std::string bScale = scalarOrMeta(biasScales, 3);
  const std::string input = layer.dense ? "Tensor[(4, 72), float32]" : "Tensor[(1, 8, 10, 10), float32]";
  const std::string output = layer.dense ? "Tensor[(4, 16), float32]" : "Tensor[(1, 16, 10, 10), float32]";
  std::string text = "def @main(%x: " + input + (layer.residual ? ", %r: " + output : "") + ") {\n";
  text += "  %0 = qnn.quantize(%x, 0.05f, " + std::to_string(layer.inZp) + ", out_dtype=\"uint8\");\n";
  text += "  %1 = qnn.dequantize(%0, 0.05f, " + std::to_string(layer.inZp) + ");\n";
  text += "  %2 = qnn.dequantize(meta[relay.Constant][0], " + wScale + ", 0, axis=0);\n";
  text += layer.dense ? "  %3 = nn.dense(%1, %2, units=16);\n"
                      : "  %3 = nn.conv2d(%1, %2, " + layer.attrs + ", groups=" + std::to_string(layer.groups) + ");\n";
  text += "  %4 = nn.bias_add(%3, qnn.dequantize(meta[relay.Constant][1], " + bScale + ", 0, axis=0));\n";
  if (layer.residual) {
    text += "  %5 = qnn.quantize(%4, 0.08f, 120, out_dtype=\"uint8\");\n";
    text += "  %6 = qnn.dequantize(%5, 0.08f, 120);\n";
    text += "  %7 = qnn.dequantize(qnn.quantize(%r, 0.05f, 7, out_dtype=\"uint8\"), 0.05f, 7);\n";
    text += layer.residualLeft ? "  %8 = add(%7, %6);\n" : "  %8 = add(%6, %7);\n";
    text += "  qnn.quantize(%8, 0.1f, 128, out_dtype=\"uint8\")\n}\n";
  } else {
    text += "  %5 = nn.relu(%4);\n";
    text += "  qnn.quantize(%5, 0.1f, 3, out_dtype=\"" + layer.outDtype + "\")\n}\n";
  }
  return text + "#[metadata]\n{\"relay.Constant\": [" + meta + "]}\n";
}

/// The largest difference between the outputs of two executors on the same random input.
/// The text of @main in a printed module: what stays on the host.
std::string mainText(const std::string& printed) {
  const std::size_t begin = printed.find("def @main");
  const std::size_t end = printed.find("\n}\n", begin);
  return printed.substr(begin, end == std::string::npos ? std::string::npos : end - begin);
}

/// The output of `module` on `args`, its regions run through the codegens `options` name (by
/// default their own).
NDArray outputOf(const Module& module, const std::vector<Value>& args, const ExecutorOptions& options = {}) {
  Result<std::unique_ptr<Executor>> executor = Executor::create(module, options);
  if (!executor) qFatal("%s", executor.error().str().c_str());
  Result<Value> output = (*executor)->run(args);
  if (!output) qFatal("%s", output.error().str().c_str());
  return output->tensor();
}

double largestDifference(const Module& expected, const Module& actual) {
  std::vector<Value> args;
  for (const Var& param : expected.find("main")->params)
    args.emplace_back(randomTensor(param->type()->as<TensorTypeNode>()->shape, 5, 4.0f));
  const NDArray a = outputOf(expected, args);
  const NDArray b = outputOf(actual, args);
  double worst = 0;
  std::set<double> seen;
  for (int64_t i = 0; i < a.numElements(); ++i) {
    worst = std::max(worst, std::abs(a.elementAsDouble(i) - b.elementAsDouble(i)));
    seen.insert(a.elementAsDouble(i));
  }
  // A layer whose outputs all saturate or vanish would compare nothing.
  if (seen.size() < 10) qFatal("the reference output holds only %zu distinct values", seen.size());
  return worst;
}

}  // namespace

/// Quantized layers through the dnnl target's whole flow (FakeQuantizationToInteger,
/// LegalizeQnnForDnnl, the dnnl.qnn patterns) on oneDNN's int8 primitives, against the reference
/// kernels running the fake-quantized model: within one quantization step.
class TestDnnlInt8 : public QObject {
  Q_OBJECT

 private slots:
  void layerMatchesReference_data() {
    QTest::addColumn<int>("index");
    QTest::addColumn<bool>("offloaded");
    const std::vector<std::pair<const char*, bool>> rows = {
        {"conv padded", true},      {"conv per channel", true}, {"conv int8 out", true}, {"conv input zero point", true},
        {"conv grouped", true},     {"dense", true},            {"conv padded input zero point", true},
        {"conv residual sum", true}, {"dense residual sum on the left", true},
    };
    for (std::size_t i = 0; i < rows.size(); ++i) QTest::newRow(rows[i].first) << int(i) << rows[i].second;
  }

  void layerMatchesReference() {
    QFETCH(int, index);
    QFETCH(bool, offloaded);
    std::vector<Layer> layers(9);
    layers[1].perChannel = true;
    layers[2].outDtype = "int8";
    layers[3].inZp = 128;
    layers[3].attrs = "strides=[2, 2]";
    layers[4].groups = 4;
    layers[4].perChannel = true;
    layers[5].dense = true;
    layers[5].inZp = 100;
    layers[6].inZp = 128;  // padded with the zero point before the convolution
    layers[7].residual = true;
    layers[7].perChannel = true;
    layers[8].dense = true;
    layers[8].residual = true;
    layers[8].residualLeft = true;
    const Module original = typedModule(qdqText(layers[static_cast<std::size_t>(index)]));
    const Module partitioned = partitionedFor(original, "dnnl");
    const std::string printed = printModule(partitioned, {.showTypes = false, .showMetadata = false});
    const bool hasComposite = printed.find("Composite=\"dnnl.qnn.") != std::string::npos;
    QVERIFY2(hasComposite == offloaded, printed.c_str());
    if (layers[static_cast<std::size_t>(index)].residual) {
      QVERIFY2(printed.find("_sum\"") != std::string::npos, printed.c_str());
      QVERIFY2(printed.find("qnn.add(") == std::string::npos, printed.c_str());
    }
    const std::string main = mainText(printed);
    // Nothing of the layer is left on the host: not the input's quantize, nor a zero point's padding.
    for (const char* op : {"qnn.conv2d(", "qnn.quantize(", "nn.pad("})
      QVERIFY2(main.find(op) == std::string::npos, printed.c_str());
    QVERIFY2(printed.find("nn.conv2d(") == std::string::npos || printed.find(" nn.conv2d(") == std::string::npos,
             printed.c_str());
    QVERIFY(largestDifference(original, partitioned) <= 1.0);
  }

  /// A QDQ MatMul of a rank-3 activation by a constant weight, as the ONNX import writes it (the
  /// input flattened, the weight transposed, the product reshaped back) runs as one int8 dense.
  void rank3MatmulIsOneDense() {
    const std::string text =
        "def @main(%x: Tensor[(2, 3, 72), float32]) {\n"
        "  %0 = qnn.quantize(%x, 0.05f, 3, out_dtype=\"uint8\");\n"
        "  %1 = reshape(qnn.dequantize(%0, 0.05f, 3), newshape=[-1, 72]);\n"
        "  %2 = transpose(qnn.dequantize(meta[relay.Constant][0], 0.01f, 0), axes=[1, 0]);\n"
        "  %3 = reshape(nn.dense(%1, %2, units=16), newshape=[2, 3, 16]);\n"
        "  qnn.quantize(%3, 0.1f, 100, out_dtype=\"uint8\")\n}\n#[metadata]\n{\"relay.Constant\": [" +
        metadataEntry(ramp(72 * 16, 255, 127), DType::Int8, {72, 16}) + "]}\n";
    const Module original = typedModule(text);
    const Module partitioned = partitionedFor(original, "dnnl");
    const std::string printed = printModule(partitioned, {.showTypes = false, .showMetadata = false});
    QVERIFY2(printed.find("Composite=\"dnnl.qnn.dense\"") != std::string::npos, printed.c_str());
    QVERIFY2(printed.find("qnn.requantize(") == std::string::npos, printed.c_str());
    QVERIFY(largestDifference(original, partitioned) <= 1.0);
  }

  /// A residual block as one region: the quantized input is read by the first convolution and
  /// summed by the last, which accumulates into it in place (nothing reads it afterwards).
  void residualBlockSumsIntoItsInputInPlace() {
    Result<Module> loaded = loadModuleFile(testDataPath(QStringLiteral("runtime/qdq_residual.onnx")));
    QVERIFY2(loaded, loaded ? "" : loaded.error().str().c_str());
    const Module original = typedModule(printModule(*loaded, {.showTypes = false}));
    const Module partitioned = partitionedFor(original, "dnnl");
    const std::string printed = printModule(partitioned, {.showTypes = false, .showMetadata = false});
    QVERIFY2(printed.find("Composite=\"dnnl.qnn.conv2d_sum\"") != std::string::npos, printed.c_str());
    QVERIFY2(printed.find("tvmgen_default_dnnl_main_1") == std::string::npos, printed.c_str());  // one region
    QVERIFY(largestDifference(original, partitioned) <= 2 * 0.03 + 1e-6);  // two steps of the output's scale
  }

  /// Moving uint8 values (reshape, transpose, a slice), adding a broadcast quantized bias with
  /// qnn.add and dequantizing all run inside the region, as an int8 attention block needs.
  void integerMovesAddAndDequantizeStayInTheRegion() {
    const std::string text =
        "def @main(%x: Tensor[(8, 1, 24), float32]) {\n"
        "  %0 = qnn.quantize(%x, 0.05f, 120, out_dtype=\"uint8\");\n"
        "  %1 = reshape(%0, newshape=[8, 4, 6]);\n"
        "  %2 = transpose(%1, axes=[1, 0, 2]);\n"
        "  %3 = strided_slice(%2, begin=[2], end=[5], strides=[1], axes=[2]);\n"
        "  %4 = qnn.quantize(meta[relay.Constant][0], 0.02f, 7, out_dtype=\"uint8\");\n"
        "  %5 = qnn.add(%4, %3, 0.02f, 7, 0.05f, 120, 0.06f, 100);\n"
        "  qnn.dequantize(%5, 0.06f, 100)\n}\n#[metadata]\n{\"relay.Constant\": [" +
        metadataEntry({-1.5, 0.25, 2.0}, DType::Float32, {3}) + "]}\n";
    const Module original = typedModule(text);
    const Module partitioned = partitionedFor(original, "dnnl");
    const std::string printed = printModule(partitioned, {.showTypes = false, .showMetadata = false});
    const std::string main = mainText(printed);
    for (const char* op : {"qnn.add(", "qnn.dequantize(", "qnn.quantize(", "transpose(", "strided_slice("})
      QVERIFY2(main.find(op) == std::string::npos, printed.c_str());
    QVERIFY(largestDifference(original, partitioned) <= 2 * 0.06 + 1e-6);  // two steps of the output's scale
  }

  /// qnn.subtract of a tensor and a broadcast one runs in the region: both dequantized,
  /// subtracted and quantized once, within a step of the reference's requantized operands.
  void integerSubtractStaysInTheRegion() {
    const std::string text =
        "def @main(%x: Tensor[(2, 3, 4), float32], %y: Tensor[(4), float32]) {\n"
        "  %0 = qnn.quantize(%x, 0.05f, 120, out_dtype=\"uint8\");\n"
        "  %1 = qnn.quantize(%y, 0.02f, 7, out_dtype=\"uint8\");\n"
        "  %2 = qnn.subtract(%0, %1, 0.05f, 120, 0.02f, 7, 0.06f, 100);\n"
        "  qnn.dequantize(%2, 0.06f, 100)\n}\n";
    const Module original = typedModule(text);
    const Module partitioned = partitionedFor(original, "dnnl");
    const std::string printed = printModule(partitioned, {.showTypes = false, .showMetadata = false});
    const std::string main = mainText(printed);
    QVERIFY2(main.find("qnn.subtract(") == std::string::npos, printed.c_str());
    QVERIFY(largestDifference(original, partitioned) <= 2 * 0.06 + 1e-6);  // two steps of the output's scale
  }

  /// qnn.concatenate of tensors at other parameters than the output's, and at the output's, runs
  /// in the region: each requantized by a reorder, then joined.
  void integerConcatenateStaysInTheRegion() {
    const std::string text =
        "def @main(%x: Tensor[(1, 2, 3, 4), float32], %y: Tensor[(1, 3, 3, 4), float32]) {\n"
        "  %0 = qnn.quantize(%x, 0.05f, 120, out_dtype=\"uint8\");\n"
        "  %1 = qnn.quantize(%y, 0.04f, 100, out_dtype=\"uint8\");\n"
        "  %2 = qnn.concatenate((%0, %1, %0), (0.05f, 0.04f, 0.05f), (120, 100, 120), 0.04f, 100, axis=1);\n"
        "  qnn.dequantize(%2, 0.04f, 100)\n}\n";
    const Module original = typedModule(text);
    const Module partitioned = partitionedFor(original, "dnnl");
    const std::string printed = printModule(partitioned, {.showTypes = false, .showMetadata = false});
    const std::string main = mainText(printed);
    QVERIFY2(main.find("qnn.concatenate(") == std::string::npos, printed.c_str());
    QVERIFY(largestDifference(original, partitioned) <= 0.04 + 1e-6);  // one step of the output's scale
  }

  /// A DenseNet layer as ONNX Runtime's quantizer leaves it: the block's input and a quantized
  /// convolution's result dequantized, concatenated and batch-normalized in float32 (a region
  /// FakeQuantizationToInteger leaves float), then quantized for the next convolution, all in one
  /// region. The dequantizes and the quantize keep the layout the convolutions chose.
  void denseLayerConcatenatesDequantizedTensors() {
    const std::string text =
        "def @main(%x: Tensor[(1, 8, 10, 10), float32]) {\n"
        "  %0 = qnn.dequantize(qnn.quantize(%x, 0.05f, 0, out_dtype=\"uint8\"), 0.05f, 0);\n"
        "  %1 = nn.conv2d(%0, qnn.dequantize(meta[relay.Constant][0], 0.01f, 0), padding=[1, 1, 1, 1]);\n"
        "  %2 = nn.bias_add(%1, qnn.dequantize(meta[relay.Constant][1], 0.0005f, 0));\n"
        "  %3 = qnn.dequantize(qnn.quantize(nn.relu(%2), 0.1f, 0, out_dtype=\"uint8\"), 0.1f, 0);\n"
        "  %4 = concatenate((%0, %3), axis=1);\n"
        "  %5 = nn.batch_norm(%4, meta[relay.Constant][2], meta[relay.Constant][3], meta[relay.Constant][3], meta[relay.Constant][2]);\n"
        "  %6 = qnn.dequantize(qnn.quantize(nn.relu(%5.0), 0.08f, 0, out_dtype=\"uint8\"), 0.08f, 0);\n"
        "  %7 = nn.conv2d(%6, qnn.dequantize(meta[relay.Constant][4], 0.02f, 0));\n"
        "  %8 = nn.bias_add(%7, qnn.dequantize(meta[relay.Constant][5], 0.0016f, 0));\n"
        "  qnn.quantize(nn.relu(%8), 0.2f, 0, out_dtype=\"uint8\")\n}\n#[metadata]\n{\"relay.Constant\": [" +
        metadataEntry(ramp(16 * 8 * 9, 255, 127), DType::Int8, {16, 8, 3, 3}) + ", " +
        metadataEntry(ramp(16, 400, 200), DType::Int32, {16}) + ", " +
        metadataEntry(ramp(24, 13, -3), DType::Float32, {24}) + ", " + metadataEntry(ramp(24, 9, 4), DType::Float32, {24}) + ", " +
        metadataEntry(ramp(32 * 24, 255, 127), DType::Int8, {32, 24, 1, 1}) + ", " +
        metadataEntry(ramp(32, 400, 200), DType::Int32, {32}) + "]}\n";
    const Module original = typedModule(text);
    const Module partitioned = partitionedFor(original, "dnnl");
    const std::string printed = printModule(partitioned, {.showTypes = false, .showMetadata = false});
    QVERIFY2(printed.find("tvmgen_default_dnnl_main_1") == std::string::npos, printed.c_str());  // one region
    for (const char* op : {"qnn.dequantize(", "concatenate(", "qnn.quantize("})
      QVERIFY2(mainText(printed).find(op) == std::string::npos, printed.c_str());
    // The region on oneDNN against the same region on the reference kernels, integer for integer.
    const std::vector<Value> args{Value(randomTensor(Shape{1, 8, 10, 10}, 5, 4.0f))};
    ExecutorOptions reference;
    reference.codegens["dnnl"] = "reference";
    const NDArray expected = outputOf(partitioned, args, reference);
    const NDArray actual = outputOf(partitioned, args);
    std::set<double> seen;
    for (int64_t i = 0; i < expected.numElements(); ++i) {
      QCOMPARE(actual.elementAsDouble(i), expected.elementAsDouble(i));
      seen.insert(expected.elementAsDouble(i));
    }
    QVERIFY(seen.size() >= 10);
  }

  /// A max pool between two quantized convolutions pools the uint8 values in the same region.
  void integerMaxPoolStaysInTheRegion() {
    const std::string conv = "qnn.dequantize(meta[relay.Constant][0], 0.01f, 0), padding=[1, 1, 1, 1])";
    const std::string text =
        "def @main(%x: Tensor[(1, 8, 10, 10), float32]) {\n"
        "  %0 = qnn.dequantize(qnn.quantize(%x, 0.05f, 0, out_dtype=\"uint8\"), 0.05f, 0);\n"
        "  %1 = nn.relu(nn.conv2d(%0, " + conv + ");\n"
        "  %2 = qnn.dequantize(qnn.quantize(%1, 0.1f, 0, out_dtype=\"uint8\"), 0.1f, 0);\n"
        "  %3 = nn.max_pool2d(%2, pool_size=[2, 2], strides=[2, 2]);\n"
        "  %4 = qnn.dequantize(qnn.quantize(%3, 0.1f, 0, out_dtype=\"uint8\"), 0.1f, 0);\n"
        "  %5 = nn.relu(nn.conv2d(%4, " + conv + ");\n"
        "  qnn.quantize(%5, 0.1f, 0, out_dtype=\"uint8\")\n}\n#[metadata]\n{\"relay.Constant\": [" +
        metadataEntry(ramp(8 * 8 * 9, 255, 127), DType::Int8, {8, 8, 3, 3}) + "]}\n";
    const Module original = typedModule(text);
    const Module partitioned = partitionedFor(original, "dnnl");
    const std::string printed = printModule(partitioned, {.showTypes = false, .showMetadata = false});
    QVERIFY2(printed.find("tvmgen_default_dnnl_main_1") == std::string::npos, printed.c_str());  // one region
    QVERIFY2(printed.substr(0, printed.find("def @tvmgen")).find("nn.max_pool2d(") == std::string::npos, printed.c_str());
    QVERIFY(largestDifference(original, partitioned) <= 1.0);
  }

  /// The requantize rounds its scaled value and then adds the output zero point, and so does the
  /// int8 convolution: 11 × 89 = 979 times the scale 0.0015321722 is 1.4999965, which rounds to 1,
  /// so 133 at zero point 132. Folded into the bias, the zero point would make it 134.
  void requantizeRoundsBeforeAddingTheZeroPoint() {
    const std::string text =
        "def @main(%x: Tensor[(1, 1, 16, 16), uint8]) {\n"
        "  %0 = qnn.conv2d(%x, meta[relay.Constant][0], 0, 0, 0.000192510459f, 1f, channels=1, kernel_size=[1, 1], "
        "out_dtype=\"int32\");\n"
        "  qnn.requantize(%0, 0.000192510459f, 0, 0.125645444f, 132, out_dtype=\"uint8\")\n}\n"
        "#[metadata]\n{\"relay.Constant\": [" + metadataEntry({89}, DType::Int8, {1, 1, 1, 1}) + "]}\n";
    const Module original = typedModule(text);
    const Module partitioned = partitionedFor(original, "dnnl");
    const std::string printed = printModule(partitioned, {.showTypes = false, .showMetadata = false});
    QVERIFY2(printed.find("Composite=\"dnnl.qnn.conv2d\"") != std::string::npos, printed.c_str());
    std::vector<std::byte> everyValue;
    for (int v = 0; v < 256; ++v) everyValue.push_back(std::byte(v));
    const std::vector<Value> args = {Value(NDArray::fromTensorData(TensorData::fromBytes(DType::UInt8, {1, 1, 16, 16}, everyValue)))};
    const NDArray expected = outputOf(original, args);
    const NDArray actual = outputOf(partitioned, args);
    QCOMPARE(actual.elementAsDouble(11), 133.0);
    for (int64_t v = 0; v < 256; ++v) QCOMPARE(actual.elementAsDouble(v), expected.elementAsDouble(v));
  }

  /// qnn.quantize divides by the scale, as ONNX's QuantizeLinear does: -3.15 / 0.7 is -4.5 in
  /// float32, which rounds to even (-4, so 6 at zero point 10); -3.15 × (1 / 0.7) is -4.5000005,
  /// which would round to -5.
  void quantizeDividesByTheScale() {
    const Module original = typedModule(
        "def @main(%x: Tensor[(8), float32]) {\n  qnn.quantize(%x, 0.7f, 10, out_dtype=\"int8\")\n}\n");
    const Module partitioned = partitionedFor(original, "dnnl");
    const std::string printed = printModule(partitioned, {.showTypes = false, .showMetadata = false});
    QVERIFY2(mainText(printed).find("qnn.quantize(") == std::string::npos, printed.c_str());
    const std::vector<float> values = {3.15f, -3.15f, -14.35f, 0.35f, 1.05f, 2.45f, -1.75f, 0.0f};
    const NDArray actual = outputOf(partitioned, {Value(NDArray::fromFloats({8}, values))});
    const std::vector<double> expected = {14, 6, -10, 10, 12, 14, 8, 10};
    for (int64_t i = 0; i < 8; ++i) QCOMPARE(actual.elementAsDouble(i), expected[static_cast<std::size_t>(i)]);
  }

  /// A qnn composite whose weights are not int8 is refused by name when the region is built.
  void uint8WeightsAreAnError() {
    const std::string params = "%x: Tensor[(1, 2, 4, 4), uint8]";
    const std::string body =
        "%100 = fn (%p: Tensor[(1, 2, 4, 4), uint8], Composite=\"dnnl.qnn.conv2d\") { "
        "%0 = qnn.conv2d(%p, meta[relay.Constant][0], 0, 0, 1f, 1f); %1 = cast(%0, dtype=\"float32\"); "
        "%2 = multiply(%1, 0.5f); %3 = clip(%2, a_min=0f, a_max=255f); cast(%3, dtype=\"uint8\") }; %100(%x)";
    const std::string text = regionModuleText("dnnl", params, body) + "#[metadata]\n{\"relay.Constant\": [" +
                             metadataEntry(ramp(4, 255, 0), DType::UInt8, {2, 2, 1, 1}) + "]}\n";
    Result<std::unique_ptr<Executor>> executor = Executor::create(typedModule(text));
    QVERIFY(!executor.isOk());
    QCOMPARE(QString::fromStdString(executor.error().message),
             QString("@tvmgen_default_dnnl_main_0 (dnnl): composite \"dnnl.qnn.conv2d\": the weight must be int8, "
                     "found uint8 [2, 2, 1, 1]"));
  }

  /// An op kernel on integers is still refused: only the qnn composites take them.
  void integerOpIsAnError() {
    Result<std::unique_ptr<Executor>> executor =
        Executor::create(typedModule(regionModuleText("dnnl", "%x: Tensor[(4), int32]", "nn.relu(%x)")));
    QVERIFY(!executor.isOk());
    QCOMPARE(QString::fromStdString(executor.error().message),
             QString("@tvmgen_default_dnnl_main_0 (dnnl): nn.relu: only float32 is supported, found int32"));
  }
};

QTEST_GUILESS_MAIN(TestDnnlInt8)
#include "test_dnnl_int8.moc"
