#include <cmath>
#include <QtTest>

#include <functional>
#include <map>

#include "frontend/onnx/onnx_import.h"
#include "pass/infer_type.h"
#include "runtime/interpreter.h"
#include "test_files.h"
#include "onnx_golden.h"
#include "onnx_import_errors.h"

using namespace byoc;
using byoc::testing::attr;
using byoc::testing::importError;
using byoc::testing::OnnxModelBuilder;

namespace {

/// Adds an initializer of element type `elemType` (INT8, UINT8, INT16, INT32 or FLOAT) holding `values`;
/// other types get one byte per value.
void typedInitializer(OnnxModelBuilder& b, const std::string& name, const std::vector<int64_t>& shape,
                      const std::vector<double>& values, int elemType) {
  onnx::TensorProto* tensor = b.model().mutable_graph()->add_initializer();
  tensor->set_name(name);
  tensor->set_data_type(elemType);
  for (int64_t d : shape) tensor->add_dims(d);
  std::string raw;
  for (double v : values) {
    if (elemType == onnx::TensorProto::INT8 || elemType == onnx::TensorProto::UINT8) {
      raw.push_back(static_cast<char>(static_cast<int>(v)));
    } else if (elemType == onnx::TensorProto::INT16) {
      auto i = static_cast<int16_t>(v);
      raw.append(reinterpret_cast<const char*>(&i), 2);
    } else if (elemType == onnx::TensorProto::INT32) {
      auto i = static_cast<int32_t>(v);
      raw.append(reinterpret_cast<const char*>(&i), 4);
    } else {
      auto f = static_cast<float>(v);
      raw.append(reinterpret_cast<const char*>(&f), 4);
    }
  }
  tensor->set_raw_data(raw);
}

/// `count` values cycling through -3 … 3.
std::vector<double> small(int64_t count) {
  std::vector<double> values;
  for (int64_t i = 0; i < count; ++i) values.push_back(double(i % 7 - 3));
  return values;
}

constexpr int kInt8 = onnx::TensorProto::INT8;
constexpr int kUInt8 = onnx::TensorProto::UINT8;
constexpr int kInt32 = onnx::TensorProto::INT32;
constexpr int kFloat = onnx::TensorProto::FLOAT;

/// The QDQ form of a quantized conv: Q/DQ on the activations, DQ on the per-channel int8 weight
/// and the int32 bias, as ONNX Runtime's quantizer writes it.
OnnxModelBuilder qdqConv() {
  OnnxModelBuilder b;
  b.input("x", {1, 3, 8, 8}).output("y");
  typedInitializer(b, "x_scale", {}, {0.05}, kFloat);
  typedInitializer(b, "x_zp", {}, {128}, kUInt8);
  typedInitializer(b, "w", {4, 3, 3, 3}, small(108), kInt8);
  typedInitializer(b, "w_scale", {4}, {0.01, 0.02, 0.03, 0.04}, kFloat);
  typedInitializer(b, "w_zp", {4}, {0, 0, 0, 0}, kInt8);
  typedInitializer(b, "bias", {4}, {10, -20, 30, -40}, kInt32);
  typedInitializer(b, "b_scale", {4}, {0.0005, 0.001, 0.0015, 0.002}, kFloat);
  typedInitializer(b, "y_scale", {}, {0.1}, kFloat);
  typedInitializer(b, "y_zp", {}, {100}, kUInt8);
  b.node("QuantizeLinear", {"x", "x_scale", "x_zp"}, {"xq"}, "x_q");
  b.node("DequantizeLinear", {"xq", "x_scale", "x_zp"}, {"xd"}, "x_dq");
  attr(b.node("DequantizeLinear", {"w", "w_scale", "w_zp"}, {"wd"}, "w_dq"), "axis", int64_t{0});
  attr(b.node("DequantizeLinear", {"bias", "b_scale"}, {"bd"}, "b_dq"), "axis", int64_t{0});
  attr(b.node("Conv", {"xd", "wd", "bd"}, {"c"}, "conv"), "pads", std::vector<int64_t>{1, 1, 1, 1});
  b.node("Relu", {"c"}, {"r"}, "relu");
  b.node("QuantizeLinear", {"r", "y_scale", "y_zp"}, {"yq"}, "y_q");
  b.node("DequantizeLinear", {"yq", "y_scale", "y_zp"}, {"y"}, "y_dq");
  return b;
}

/// QLinearConv with a per-channel weight scale and a bias, strided.
OnnxModelBuilder qlinearConv() {
  OnnxModelBuilder b;
  b.input("x", {1, 3, 8, 8}, kUInt8).output("y");
  typedInitializer(b, "x_scale", {}, {0.05}, kFloat);
  typedInitializer(b, "x_zp", {}, {128}, kUInt8);
  typedInitializer(b, "w", {4, 3, 3, 3}, small(108), kInt8);
  typedInitializer(b, "w_scale", {4}, {0.01, 0.02, 0.03, 0.04}, kFloat);
  typedInitializer(b, "w_zp", {}, {0}, kInt8);
  typedInitializer(b, "y_scale", {}, {0.1}, kFloat);
  typedInitializer(b, "y_zp", {}, {100}, kUInt8);
  typedInitializer(b, "bias", {4}, {10, -20, 30, -40}, kInt32);
  auto& conv = b.node("QLinearConv", {"x", "x_scale", "x_zp", "w", "w_scale", "w_zp", "y_scale", "y_zp", "bias"}, {"y"},
                      "qconv");
  attr(conv, "strides", std::vector<int64_t>{2, 2});
  attr(conv, "pads", std::vector<int64_t>{1, 1, 1, 1});
  return b;
}

/// QLinearMatMul of a rank-3 uint8 A by a constant int8 B.
OnnxModelBuilder qlinearMatmul() {
  OnnxModelBuilder b;
  b.input("a", {2, 3, 4}, kUInt8).output("y");
  typedInitializer(b, "a_scale", {}, {0.5}, kFloat);
  typedInitializer(b, "a_zp", {}, {128}, kUInt8);
  typedInitializer(b, "b", {4, 5}, small(20), kInt8);
  typedInitializer(b, "b_scale", {5}, {0.1, 0.2, 0.3, 0.4, 0.5}, kFloat);
  typedInitializer(b, "b_zp", {}, {0}, kInt8);
  typedInitializer(b, "y_scale", {}, {0.25}, kFloat);
  typedInitializer(b, "y_zp", {}, {-3}, kInt8);
  b.node("QLinearMatMul", {"a", "a_scale", "a_zp", "b", "b_scale", "b_zp", "y_scale", "y_zp"}, {"y"}, "qmatmul");
  return b;
}

/// ConvInteger and MatMulInteger: the int32 products without requantization.
OnnxModelBuilder integerProducts() {
  OnnxModelBuilder b;
  b.input("x", {1, 2, 4, 4}, kUInt8).input("a", {3, 4}, kInt8).output("c").output("m");
  typedInitializer(b, "w", {2, 2, 1, 1}, {1, -1, 2, 3}, kInt8);
  typedInitializer(b, "x_zp", {}, {7}, kUInt8);
  typedInitializer(b, "b", {4, 2}, small(8), kInt8);
  typedInitializer(b, "b_zp", {2}, {1, -1}, kInt8);
  b.node("ConvInteger", {"x", "w", "x_zp"}, {"c"}, "conv_integer");
  b.node("MatMulInteger", {"a", "b", "", "b_zp"}, {"m"}, "matmul_integer");
  return b;
}

/// Per-axis int8 QuantizeLinear along axis 1 and uint8 DequantizeLinear along axis 0; QLinearAdd.
OnnxModelBuilder perAxisAndAdd() {
  OnnxModelBuilder b;
  b.input("x", {2, 3}).input("u", {2, 3}, kUInt8).output("q").output("d").output("s");
  typedInitializer(b, "s3", {3}, {0.1, 0.2, 0.4}, kFloat);
  typedInitializer(b, "z3", {3}, {-1, 0, 1}, kInt8);
  typedInitializer(b, "s2", {2}, {0.5, 0.25}, kFloat);
  typedInitializer(b, "z2", {2}, {128, 120}, kUInt8);
  typedInitializer(b, "as", {}, {0.5}, kFloat);
  typedInitializer(b, "az", {}, {128}, kUInt8);
  typedInitializer(b, "cs", {}, {1.0}, kFloat);
  typedInitializer(b, "cz", {}, {128}, kUInt8);
  b.node("QuantizeLinear", {"x", "s3", "z3"}, {"q"}, "quantize_axis1");
  attr(b.node("DequantizeLinear", {"u", "s2", "z2"}, {"d"}, "dequantize_axis0"), "axis", int64_t{0});
  auto& add = b.node("QLinearAdd", {"u", "as", "az", "u", "as", "az", "cs", "cz"}, {"s"}, "qadd");
  add.set_domain("com.microsoft");
  return b;
}

using Build = std::function<OnnxModelBuilder()>;

const std::map<QString, Build>& cases() {
  static const std::map<QString, Build> table = {
      {QStringLiteral("qdq_conv"), qdqConv},
      {QStringLiteral("qlinear_conv"), qlinearConv},
      {QStringLiteral("qlinear_matmul"), qlinearMatmul},
      {QStringLiteral("integer_products"), integerProducts},
      {QStringLiteral("per_axis_and_add"), perAxisAndAdd},
  };
  return table;
}

/// One QuantizeLinear named "q" of x [1, 3, 2, 2] with the given scale and zero point initializers.
OnnxModelBuilder quantizeWith(const std::vector<int64_t>& scaleShape, const std::vector<double>& scales, int zpType) {
  OnnxModelBuilder b;
  b.input("x", {1, 3, 2, 2}).output("y");
  typedInitializer(b, "scale", scaleShape, scales, kFloat);
  std::vector<double> zeros(scales.size(), 0.0);
  typedInitializer(b, "zp", scaleShape, zeros, zpType);
  b.node("QuantizeLinear", {"x", "scale", "zp"}, {"y"}, "q");
  return b;
}

}  // namespace

/// The quantized ONNX ops imported as TVM's frontend imports them: golden texts per op, the
/// values of a QLinearMatMul, and a one-line error naming the node for each unsupported scheme.
class TestOnnxQuantized : public QObject {
  Q_OBJECT

 private slots:
  void importsAsGolden_data() { testing::addGoldenRows(cases()); }
  void importsAsGolden() { testing::checkGoldenRow(cases(), QStringLiteral("quantized_")); }

  /// A = [130, 126] (zero point 128, scale 0.5), B = [[3], [1]] (scale 0.25): the product 4 at
  /// scale 0.125 is 0.5, which is 2 steps of 0.25 above the output zero point 10.
  void qlinearMatmulValues() {
    OnnxModelBuilder b;
    b.input("a", {1, 2}, kUInt8).output("y");
    typedInitializer(b, "a_scale", {}, {0.5}, kFloat);
    typedInitializer(b, "a_zp", {}, {128}, kUInt8);
    typedInitializer(b, "b", {2, 1}, {3, 1}, kInt8);
    typedInitializer(b, "b_scale", {}, {0.25}, kFloat);
    typedInitializer(b, "b_zp", {}, {0}, kInt8);
    typedInitializer(b, "y_scale", {}, {0.25}, kFloat);
    typedInitializer(b, "y_zp", {}, {10}, kUInt8);
    b.node("QLinearMatMul", {"a", "a_scale", "a_zp", "b", "b_scale", "b_zp", "y_scale", "y_zp"}, {"y"}, "mm");
    Result<Module> module = importOnnxModel(b.bytes(), "mm.onnx", "");
    QVERIFY(module.isOk());
    Result<Module> typed = inferTypes(*module);
    QVERIFY(typed.isOk());
    NDArray a = NDArray::fromTensorData(TensorData::fromBytes(DType::UInt8, {1, 2}, std::vector<std::byte>{std::byte{130}, std::byte{126}}));
    std::vector<Value> args = {Value(a)};
    Result<Value> y = Interpreter(*typed).call("main", args);
    QVERIFY2(y.isOk(), y ? "" : y.error().str().c_str());
    QCOMPARE(y->tensor().dtype(), DType::UInt8);
    QCOMPARE(y->tensor().elementAsDouble(0), 12.0);
  }

  void unsupportedSchemes_data() {
    QTest::addColumn<QByteArray>("model");
    QTest::addColumn<QString>("error");
    auto row = [](const char* tag, OnnxModelBuilder b, const char* error) {
      QTest::newRow(tag) << QByteArray::fromStdString(b.bytes()) << QString(error);
    };
    {
      OnnxModelBuilder b;
      b.input("x", {1, 3, 2, 2}).input("scale", {}).output("y");
      b.node("QuantizeLinear", {"x", "scale"}, {"y"}, "q");
      row("run-time scale", b,
          "model.onnx: node 'q' (QuantizeLinear): the scale (input 1 'scale') must be a constant; quantization "
          "parameters computed at run time are not supported");
    }
    row("per-axis on another axis", quantizeWith({2}, {0.1, 0.2}, kInt8),
        "model.onnx: node 'q' (QuantizeLinear): the scale has 2 values; per-axis quantization is supported only along "
        "axis 1 (3 values)");
    row("nan scale", quantizeWith({}, {std::nan("")}, kInt8),
        "model.onnx: node 'q' (QuantizeLinear): the scale (input 1 'scale') is nan; expected a finite positive scale");
    row("infinite scale", quantizeWith({}, {INFINITY}, kInt8),
        "model.onnx: node 'q' (QuantizeLinear): the scale (input 1 'scale') is inf; expected a finite positive scale");
    row("zero scale", quantizeWith({}, {0.0}, kInt8),
        "model.onnx: node 'q' (QuantizeLinear): the scale (input 1 'scale') is 0; expected a finite positive scale");
    row("negative per-axis scale", quantizeWith({3}, {0.1, -0.5, 0.2}, kInt8),
        "model.onnx: node 'q' (QuantizeLinear): the scale (input 1 'scale') is -0.5 at channel 1; expected a finite "
        "positive scale");
    row("int16 zero point", quantizeWith({}, {0.1}, onnx::TensorProto::INT16),
        "model.onnx: node 'q' (QuantizeLinear): the zero point has element type int16, which is not supported; "
        "expected int8 or uint8");
    row("int4 zero point", quantizeWith({}, {0.1}, 22),
        "model.onnx: node 'q' (QuantizeLinear): initializer 'zp': unsupported element type INT4");
    row("float8 zero point", quantizeWith({}, {0.1}, 17),
        "model.onnx: node 'q' (QuantizeLinear): initializer 'zp': unsupported element type FLOAT8E4M3FN");
    // Opset 21's attributes, refused even where a model of an older opset states them.
    {
      OnnxModelBuilder b(17);
      b.input("x", {1, 3, 2, 2}).output("y");
      typedInitializer(b, "scale", {}, {0.1}, kFloat);
      attr(b.node("QuantizeLinear", {"x", "scale"}, {"y"}, "q"), "output_dtype", int64_t{22});
      row("int4 output", b, "model.onnx: node 'q' (QuantizeLinear): output_dtype INT4 is not supported; expected INT8 or UINT8");
    }
    {
      OnnxModelBuilder b(17);
      b.input("x", {1, 3, 2, 2}).output("y");
      typedInitializer(b, "scale", {1, 3, 1, 2}, {0.1, 0.1, 0.1, 0.1, 0.1, 0.1}, kFloat);
      attr(b.node("QuantizeLinear", {"x", "scale"}, {"y"}, "q"), "block_size", int64_t{2});
      row("blocked", b, "model.onnx: node 'q' (QuantizeLinear): blocked quantization (block_size 2) is not supported");
    }
    {
      OnnxModelBuilder b = qlinearConv();
      onnx::TensorProto* scale = b.model().mutable_graph()->mutable_initializer(3);
      scale->clear_dims();
      scale->add_dims(3);
      scale->set_raw_data(scale->raw_data().substr(0, 12));
      row("per-axis weight scale along the input channels", b,
          "model.onnx: node 'qconv' (QLinearConv): the weight scale has 3 values; per-axis quantization is supported "
          "only along the output channels (4 values)");
    }
    {
      OnnxModelBuilder b;
      b.input("a", {2, 4}, kUInt8).input("b", {4, 5}, kInt8).output("y");
      typedInitializer(b, "zp", {}, {0}, kUInt8);
      b.node("MatMulInteger", {"a", "b"}, {"y"}, "mm");
      row("non-constant B", b,
          "model.onnx: node 'mm' (MatMulInteger): B must be a constant 2-D matrix (a weight); other operands are not supported");
    }
    {
      OnnxModelBuilder b;
      b.input("x", {1, 3, 2, 2}, onnx::TensorProto::INT16).output("y");
      typedInitializer(b, "scale", {}, {0.1}, kFloat);
      b.node("DequantizeLinear", {"x", "scale"}, {"y"}, "dq");
      row("int16 input", b,
          "model.onnx: node 'dq' (DequantizeLinear): the input has element type int16, which is not supported; "
          "expected int8, uint8 or int32");
    }
  }

  void unsupportedSchemes() {
    QFETCH(QByteArray, model);
    QFETCH(QString, error);
    QCOMPARE(QString::fromStdString(importError(model.toStdString())), error);
  }
};

QTEST_GUILESS_MAIN(TestOnnxQuantized)
#include "test_onnx_quantized.moc"
