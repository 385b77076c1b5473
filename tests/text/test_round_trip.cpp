#include <QtTest>

#include <QDirIterator>

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
};

QTEST_GUILESS_MAIN(TestRoundTrip)
#include "test_round_trip.moc"
