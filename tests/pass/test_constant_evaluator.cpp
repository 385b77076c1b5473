/// \file
/// The reference constant evaluator: broadcasting arithmetic, unary ops, expand_dims, and the
/// cases it declines (so FoldConstant leaves the call alone).

#include <QtTest>
#include <cstring>

#include "pass/analysis/constant_evaluator.h"

using namespace byoc;

namespace {

TensorData floats(Shape shape, const std::vector<float>& values) {
  std::vector<std::byte> bytes(values.size() * sizeof(float));
  std::memcpy(bytes.data(), values.data(), bytes.size());
  return TensorData::fromBytes(DType::Float32, std::move(shape), bytes);
}

std::vector<double> elements(const TensorData& data) {
  std::vector<double> values;
  for (int64_t i = 0; i < data.numElements(); ++i) values.push_back(data.elementAsDouble(i));
  return values;
}

std::optional<TensorData> evaluate(const char* op, std::vector<TensorData> inputs, const Attrs& attrs = {}) {
  const OpDef* def = OpRegistry::global().find(op);
  if (!def) qFatal("unknown op %s", op);
  return referenceConstantEvaluator().evaluate(*def, attrs, inputs);
}

}  // namespace

class TestConstantEvaluator : public QObject {
  Q_OBJECT

 private slots:
  void broadcastsLikeNumpy() {
    // (2, 1) + (3) → (2, 3)
    std::optional<TensorData> sum = evaluate("add", {floats({2, 1}, {10, 20}), floats({3}, {1, 2, 3})});
    QVERIFY(sum);
    QCOMPARE(sum->shape(), (Shape{2, 3}));
    QCOMPARE(sum->dtype(), DType::Float32);
    QCOMPARE(elements(*sum), (std::vector<double>{11, 12, 13, 21, 22, 23}));
  }

  void scalarTimesTensor() {
    std::optional<TensorData> product =
        evaluate("multiply", {floats({2, 2}, {1, 2, 3, 4}), TensorData::scalar(DType::Float32, 2.0)});
    QVERIFY(product);
    QCOMPARE(product->shape(), (Shape{2, 2}));
    QCOMPARE(elements(*product), (std::vector<double>{2, 4, 6, 8}));
  }

  void binaryOps_data() {
    QTest::addColumn<QString>("op");
    QTest::addColumn<double>("expected");
    QTest::newRow("subtract") << "subtract" << -1.0;
    QTest::newRow("divide") << "divide" << 0.75;
    QTest::newRow("maximum") << "maximum" << 4.0;
    QTest::newRow("minimum") << "minimum" << 3.0;
    QTest::newRow("power") << "power" << 81.0;
  }

  void binaryOps() {
    QFETCH(QString, op);
    QFETCH(double, expected);
    std::optional<TensorData> value = evaluate(op.toUtf8().constData(), {floats({1}, {3}), floats({1}, {4})});
    QVERIFY(value);
    QCOMPARE(value->elementAsDouble(0), expected);
  }

  void unaryOps() {
    QCOMPARE(elements(*evaluate("negative", {floats({2}, {1, -2})})), (std::vector<double>{-1, 2}));
    QCOMPARE(elements(*evaluate("nn.relu", {floats({2}, {1, -2})})), (std::vector<double>{1, 0}));
    QCOMPARE(elements(*evaluate("sqrt", {floats({2}, {4, 9})})), (std::vector<double>{2, 3}));
  }

  void integersStayIntegers() {
    std::optional<TensorData> sum =
        evaluate("add", {TensorData::scalar(DType::Int32, 2), TensorData::scalar(DType::Int32, 40)});
    QVERIFY(sum);
    QCOMPARE(sum->dtype(), DType::Int32);
    QCOMPARE(sum->elementAsDouble(0), 42.0);
  }

  void expandDimsReshapes() {
    std::optional<TensorData> expanded =
        evaluate("expand_dims", {floats({3}, {1, 2, 3})}, Attrs{{"axis", AttrValue(1)}, {"num_newaxis", AttrValue(2)}});
    QVERIFY(expanded);
    QCOMPARE(expanded->shape(), (Shape{3, 1, 1}));
    QCOMPARE(elements(*expanded), (std::vector<double>{1, 2, 3}));
  }

  // squeeze drops the unit axes it names, or all of them; an axis that is not a unit is declined.
  void squeezeDropsUnitAxes() {
    std::optional<TensorData> named = evaluate("squeeze", {floats({3, 1, 1}, {1, 2, 3})}, Attrs{{"axis", AttrValue::ints({1, -1})}});
    QVERIFY(named);
    QCOMPARE(named->shape(), (Shape{3}));
    QCOMPARE(elements(*named), (std::vector<double>{1, 2, 3}));
    std::optional<TensorData> all = evaluate("squeeze", {floats({1, 3, 1}, {1, 2, 3})});
    QVERIFY(all);
    QCOMPARE(all->shape(), (Shape{3}));
    QVERIFY(!evaluate("squeeze", {floats({3, 1}, {1, 2, 3})}, Attrs{{"axis", AttrValue::ints({0})}}));
  }

  void declines_data() {
    QTest::addColumn<QString>("why");
    QTest::newRow("an op it does not implement") << "nn.softmax";
    QTest::newRow("integer division") << "divide-int";
    QTest::newRow("power of integers") << "power-int";
    QTest::newRow("shapes that do not broadcast") << "add-shapes";
    QTest::newRow("mixed dtypes") << "add-dtypes";
    QTest::newRow("a result beyond the folding limit") << "add-huge";
  }

  void declines() {
    QFETCH(QString, why);
    std::optional<TensorData> value;
    if (why == QLatin1String("nn.softmax")) value = evaluate("nn.softmax", {floats({2}, {1, 2})});
    if (why == QLatin1String("divide-int"))
      value = evaluate("divide", {TensorData::scalar(DType::Int32, 1), TensorData::scalar(DType::Int32, 2)});
    if (why == QLatin1String("power-int"))
      value = evaluate("power", {TensorData::scalar(DType::Int32, 2), TensorData::scalar(DType::Int32, 3)});
    if (why == QLatin1String("add-shapes")) value = evaluate("add", {floats({2}, {1, 2}), floats({3}, {1, 2, 3})});
    if (why == QLatin1String("add-dtypes"))
      value = evaluate("add", {TensorData::scalar(DType::Int32, 1), TensorData::scalar(DType::Float32, 2)});
    if (why == QLatin1String("add-huge"))
      value = evaluate("add", {TensorData::zeros(DType::Float32, {65536, 1}), TensorData::zeros(DType::Float32, {1, 65536})});
    QVERIFY(!value);
  }
};

QTEST_GUILESS_MAIN(TestConstantEvaluator)
#include "test_constant_evaluator.moc"
