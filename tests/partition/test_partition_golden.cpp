#include <QDir>
#include <QtTest>

#include "partition_fixture.h"
#include "pass/verifier.h"
#include "text/printer.h"

using namespace byoc;
using namespace byoc::testing;

namespace {

/// A golden case: `// targets: …` and `// pipeline: …` header lines of its input.
struct GoldenCase {
  std::vector<std::shared_ptr<const Target>> targets;
  std::vector<std::string> pipeline;
};

std::vector<std::string> listAfter(const std::string& text, const std::string& prefix) {
  std::size_t at = text.find(prefix);
  if (at == std::string::npos) return {};
  std::string line = text.substr(at + prefix.size(), text.find('\n', at) - at - prefix.size());
  std::vector<std::string> items;
  for (const QString& item : QString::fromStdString(line).split(QLatin1Char(','), Qt::SkipEmptyParts))
    items.push_back(item.trimmed().toStdString());
  return items;
}

GoldenCase readCase(const QString& name) {
  std::string text = readTestData(QStringLiteral("partition/%1.relay").arg(name));
  GoldenCase golden;
  for (const std::string& target : listAfter(text, "// targets: ")) golden.targets.push_back(loadTestTarget(target));
  golden.pipeline = listAfter(text, "// pipeline: ");
  return golden;
}

}  // namespace

/// IR text in, IR text out: every partitioning case under tests/data/partition, step by step.
class TestPartitionGolden : public QObject {
  Q_OBJECT

 private slots:
  void everyStepMatchesItsGolden_data() {
    QTest::addColumn<QString>("name");
    QDir dir(QStringLiteral(BYOC_TEST_DATA_DIR "/partition"));
    int cases = 0;
    for (const QString& file : dir.entryList({QStringLiteral("*.relay")}, QDir::Files, QDir::Name)) {
      QString name = file.chopped(6);
      if (readCase(name).pipeline.empty()) continue;
      QTest::newRow(qPrintable(name)) << name;
      ++cases;
    }
    QVERIFY(cases >= 5);
  }

  void everyStepMatchesItsGolden() {
    QFETCH(QString, name);
    GoldenCase golden = readCase(name);
    Module module = loadTypedTestModule(QStringLiteral("partition/%1.relay").arg(name));
    PassContext context;
    context.instruments.push_back(makeVerifierInstrument());  // types, scoping, origins, balanced annotations
    for (const std::string& step : golden.pipeline) {
      Result<PassResult> result = (*partitionPass(step, golden.targets))(module, context);
      QVERIFY2(result.isOk(), result ? "" : result.error().str().c_str());
      module = result->module;
      QString expected = QStringLiteral("partition/%1.%2.expected").arg(name, QString::fromStdString(step.substr(0, step.find('('))));
      // BYOC_UPDATE_GOLDENS=1 rewrites the golden files (to be reviewed before they are committed).
      if (qEnvironmentVariableIsSet("BYOC_UPDATE_GOLDENS")) writeTestData(expected, printModule(module));
      QCOMPARE(printModule(module), readTestData(expected));
    }
  }

  void mergingAndOutliningAgainChangeNothing_data() { everyStepMatchesItsGolden_data(); }
  void mergingAndOutliningAgainChangeNothing() {
    QFETCH(QString, name);
    GoldenCase golden = readCase(name);
    Module module = loadTypedTestModule(QStringLiteral("partition/%1.relay").arg(name));
    PassContext context;
    for (const std::string& step : golden.pipeline) {
      module = partitionPass(step, golden.targets)->run(module, context)->module;
      // Re-annotation rebuilds the "default" annotations; NameMangleExtFuncs, as TVM's, prefixes every
      // external function again, so PartitionGraph is checked through its outlining step.
      if (step.starts_with("AnnotateTarget")) continue;
      PassPtr pass = step == "PartitionGraph" ? createOutlineRegionsPass() : partitionPass(step, golden.targets);
      Result<PassResult> again = pass->run(module, context);
      QVERIFY(again.isOk());
      QVERIFY2(!again->changed, step.c_str());
      QVERIFY(again->module.sameNodes(module));
    }
  }

  void anEndWithoutItsBeginIsAnError() {
    Result<Module> parsed = parseModule(
        "def @main(%x: Tensor[(1, 8), float32]) {\n"
        "  %0 = nn.relu(%x);\n"
        "  annotation.compiler_end(%0, compiler=\"a\")\n"
        "}\n",
        "orphan.relay");
    QVERIFY(parsed.isOk());
    PassContext context;
    Result<PassResult> result = createMergeCompilerRegionsPass()->run(*inferTypes(*parsed), context);
    QVERIFY(!result.isOk());
    QCOMPARE(result.error().message, std::string("compiler_end(compiler=\"a\") wraps a value that no compiler_begin leads to"));
  }
};

QTEST_GUILESS_MAIN(TestPartitionGolden)
#include "test_partition_golden.moc"
