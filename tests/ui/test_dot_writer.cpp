#include <QtTest>

#include "graph/dot_writer.h"
#include "pass/infer_type.h"
#include "test_files.h"
#include "text/parser.h"

using namespace byoc;
using namespace byoc::ui;

namespace {

GraphModel graphOf(const QString& dataFile) {
  Result<Module> parsed = parseModule(testing::readTestData(dataFile), "in.relay");
  if (!parsed) qFatal("%s", parsed.error().str().c_str());
  return GraphModel::build(parsed->find("main"));
}

DotOptions uniformSizes(const GraphModel& graph) {
  DotOptions options;
  options.nodeSizes.assign(graph.nodes().size(), QSizeF(72, 36));
  return options;
}

}  // namespace

/// DOT text: clusters for groups, fixed node sizes, collapsed groups as one node.
class TestDotWriter : public QObject {
  Q_OBJECT

 private slots:
  void demo() {
    GraphModel graph = graphOf(QStringLiteral("text/demo.relay"));
    QCOMPARE(writeDot(graph, uniformSizes(graph)), QString::fromStdString(testing::readTestData("ui/demo.dot.expected")));
  }

  void collapsedCompositeBecomesOneNode() {
    GraphModel graph = graphOf(QStringLiteral("ui/composite.relay"));
    DotOptions options = uniformSizes(graph);
    options.collapsed = {true};
    QCOMPARE(writeDot(graph, options),
             QString::fromStdString(testing::readTestData("ui/composite.collapsed.dot.expected")));
  }

  void layoutUnitIsTheOutermostCollapsedGroup() {
    GraphModel graph = graphOf(QStringLiteral("ui/composite.relay"));
    int conv = -1;
    for (const GraphNode& node : graph.nodes()) {
      if (node.title == u"nn.conv2d") conv = node.id;
    }
    QVERIFY(conv >= 0);
    QCOMPARE(layoutUnitOf(graph, conv, {}), u'n' + QString::number(conv));
    QCOMPARE(layoutUnitOf(graph, conv, {true}), QStringLiteral("g0"));
  }
};

QTEST_GUILESS_MAIN(TestDotWriter)
#include "test_dot_writer.moc"
