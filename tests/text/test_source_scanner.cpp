/// \file
/// SourceScanner, the cursor the three tokenizers share: positions across lines, numbers in each
/// language's syntax, strings with escapes and where they must end.

#include <QtTest>

#include "support/source_scanner.h"

using namespace byoc;

class TestSourceScanner : public QObject {
  Q_OBJECT
 private slots:
  void positionsFollowLinesAndComments() {
    SourceScanner scan("  # note\n\t%x", 1, 5);
    scan.skipSpace("#");
    QCOMPARE(scan.peek(), '%');
    QCOMPARE(scan.line(), 2);
    QCOMPARE(scan.column(), 2);
    QCOMPARE(scan.advance(), '%');
    QCOMPARE(scan.takeWhile([](char c) { return c == 'x'; }), std::string_view("x"));
    QVERIFY(scan.atEnd());
    QCOMPARE(scan.advance(), '\0');
    QCOMPARE(scan.column(), 4);
  }

  void numbers_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<bool>("fraction");
    QTest::addColumn<bool>("suffix");
    QTest::addColumn<QString>("digits");
    QTest::addColumn<QString>("suffixRead");
    QTest::addColumn<bool>("isFloat");
    QTest::addColumn<QString>("rest");
    QTest::newRow("integer") << "12," << true << true << "12" << "" << false << ",";
    QTest::newRow("negative") << "-3)" << true << true << "-3" << "" << false << ")";
    QTest::newRow("fraction") << "0.5f" << true << true << "0.5" << "f" << true << "";
    QTest::newRow("exponent") << "1e-05f" << true << true << "1e-05" << "f" << true << "";
    QTest::newRow("float suffix") << "2f16" << true << true << "2" << "f16" << true << "";
    QTest::newRow("int suffix") << "0i64" << true << true << "0" << "i64" << false << "";
    QTest::newRow("dot without digit") << "1.x" << true << true << "1" << "" << false << ".x";
    QTest::newRow("e without digit") << "2else" << true << true << "2" << "" << false << "else";
    QTest::newRow("index after a dot") << "0.5" << false << true << "0" << "" << false << ".5";
    QTest::newRow("no suffix in rules") << "1f" << true << false << "1" << "" << false << "f";
  }

  void numbers() {
    QFETCH(QString, text);
    QFETCH(bool, fraction);
    QFETCH(bool, suffix);
    const std::string source = text.toStdString();
    SourceScanner scan(source);
    QVERIFY(scan.atNumber());
    const NumberText number = scan.number({.fraction = fraction, .suffix = suffix});
    QTEST(QString::fromUtf8(number.digits.data(), qsizetype(number.digits.size())), "digits");
    QTEST(QString::fromUtf8(number.suffix.data(), qsizetype(number.suffix.size())), "suffixRead");
    QTEST(number.isFloat, "isFloat");
    QTEST(QString::fromStdString(source.substr(static_cast<std::size_t>(scan.column() - 1))), "rest");
  }

  void strings() {
    SourceScanner scan("\"a\\\"b\\\\c\\nd\" tail");
    std::optional<std::string> value = scan.quotedString();
    QVERIFY(value);
    QCOMPARE(*value, std::string("a\"b\\c\nd"));
    QCOMPARE(scan.peek(), ' ');

    SourceScanner open("\"no end\nnext\"");
    QVERIFY(!open.quotedString());  // a string ends on its own line
    QCOMPARE(open.line(), 1);
    SourceScanner trailing("\"ends in \\");
    QVERIFY(!trailing.quotedString());
  }
};

QTEST_MAIN(TestSourceScanner)
#include "test_source_scanner.moc"
