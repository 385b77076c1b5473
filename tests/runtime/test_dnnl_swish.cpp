#include <QtTest>

#include <cmath>
#include <limits>
#include <vector>

#include "runtime/dnnl/swish.h"

using byoc::dnnl_backend::swishInPlace;

namespace {

/// x · sigmoid(x) in double precision.
double exactSwish(double x) { return x >= 0 ? x / (1 + std::exp(-x)) : x * std::exp(x) / (1 + std::exp(x)); }

}  // namespace

/// The host swish loop against the exact function.
class TestDnnlSwish : public QObject {
  Q_OBJECT

 private slots:
  /// Every element of a count that ends inside a span, across [-100, 100) (past both ends of the
  /// clamp at -87), within 3e-7 of the exact value relative to it.
  void matchesExactValue_data() {
    QTest::addColumn<int>("count");
    QTest::newRow("empty") << 0;
    QTest::newRow("one") << 1;
    QTest::newRow("less than a vector") << 15;
    QTest::newRow("vectors and a remainder") << 37;
    QTest::newRow("spans and a remainder") << 3 * 4096 + 5;
  }
  void matchesExactValue() {
    QFETCH(int, count);
    std::vector<float> values(static_cast<std::size_t>(count));
    for (int i = 0; i < count; ++i) values[static_cast<std::size_t>(i)] = -100.0f + 200.0f * static_cast<float>(i) / static_cast<float>(count);
    const std::vector<float> inputs = values;
    swishInPlace(values.data(), count);
    for (int i = 0; i < count; ++i) {
      const double x = inputs[static_cast<std::size_t>(i)];
      const double exact = exactSwish(x);
      const double error = std::fabs(values[static_cast<std::size_t>(i)] - exact);
      // Below e^-87 the loop's result is a tiny negative number instead of a tinier one.
      const double allowed = std::max(3e-7 * std::fabs(exact), 1e-35);
      if (error > allowed)
        QFAIL(qPrintable(QString("swish(%1) = %2, expected %3").arg(x, 0, 'g', 9).arg(values[static_cast<std::size_t>(i)], 0, 'g', 9).arg(exact, 0, 'g', 9)));
    }
  }

  void specialValues() {
    const float inf = std::numeric_limits<float>::infinity();
    const float denormal = std::numeric_limits<float>::denorm_min() * 1000;
    std::vector<float> values{0.0f, -0.0f, inf, -inf, std::numeric_limits<float>::quiet_NaN(), denormal, 1000.0f, -1000.0f};
    swishInPlace(values.data(), static_cast<std::int64_t>(values.size()));
    QCOMPARE(values[0], 0.0f);
    QVERIFY(values[1] == 0.0f && std::signbit(values[1]));
    QCOMPARE(values[2], inf);
    QCOMPARE(values[3], -inf);
    QVERIFY(std::isnan(values[4]));
    QCOMPARE(values[5], denormal / 2);
    QCOMPARE(values[6], 1000.0f);
    QVERIFY(values[7] <= 0.0f && values[7] > -1e-33f);
  }
};

QTEST_APPLESS_MAIN(TestDnnlSwish)
#include "test_dnnl_swish.moc"
