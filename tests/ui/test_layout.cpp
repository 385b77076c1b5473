#include <QtTest>

#include "graph/dot_writer.h"
#include "layout/layout_runner.h"
#include "test_files.h"
#include "text/parser.h"

using namespace byoc;
using namespace byoc::ui;

namespace {

const QString kHelper = QStringLiteral(BYOC_LAYOUT_HELPER);

QString demoDot(std::size_t* nodeCount = nullptr) {
  Result<Module> parsed = parseModule(testing::readTestData("text/demo.relay"), "demo.relay");
  if (!parsed) qFatal("%s", parsed.error().str().c_str());
  GraphModel graph = GraphModel::build(parsed->find("main"));
  DotOptions options;
  for (std::size_t i = 0; i < graph.nodes().size(); ++i) options.nodeSizes.emplace_back(60 + 10 * (i % 4), 30);
  if (nodeCount) *nodeCount = graph.nodes().size();
  return writeDot(graph, options);
}

/// A script standing in for the helper, to test how failures are reported.
QString writeScript(QTemporaryDir& dir, const QByteArray& body) {
  QString path = dir.filePath(QStringLiteral("helper.sh"));
  QFile file(path);
  if (!file.open(QIODevice::WriteOnly)) qFatal("cannot write %s", qPrintable(path));
  file.write("#!/bin/sh\n" + body + "\n");
  file.close();
  file.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
  return path;
}

}  // namespace

/// Layout: the plain-format reader and the helper process driven from a worker.
class TestLayout : public QObject {
  Q_OBJECT

 private slots:
  void plainFormatIsConvertedToScenePoints() {
    Result<Layout> layout = parsePlainLayout(QStringLiteral(
        "graph 1 2 3\nnode n0 1 2.5 1 0.5 \"\" solid box black lightgrey\n"
        "edge n0 g1 4 1 2 1 1.5 1 1 1 0.5 solid black\nstop\n"));
    QVERIFY(layout);
    QCOMPARE(layout->size, QSizeF(144, 216));
    QCOMPARE(layout->units.value(QStringLiteral("n0")), QRectF(36, 18, 72, 36));
    QCOMPARE(layout->edges.size(), std::size_t{1});
    QCOMPARE(layout->edges[0].to, QStringLiteral("g1"));
    QCOMPARE(layout->edges[0].spline.first(), QPointF(72, 72));
    QCOMPARE(layout->edges[0].spline.last(), QPointF(72, 180));
  }

  void badPlainTextIsReported_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("message");
    QTest::newRow("node first") << "node n0 1 1 1 1\nstop\n" << "<layout>:1: found a node before the `graph` line";
    QTest::newRow("short graph") << "graph 1 2\nstop\n" << "<layout>:1: expected `graph scale width height`";
    QTest::newRow("bad node") << "graph 1 2 3\nnode n0 1 x 1 1\n" << "<layout>:2: expected `node name x y width height …`";
    QTest::newRow("short edge") << "graph 1 2 3\nedge a b 3 1 1 2 2\n"
                                << "<layout>:2: expected `edge tail head n x1 y1 … xn yn …`";
    QTest::newRow("bad point") << "graph 1 2 3\nedge a b 2 1 1 2 y\n" << "<layout>:2: expected numbers for the edge's points";
    QTest::newRow("unknown") << "graph 1 2 3\nlabel x\n" << "<layout>:2: found `label`, expected graph, node, edge or stop";
    QTest::newRow("truncated") << "graph 1 2 3\n" << "<layout>:2: the layout ended before `stop`";
  }
  void badPlainTextIsReported() {
    QFETCH(QString, text);
    QFETCH(QString, message);
    Result<Layout> layout = parsePlainLayout(text);
    QVERIFY(!layout);
    QCOMPARE(QString::fromStdString(layout.error().str()), message);
  }

  void helperPlacesEveryNodeWithoutOverlaps() {
    std::size_t nodeCount = 0;
    QString dot = demoDot(&nodeCount);
    LayoutRunner runner(kHelper);
    QSignalSpy finished(&runner, &LayoutRunner::finished);
    QSignalSpy failed(&runner, &LayoutRunner::failed);
    runner.start(dot);
    QVERIFY(runner.isRunning());
    QVERIFY(finished.wait(20000));
    QCOMPARE(failed.count(), 0);
    QVERIFY(!runner.isRunning());
    Layout layout = finished.first().first().value<Layout>();
    QCOMPARE(static_cast<std::size_t>(layout.units.size()), nodeCount);
    QList<QRectF> rects = layout.units.values();
    for (int i = 0; i < rects.size(); ++i) {
      QVERIFY(QRectF(QPointF(0, 0), layout.size).contains(rects[i]));
      for (int j = i + 1; j < rects.size(); ++j) QVERIFY2(!rects[i].intersects(rects[j]), "two nodes overlap");
    }
    QVERIFY(!layout.edges.empty());
  }

  void helperPlacesALargerGraphWithGroups() {
    // Twenty function literals, each called once, with a chain of six ops inside: 260 nodes in 20 clusters.
    std::string text = "#[version = \"0.0.5\"]\ndef @main(%x: Tensor[(1, 4, 8, 8), float32], %w: Tensor[(4, 4, 3, 3), float32]) {\n";
    std::string previous = "%x";
    for (int i = 0; i < 20; ++i) {
      text += "  %f" + std::to_string(i) + " = fn (%in: Tensor[(1, 4, 8, 8), float32]) {\n"
              "    %0 = nn.conv2d(%in, %w, padding=[1, 1, 1, 1]);\n    %1 = nn.relu(%0);\n    %2 = add(%1, %in);\n"
              "    %3 = nn.conv2d(%2, %w, padding=[1, 1, 1, 1]);\n    %4 = nn.relu(%3);\n    add(%4, %2)\n  };\n";
      text += "  %o" + std::to_string(i) + " = %f" + std::to_string(i) + "(" + previous + ");\n";
      previous = "%o" + std::to_string(i);
    }
    text += "  " + previous + "\n}\n";
    Result<Module> parsed = parseModule(text, "chain.relay");
    QVERIFY2(parsed, parsed ? "" : parsed.error().str().c_str());
    GraphModel graph = GraphModel::build(parsed->find("main"));
    QCOMPARE(graph.groups().size(), std::size_t{20});
    DotOptions options;
    options.nodeSizes.assign(graph.nodes().size(), QSizeF(80, 30));
    LayoutRunner runner(kHelper);
    QSignalSpy finished(&runner, &LayoutRunner::finished);
    runner.start(writeDot(graph, options));
    QVERIFY(finished.wait(60000));
    Layout layout = finished.first().first().value<Layout>();
    QCOMPARE(static_cast<std::size_t>(layout.units.size()), graph.nodes().size());
    QList<QRectF> rects = layout.units.values();
    for (int i = 0; i < rects.size(); ++i) {
      for (int j = i + 1; j < rects.size(); ++j) QVERIFY2(!rects[i].intersects(rects[j]), "two nodes overlap");
    }
    QCOMPARE(layout.edges.size(), graph.edges().size());
  }

  void failuresAreReported_data() {
    QTest::addColumn<QByteArray>("script");
    QTest::addColumn<QString>("message");
    QTest::newRow("crash") << QByteArray("cat >/dev/null; kill -SEGV $$") << "the layout helper crashed";
    QTest::newRow("exit status") << QByteArray("cat >/dev/null; echo 'no memory' >&2; exit 3")
                                 << "the layout helper failed (exit status 3): no memory";
    QTest::newRow("garbage") << QByteArray("cat >/dev/null; echo hello") << "<layout>:1: found `hello`, expected graph, node, edge or stop";
  }
  void failuresAreReported() {
    QFETCH(QByteArray, script);
    QFETCH(QString, message);
    QTemporaryDir dir;
    LayoutRunner runner(writeScript(dir, script));
    QSignalSpy failed(&runner, &LayoutRunner::failed);
    runner.start(demoDot());
    QVERIFY(failed.wait(10000));
    QCOMPARE(failed.first().first().toString(), message);
  }

  void invalidDotIsReportedByTheHelper() {
    LayoutRunner runner(kHelper);
    QSignalSpy failed(&runner, &LayoutRunner::failed);
    runner.start(QStringLiteral("this is not dot {"));
    QVERIFY(failed.wait(10000));
    QVERIFY2(failed.first().first().toString().startsWith(QStringLiteral("the layout helper failed (exit status 2)")),
             qPrintable(failed.first().first().toString()));
  }

  void missingHelperIsReported() {
    LayoutRunner runner(QStringLiteral("/nonexistent/byoc-layout"));
    QSignalSpy failed(&runner, &LayoutRunner::failed);
    runner.start(demoDot());
    QVERIFY(failed.wait(10000));
    QVERIFY(failed.first().first().toString().startsWith(QStringLiteral("cannot start the layout helper /nonexistent/byoc-layout")));
  }

  void cancelKillsTheHelperQuickly() {
    QTemporaryDir dir;
    LayoutRunner runner(writeScript(dir, "exec sleep 30"));
    QSignalSpy finished(&runner, &LayoutRunner::finished);
    QSignalSpy failed(&runner, &LayoutRunner::failed);
    runner.start(demoDot());
    QTest::qWait(200);
    runner.cancel();
    QVERIFY(!runner.isRunning());
    // The helper sleeps for 30 s: its job ends this soon only when cancelling killed it.
    QVERIFY2(jobPool()->waitForDone(10000), "the cancelled helper was not killed");
    QTest::qWait(50);
    QCOMPARE(finished.count() + failed.count(), 0);
  }

  void timeoutStopsTheHelper() {
    QTemporaryDir dir;
    LayoutRunner runner(writeScript(dir, "exec sleep 30"));
    runner.setTimeout(200);
    QSignalSpy failed(&runner, &LayoutRunner::failed);
    runner.start(demoDot());
    QVERIFY(failed.wait(5000));
    QCOMPARE(failed.first().first().toString(), QStringLiteral("the layout took longer than 200 ms and was stopped"));
  }
};

QTEST_GUILESS_MAIN(TestLayout)
#include "test_layout.moc"
