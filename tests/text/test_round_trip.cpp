#include <QtTest>

#include <QDirIterator>

#include "ir/op.h"
#include "text/parser.h"
#include "text/printer.h"

using namespace byoc;

/// print(parse(print(parse(f)))) == print(parse(f)) for every .relay file under tests/data, except
/// the bad-input corpus under tests/data/bad, whose files must not parse.
class TestRoundTrip : public QObject {
  Q_OBJECT

 private slots:
  void everyRelayFileRoundTrips_data() {
    QTest::addColumn<QString>("path");
    QDirIterator files(QStringLiteral(BYOC_TEST_DATA_DIR), {QStringLiteral("*.relay")}, QDir::Files,
                       QDirIterator::Subdirectories);
    const QDir data(QStringLiteral(BYOC_TEST_DATA_DIR));
    int count = 0;
    while (files.hasNext()) {
      QString path = files.next();
      if (data.relativeFilePath(path).startsWith(QStringLiteral("bad/"))) continue;
      QTest::newRow(qPrintable(data.relativeFilePath(path))) << path;
      ++count;
    }
    QVERIFY(count > 0);
  }

  void everyRelayFileRoundTrips() {
    QFETCH(QString, path);
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    std::string text = file.readAll().toStdString();
    Result<Module> first = parseModule(text, path.toStdString());
    QVERIFY2(first.isOk(), first ? "" : first.error().str().c_str());
    for (bool types : {false, true}) {
      PrintOptions options;
      options.showTypes = types;
      std::string once = printModule(*first, options);
      Result<Module> second = parseModule(once, "printed");
      QVERIFY2(second.isOk(), second ? "" : second.error().str().c_str());
      QCOMPARE(printModule(*second, options), once);
    }
  }

  // Names in any script read back; a name the lexer cannot read whole is printed readable.
  void namesReadBackWhateverTheyHold() {
    Var accented = VarNode::make("x\xc3\xa9", tensorType({2}, DType::Float32));
    Var punctuated = VarNode::make("my+acc-2_0_i0", tensorType({2}, DType::Float32));
    Var numbered = VarNode::make("x.1", tensorType({2}, DType::Float32));
    Module module;
    Expr sum = makeOpCall("add", {makeOpCall("add", {accented, punctuated}).value(), numbered}).value();
    module.set("main", FunctionNode::make({accented, punctuated, numbered}, sum));
    const std::string once = printModule(module);
    QVERIFY2(once.find("%x\xc3\xa9: Tensor[(2), float32], %my_acc_2_0_i0: Tensor[(2), float32], %x_1: Tensor[(2), float32]") !=
                 std::string::npos,
             once.c_str());
    Result<Module> again = parseModule(once, "printed");
    QVERIFY2(again.isOk(), again ? "" : again.error().str().c_str());
    QCOMPARE(printModule(*again), once);
  }
};

QTEST_GUILESS_MAIN(TestRoundTrip)
#include "test_round_trip.moc"
