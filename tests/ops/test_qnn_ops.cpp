#include <QtTest>

#include "ir/op.h"
#include "pass/infer_type.h"
#include "text/parser.h"

using namespace byoc;

namespace {

/// The type of @main's body in `text`, or "error: …" with the type checker's message.
std::string bodyType(const std::string& text) {
  Result<Module> parsed = parseModule(text, "in.relay");
  if (!parsed) return "parse error: " + parsed.error().message;
  Result<Module> typed = inferTypes(*parsed);
  if (!typed) return "error: " + typed.error().message;
  return typeToString(typed->find("main")->body->type());
}

}  // namespace

/// The qnn ops' schemas and type relations, as TVM's src/relay/qnn/op/*.cc define them.
class TestQnnOps : public QObject {
  Q_OBJECT

 private slots:
  void schemas() {
    const OpDef* requantize = OpRegistry::global().find("qnn.requantize");
    QVERIFY(requantize);
    QCOMPARE(requantize->inputs.size(), std::size_t{5});
    QCOMPARE(requantize->field("rounding")->defaultValue.asString(), std::string("UPWARD"));
    QCOMPARE(OpRegistry::global().find("qnn.conv2d")->field("out_dtype")->defaultValue.asString(), std::string("int32"));
    QCOMPARE(OpRegistry::global().find("qnn.dense")->field("out_dtype")->defaultValue.asString(), std::string("int32"));
    QCOMPARE(OpRegistry::global().find("qnn.add")->inputs.size(), std::size_t{8});
    QCOMPARE(OpRegistry::global().find("qnn.subtract")->inputs.size(), std::size_t{8});
    QCOMPARE(OpRegistry::global().find("qnn.concatenate")->inputs.size(), std::size_t{5});
    QCOMPARE(OpRegistry::global().find("qnn.concatenate")->field("axis")->defaultValue.asInt(), int64_t{0});
    QCOMPARE(OpRegistry::global().find("qnn.quantize")->fusion, FusionKind::Elementwise);
  }

  void relations_data() {
    QTest::addColumn<QString>("params");
    QTest::addColumn<QString>("body");
    QTest::addColumn<QString>("expected");
    auto row = [](const char* tag, const char* params, const char* body, const char* expected) {
      QTest::newRow(tag) << QString(params) << QString(body) << QString(expected);
    };
    const char* f = "%x: Tensor[(1, 3, 4, 4), float32], %s: Tensor[(3), float32], %z: Tensor[(3), int32]";
    const char* q = "%x: Tensor[(1, 3, 4, 4), int8], %s: Tensor[(3), float32], %z: Tensor[(3), int32]";
    row("quantize", f, "qnn.quantize(%x, 0.5f, 3)", "Tensor[(1, 3, 4, 4), int8]");
    row("quantize uint8", f, "qnn.quantize(%x, 0.5f, 3, out_dtype=\"uint8\")", "Tensor[(1, 3, 4, 4), uint8]");
    row("quantize per-axis", f, "qnn.quantize(%x, %s, %z, axis=1)", "Tensor[(1, 3, 4, 4), int8]");
    row("quantize per-axis wrong axis", f, "qnn.quantize(%x, %s, %z)",
        "error: qnn.quantize: argument 1 must be a scalar or have shape (4) (one value per channel of the quantized axis), found (3)");
    row("quantize int input", q, "qnn.quantize(%x, 0.5f, 3)",
        "error: qnn.quantize: data must be one of float32, found int8");
    row("quantize float out", f, "qnn.quantize(%x, 0.5f, 3, out_dtype=\"float32\")",
        "error: qnn.quantize: out_dtype must be one of int8, uint8, int16, int32, found float32");
    row("quantize zero point dtype", f, "qnn.quantize(%x, 0.5f, 3i8)",
        "error: qnn.quantize: argument 2 must be int32, found int8");
    row("quantize axis range", f, "qnn.quantize(%x, %s, %z, axis=4)", "error: qnn.quantize: axis 4 is out of range for rank 4");
    row("dequantize", q, "qnn.dequantize(%x, %s, %z, axis=1)", "Tensor[(1, 3, 4, 4), float32]");
    row("dequantize float", f, "qnn.dequantize(%x, 0.5f, 0)",
        "error: qnn.dequantize: data must be one of int8, uint8, int16, int32, found float32");
    row("requantize", q, "qnn.requantize(%x, %s, %z, 0.25f, 1, axis=1, out_dtype=\"uint8\")", "Tensor[(1, 3, 4, 4), uint8]");
    row("requantize rounding", q, "qnn.requantize(%x, 0.5f, 0, 0.25f, 1, rounding=\"DOWNWARD\")",
        "error: qnn.requantize: rounding must be \"UPWARD\" or \"TONEAREST\", found \"DOWNWARD\"");
    row("requantize per-axis output", q, "qnn.requantize(%x, 0.5f, 0, %s, 1, axis=1)",
        "error: qnn.requantize: argument 3 must be a scalar, found shape (3)");
    const char* conv = "%x: Tensor[(1, 3, 8, 8), uint8], %w: Tensor[(4, 3, 3, 3), int8], %ws: Tensor[(4), float32]";
    row("conv2d", conv, "qnn.conv2d(%x, %w, 128, 0, 0.1f, %ws, padding=[1, 1])", "Tensor[(1, 4, 8, 8), int32]");
    row("conv2d scalar scales", conv, "qnn.conv2d(%x, %w, 128, 0, 0.1f, 0.2f, strides=[2, 2])", "Tensor[(1, 4, 3, 3), int32]");
    row("conv2d per-channel input scale", conv, "qnn.conv2d(%x, %w, 128, 0, %ws, 0.2f)",
        "error: qnn.conv2d: argument 4 must be a scalar, found shape (4)");
    row("conv2d shapes", "%x: Tensor[(1, 2, 8, 8), uint8], %w: Tensor[(4, 3, 3, 3), int8]",
        "qnn.conv2d(%x, %w, 128, 0, 0.1f, 0.2f)",
        "error: qnn.conv2d: input channels 2 do not match weight input channels 3 x groups 1");
    row("conv2d float data", "%x: Tensor[(1, 3, 8, 8), float32], %w: Tensor[(4, 3, 3, 3), int8]",
        "qnn.conv2d(%x, %w, 0, 0, 0.1f, 0.2f)", "error: qnn.conv2d: data must be one of int8, uint8, int16, found float32");
    row("conv2d NHWC per-channel", "%x: Tensor[(1, 8, 8, 3), int8], %w: Tensor[(3, 3, 3, 4), int8], %ws: Tensor[(4), float32]",
        "qnn.conv2d(%x, %w, 0, 0, 0.1f, %ws, data_layout=\"NHWC\", kernel_layout=\"HWIO\")", "Tensor[(1, 6, 6, 4), int32]");
    const char* dense = "%x: Tensor[(2, 16), int8], %w: Tensor[(5, 16), int8], %ws: Tensor[(5), float32]";
    row("dense", dense, "qnn.dense(%x, %w, 1, 0, 0.1f, %ws, units=5)", "Tensor[(2, 5), int32]");
    row("dense wrong per-channel", "%x: Tensor[(2, 16), int8], %w: Tensor[(5, 16), int8], %ws: Tensor[(4), float32]",
        "qnn.dense(%x, %w, 1, 0, 0.1f, %ws)",
        "error: qnn.dense: argument 5 must be a scalar or have shape (5) (one value per channel of the quantized axis), found (4)");
    row("dense k", "%x: Tensor[(2, 15), int8], %w: Tensor[(5, 16), int8]", "qnn.dense(%x, %w, 1, 0, 0.1f, 0.2f)",
        "error: qnn.dense: data features 15 do not match weight (5, 16) (expected [units, 15])");
    const char* bin = "%a: Tensor[(2, 3), int8], %b: Tensor[(3), int8], %c: Tensor[(3), uint8]";
    row("add", bin, "qnn.add(%a, %b, 0.1f, 0, 0.2f, 1, 0.3f, 2)", "Tensor[(2, 3), int8]");
    row("mul", bin, "qnn.mul(%a, %b, 0.1f, 0, 0.2f, 1, 0.3f, 2)", "Tensor[(2, 3), int8]");
    row("add dtypes", bin, "qnn.add(%a, %c, 0.1f, 0, 0.2f, 1, 0.3f, 2)",
        "error: qnn.add: lhs and rhs must have the same dtype, found int8 and uint8");
    row("add scale dtype", bin, "qnn.add(%a, %b, 1, 0, 0.2f, 1, 0.3f, 2)", "error: qnn.add: argument 2 must be float32, found int32");
    row("subtract", bin, "qnn.subtract(%a, %b, 0.1f, 0, 0.2f, 1, 0.3f, 2)", "Tensor[(2, 3), int8]");
    const char* cat = "%a: Tensor[(1, 2), uint8], %b: Tensor[(1, 3), uint8], %c: Tensor[(1, 3), int8]";
    row("concatenate", cat, "qnn.concatenate((%a, %b), (0.5f, 1f), (0, 2), 1f, 1, axis=1)", "Tensor[(1, 5), uint8]");
    row("concatenate shapes", cat, "qnn.concatenate((%a, %b), (0.5f, 1f), (0, 2), 1f, 1)",
        "error: qnn.concatenate: field 1 has shape (1, 3), which differs from (1, 2) outside axis 0");
    row("concatenate dtypes", cat, "qnn.concatenate((%a, %c), (0.5f, 1f), (0, 2), 1f, 1, axis=1)",
        "error: qnn.concatenate: field 1 Tensor[(1, 3), int8] does not match field 0 Tensor[(1, 2), uint8]");
    row("concatenate float", "%x: Tensor[(2), float32]", "qnn.concatenate((%x, %x), (1f, 1f), (0, 0), 1f, 0)",
        "error: qnn.concatenate: data must be one of int8, uint8, int32, found float32");
    row("concatenate scale count", cat, "qnn.concatenate((%a, %b), (0.5f, 1f, 2f), (0, 2), 1f, 1, axis=1)",
        "error: qnn.concatenate: argument 1 must be a tuple of 2 scales, one per tensor, found (float32, float32, float32)");
    row("concatenate zero point dtype", cat, "qnn.concatenate((%a, %b), (0.5f, 1f), (0, 2f), 1f, 1, axis=1)",
        "error: qnn.concatenate: argument 2 field 1 must be int32, found float32");
    row("concatenate per-axis scale", "%a: Tensor[(1, 2), uint8], %s: Tensor[(2), float32]",
        "qnn.concatenate((%a, %a), (%s, 1f), (0, 0), 1f, 0)",
        "error: qnn.concatenate: argument 1 field 0 must be a scalar, found shape (2)");
    row("concatenate output zero point", cat, "qnn.concatenate((%a, %b), (0.5f, 1f), (0, 2), 1f, 1f, axis=1)",
        "error: qnn.concatenate: argument 4 must be int32, found float32");
  }

  void relations() {
    QFETCH(QString, params);
    QFETCH(QString, body);
    QFETCH(QString, expected);
    std::string text = "def @main(" + params.toStdString() + ") { " + body.toStdString() + " }";
    std::string actual = bodyType(text);
    // Type errors carry the call's location first; compare the op's own message.
    if (actual.starts_with("error: ")) {
      std::size_t at = actual.find(expected.mid(7).toStdString());
      QVERIFY2(at != std::string::npos, actual.c_str());
    } else {
      QCOMPARE(QString::fromStdString(actual), expected);
    }
  }
};

QTEST_APPLESS_MAIN(TestQnnOps)
#include "test_qnn_ops.moc"
