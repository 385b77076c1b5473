/// \file
/// Golden tests of each transform: tests/data/pass/transforms.txt holds cases separated by
/// `// -----`, each a sentence, the pipeline, the input and the expected output (or `unchanged`).
/// Every case runs typed, at opt level 3, with the verifier after each pass, and a second run of
/// the pipeline on the output must report that it changed nothing. The cases of the algebraic
/// passes (scale folding, SimplifyExpr, the dnnl rewrites) are also run on the interpreter: the output must compute
/// what the input computes.

#include <QtTest>

#include "pass/infer_type.h"
#include "pass/builtin_passes.h"
#include "pass/pipeline.h"
#include "pass_test_helpers.h"
#include "runtime/compare.h"
#include "runtime/executor.h"
#include "runtime/interpreter.h"
#include "test_files.h"
#include "text/parser.h"

using namespace byoc;
using namespace byoc::testing;

namespace {

struct Case {
  std::string title;
  std::string pipeline;
  std::string input;
  std::string expected;
};

std::string trimmed(std::string text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  while (!text.empty() && text.front() == '\n') text.erase(0, 1);
  return text;
}

std::vector<Case> readCases(const std::string& text) {
  std::vector<Case> cases;
  const std::string separator = "// -----\n";
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find(separator, start);
    std::string chunk = text.substr(start, end == std::string::npos ? std::string::npos : end - start);
    start = end == std::string::npos ? text.size() : end + separator.size();
    std::size_t titleEnd = chunk.find('\n');
    std::size_t pipelineEnd = chunk.find('\n', titleEnd + 1);
    std::size_t expectAt = chunk.find("// EXPECT:\n");
    if (titleEnd == std::string::npos || pipelineEnd == std::string::npos || expectAt == std::string::npos)
      qFatal("malformed case: %s", chunk.c_str());
    Case entry;
    entry.title = chunk.substr(3, titleEnd - 3);
    entry.pipeline = chunk.substr(titleEnd + 1 + 13, pipelineEnd - titleEnd - 1 - 13);  // after "// PIPELINE: "
    entry.input = chunk.substr(pipelineEnd + 1, expectAt - pipelineEnd - 1);
    entry.expected = trimmed(chunk.substr(expectAt + 11));
    cases.push_back(std::move(entry));
  }
  return cases;
}

/// Functions only, without types, the version header or metadata.
/// Runs `main` of `module` on `inputs`, its tensors flattened.
std::vector<NDArray> runMain(const Module& module, const std::vector<Value>& inputs) {
  Interpreter interpreter(module);
  Result<Value> value = interpreter.call("main", inputs);
  if (!value) qFatal("%s", value.error().str().c_str());
  std::vector<NDArray> tensors;
  value->flattenInto(tensors);
  return tensors;
}

std::string printPlain(const Module& module) {
  PrintOptions options;
  options.showMetadata = false;
  std::string text = printModule(module, options);
  return trimmed(text.substr(text.find('\n') + 1));
}

}  // namespace

class TestTransforms : public QObject {
  Q_OBJECT

 private slots:
  void golden_data() {
    QTest::addColumn<QString>("pipeline");
    QTest::addColumn<QString>("input");
    QTest::addColumn<QString>("expected");
    for (const Case& entry : readCases(readTestData(QStringLiteral("pass/transforms.txt"))))
      QTest::newRow(entry.title.c_str()) << QString::fromStdString(entry.pipeline)
                                         << QString::fromStdString(entry.input)
                                         << QString::fromStdString(entry.expected);
  }

  void golden() {
    QFETCH(QString, pipeline);
    QFETCH(QString, input);
    QFETCH(QString, expected);
    Result<Module> parsed = parseModule(input.toStdString(), "case.relay");
    QVERIFY2(parsed.isOk(), parsed.isOk() ? "" : parsed.error().str().c_str());
    Result<Module> typed = inferTypes(*parsed);
    QVERIFY2(typed.isOk(), typed.isOk() ? "" : typed.error().str().c_str());

    const PassRegistry& registry = builtinPasses();
    Result<std::vector<PipelineStep>> steps = parsePipeline(pipeline.toStdString(), registry);
    QVERIFY(steps.isOk());
    Result<PassPtr> pass = buildPipeline(*steps, registry);
    QVERIFY(pass.isOk());
    PassContext context;
    context.optLevel = 3;

    PassResult result = runVerified(*pass, *typed, context);
    if (expected == QLatin1String("unchanged")) {
      QVERIFY(!result.changed);
      QVERIFY(result.module.sameNodes(*typed));
    } else {
      QVERIFY(result.changed);
      QVERIFY(!structuralEqual(result.module, *typed));
      QCOMPARE(QString::fromStdString(printPlain(result.module)), expected);
    }
    PassResult again = runVerified(*pass, result.module, context);
    QVERIFY(!again.changed);
    QVERIFY(again.module.sameNodes(result.module));
  }

  void algebraicRewritesKeepValues_data() {
    QTest::addColumn<QString>("pipeline");
    QTest::addColumn<QString>("input");
    for (const Case& entry : readCases(readTestData(QStringLiteral("pass/transforms.txt"))))
      if (entry.expected != "unchanged" &&
          (entry.pipeline.find("FoldScaleAxis") != std::string::npos || entry.pipeline.find("SimplifyExpr") != std::string::npos ||
           entry.pipeline.find("Rewrite") != std::string::npos))
        QTest::newRow(entry.title.c_str()) << QString::fromStdString(entry.pipeline) << QString::fromStdString(entry.input);
  }

  void algebraicRewritesKeepValues() {
    QFETCH(QString, pipeline);
    QFETCH(QString, input);
    Module typed = inferTypes(parseModule(input.toStdString(), "case.relay").value()).value();
    const PassRegistry& registry = builtinPasses();
    PassPtr pass = buildPipeline(parsePipeline(pipeline.toStdString(), registry).value(), registry).value();
    PassContext context;
    context.optLevel = 3;
    PassResult result = runVerified(pass, typed, context);
    std::vector<Value> inputs;
    uint64_t seed = 1;
    for (const Var& param : typed.find("main")->params)
      inputs.push_back(randomTensorOf(*param->type()->as<TensorTypeNode>(), seed++));
    std::vector<NDArray> before = runMain(typed, inputs), after = runMain(result.module, inputs);
    QCOMPARE(after.size(), before.size());
    for (std::size_t i = 0; i < before.size(); ++i) {
      Difference difference = compareArrays(after[i], before[i], 1e-5, 1e-4);
      QVERIFY2(difference.within, qPrintable(QStringLiteral("output %1 differs by %2").arg(i).arg(difference.maxAbsolute)));
    }
  }
};

QTEST_GUILESS_MAIN(TestTransforms)
#include "test_transforms.moc"
