/// \file
/// The pass registry and pipelines as text: round trip, defaults, and every kind of error.

#include <QtTest>

#include "pass/pass_reference.h"
#include "pass/builtin_passes.h"
#include "pass/pipeline.h"
#include "test_files.h"
#include "pass/registry.h"

using namespace byoc;

class TestPipeline : public QObject {
  Q_OBJECT

 private slots:
  void builtinPassesAreRegistered() {
    std::vector<std::string> names;
    for (const PassInfo* info : builtinPasses().all()) names.push_back(info->name);
    QCOMPARE(names, (std::vector<std::string>{"AnnotateTarget", "BackwardFoldScaleAxis", "CanonicalizeOps", "DeadCodeElimination",
                                              "EliminateCommonSubexpr", "FakeQuantizationToInteger", "FlattenNestedTuples", "FoldConstant",
                                              "FoldScaleAxis", "ForwardFoldScaleAxis", "FuseOps", "FuseOpsByPattern", "InferType", "Inline",
                                              "LegalizeQnnForDnnl", "MergeCompilerRegions",
                                              "MergeComposite", "MergeCompositeFunctions", "NameMangleExtFuncs", "OutlineRegions",
                                              "PartitionGraph", "PruneRegions", "RemoveDefaultAnnotations",
                                              "RemoveUnusedFunctions", "RewriteDenseBiasGeluReshapeLast", "RewriteLayerNorm",
                                              "RunCodegen", "SimplifyExpr", "SimplifyInference"}));
    for (const PassInfo* info : builtinPasses().all()) {
      QVERIFY2(!info->summary.empty(), info->name.c_str());
      QVERIFY2(!info->description.empty(), info->name.c_str());
    }
  }

  /// docs/passes.md embeds the reference rendered from the registry; it must be up to date.
  void theDocumentedReferenceIsCurrent() {
    std::string docs = byoc::testing::readTestData(QStringLiteral("../../docs/passes.md"));
    const std::string begin = "<!-- BEGIN PASS REFERENCE -->\n";
    std::size_t from = docs.find(begin);
    std::size_t to = docs.find("<!-- END PASS REFERENCE -->");
    QVERIFY(from != std::string::npos && to != std::string::npos);
    from += begin.size();
    QCOMPARE(QString::fromStdString(docs.substr(from, to - from)),
             QString::fromStdString(renderPassReference(builtinPasses())));
  }

  void aNameCannotBeRegisteredTwice() {
    PassRegistry registry;
    registerBuiltinPasses(registry);
    Status again = registry.add({{"FuseOps", "again", 0, {}}, [](const Attrs&) { return Result<PassPtr>(PassPtr()); }});
    QVERIFY(!again.isOk());
    QCOMPARE(again.error().message, std::string("a pass named 'FuseOps' is already registered"));
  }

  void roundTrip_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("canonical");
    QTest::newRow("names") << "InferType,FoldConstant" << "InferType,FoldConstant";
    QTest::newRow("option") << "InferType,FoldConstant,FuseOps(fuse_opt_level=2)"
                            << "InferType,FoldConstant,FuseOps(fuse_opt_level=2)";
    QTest::newRow("spaces") << "  InferType , FuseOps ( fuse_opt_level = -1 ) " << "InferType,FuseOps(fuse_opt_level=-1)";
    QTest::newRow("empty options") << "FuseOps()" << "FuseOps";
    QTest::newRow("string option") << "RemoveUnusedFunctions(entry_function=run)"
                                   << "RemoveUnusedFunctions(entry_function=run)";
    QTest::newRow("quoted string") << "RemoveUnusedFunctions(entry_function=\"my main\")"
                                   << "RemoveUnusedFunctions(entry_function=\"my main\")";
  }

  /// Parsing then printing gives the canonical text, which parses back to the same steps.
  void roundTrip() {
    QFETCH(QString, text);
    QFETCH(QString, canonical);
    const PassRegistry& registry = builtinPasses();
    Result<std::vector<PipelineStep>> steps = parsePipeline(text.toStdString(), registry);
    QVERIFY2(steps.isOk(), steps.isOk() ? "" : steps.error().str().c_str());
    std::string printed = printPipeline(*steps);
    QCOMPARE(QString::fromStdString(printed), canonical);
    Result<std::vector<PipelineStep>> again = parsePipeline(printed, registry);
    QVERIFY(again.isOk());
    QVERIFY(*again == *steps);
  }

  void errors_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("message");
    QTest::newRow("empty") << "" << "<pipeline>:1:1: expected a pass name, found the end of the pipeline";
    QTest::newRow("unknown pass") << "InferType,FoldConstants"
                                  << "<pipeline>:1:11: unknown pass 'FoldConstants'";
    QTest::newRow("unknown option") << "FuseOps(level=2)"
                                    << "<pipeline>:1:9: unknown option 'level' of FuseOps (expected fuse_opt_level)";
    QTest::newRow("option of a pass without options")
        << "InferType(x=1)" << "<pipeline>:1:11: unknown option 'x' of InferType, which takes no options";
    QTest::newRow("bad integer") << "FuseOps(fuse_opt_level=two)"
                                 << "<pipeline>:1:24: bad value 'two' for option 'fuse_opt_level' of FuseOps: "
                                    "expected an integer";
    QTest::newRow("quoted integer") << "FuseOps(fuse_opt_level=\"2\")"
                                    << "<pipeline>:1:24: bad value '2' for option 'fuse_opt_level' of FuseOps: "
                                       "expected an integer";
    QTest::newRow("missing value") << "FuseOps(fuse_opt_level=)"
                                   << "<pipeline>:1:24: expected a value, found ')'";
    QTest::newRow("missing equals") << "FuseOps(fuse_opt_level 2)"
                                    << "<pipeline>:1:24: expected '=' after option 'fuse_opt_level', found '2'";
    QTest::newRow("unclosed") << "FuseOps(fuse_opt_level=2" << "<pipeline>:1:25: expected ',' or ')', found the end of the pipeline";
    QTest::newRow("twice") << "FuseOps(fuse_opt_level=2, fuse_opt_level=1)"
                           << "<pipeline>:1:27: option 'fuse_opt_level' is given twice";
    QTest::newRow("trailing comma") << "InferType," << "<pipeline>:1:11: expected a pass name, found the end of the pipeline";
    QTest::newRow("junk") << "InferType;FuseOps" << "<pipeline>:1:10: expected ',' or the end of the pipeline, found ';'";
    QTest::newRow("unterminated string") << "RemoveUnusedFunctions(entry_function=\"main)"
                                         << "<pipeline>:1:38: unterminated string";
  }

  void errors() {
    QFETCH(QString, text);
    QFETCH(QString, message);
    Result<std::vector<PipelineStep>> steps = parsePipeline(text.toStdString(), builtinPasses());
    QVERIFY(!steps.isOk());
    QCOMPARE(QString::fromStdString(steps.error().str()), message);
  }

  void numberAndBooleanOptions_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("result");
    QTest::newRow("number") << "Tune(rate=0.25)" << "Tune(rate=0.25)";
    QTest::newRow("integer for a number") << "Tune(rate=1)" << "Tune(rate=1)";
    QTest::newRow("exponent") << "Tune(rate=1e-3)" << "Tune(rate=0.001)";
    QTest::newRow("boolean") << "Tune(verbose=true, rate=2.5)" << "Tune(verbose=true, rate=2.5)";
    QTest::newRow("boolean as 0") << "Tune(verbose=0)" << "Tune(verbose=false)";
    QTest::newRow("bad number") << "Tune(rate=fast)"
                                << "<pipeline>:1:11: bad value 'fast' for option 'rate' of Tune: expected a number";
    QTest::newRow("bad boolean") << "Tune(verbose=yes)"
                                 << "<pipeline>:1:14: bad value 'yes' for option 'verbose' of Tune: expected true "
                                    "or false";
  }

  /// Options of every kind read and print back; `result` is the canonical text or the error.
  void numberAndBooleanOptions() {
    QFETCH(QString, text);
    QFETCH(QString, result);
    PassRegistry registry;
    PassInfo tune{"Tune", "takes options of every kind", 0, {}, "A pass for the test.",
                  {{"rate", AttrValue(0.5), "a number"}, {"verbose", AttrValue(false), "a flag"}}};
    QVERIFY(registry.add({tune, [](const Attrs&) { return Result<PassPtr>(PassPtr()); }}).isOk());
    Result<std::vector<PipelineStep>> steps = parsePipeline(text.toStdString(), registry);
    QString actual = QString::fromStdString(steps.isOk() ? printPipeline(*steps) : steps.error().str());
    QCOMPARE(actual, result);
  }

  void createChecksOptions() {
    const PassRegistry& registry = builtinPasses();
    Result<PassPtr> pass = registry.create("FuseOps", Attrs{{"fuse_opt_level", AttrValue("high")}});
    QVERIFY(!pass.isOk());
    QCOMPARE(pass.error().message, std::string("option 'fuse_opt_level' of FuseOps expects an integer, found \"high\""));
    Result<PassPtr> unknown = registry.create("Fuse");
    QVERIFY(!unknown.isOk());
    QCOMPARE(unknown.error().message, std::string("unknown pass 'Fuse'"));
    Result<PassPtr> fuse = registry.create("FuseOps", Attrs{{"fuse_opt_level", AttrValue(0)}});
    QVERIFY(fuse.isOk());
    QCOMPARE((*fuse)->info().options[0].defaultValue, AttrValue(0));
  }

  void aFactoryErrorIsLocatedAtItsStep() {
    PassRegistry registry;
    registerBuiltinPasses(registry);
    QVERIFY(registry.add({{"Picky", "refuses to be built", 0, {}}, [](const Attrs&) {
                            return Result<PassPtr>(makeError("Picky: not available in this build"));
                          }}).isOk());
    Result<std::vector<PipelineStep>> steps = parsePipeline("InferType, Picky", registry);
    QVERIFY(steps.isOk());
    Result<PassPtr> pipeline = buildPipeline(*steps, registry);
    QVERIFY(!pipeline.isOk());
    QCOMPARE(pipeline.error().str(), std::string("<pipeline>:1:12: Picky: not available in this build"));
  }

  void buildsASequentialOfTheSteps() {
    const PassRegistry& registry = builtinPasses();
    Result<std::vector<PipelineStep>> steps = parsePipeline("InferType,FuseOps(fuse_opt_level=0)", registry);
    QVERIFY(steps.isOk());
    Result<PassPtr> pipeline = buildPipeline(*steps, registry, "opt");
    QVERIFY(pipeline.isOk());
    QCOMPARE((*pipeline)->info().name, std::string("opt"));
  }
};

QTEST_GUILESS_MAIN(TestPipeline)
#include "test_pipeline.moc"
