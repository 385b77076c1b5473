#include <QtTest>

#include "partition_fixture.h"
#include "pass/infer_type.h"
#include "pass/partition/partition_flow.h"
#include "pass/verifier.h"
#include "target/target_library.h"
#include "text/parser.h"
#include "text/printer.h"

using namespace byoc;
using namespace byoc::testing;

/// The whole relay flow of a built-in target, as `byoc partition` runs it.
class TestPartitionFlow : public QObject {
  Q_OBJECT

  static std::vector<std::shared_ptr<const Target>> builtin(const char* name) {
    return {std::make_shared<const Target>(loadTarget(name).value())};
  }

 private slots:
  void dnnlStepsArePrepareThenTheRelayPipelineThenPruning() {
    Result<std::vector<PassPtr>> steps = partitionSteps(builtin("dnnl"), PartitionPipeline::Relay);
    QVERIFY(steps.isOk());
    std::vector<std::string> names;
    for (const PassPtr& pass : *steps) names.push_back(pass->info().name);
    QCOMPARE(names, (std::vector<std::string>{"FakeQuantizationToInteger", "CanonicalizeOps", "SimplifyInference",
                                              "FoldConstant", "LegalizeQnnForDnnl", "MergeComposite", "AnnotateTarget",
                                              "MergeCompilerRegions", "PartitionGraph", "PruneRegions"}));
    names.clear();
    std::vector<PassPtr> relax = partitionSteps(builtin("dnnl"), PartitionPipeline::Relax).value();
    for (const PassPtr& pass : relax) names.push_back(pass->info().name);
    QCOMPARE(names, (std::vector<std::string>{"FakeQuantizationToInteger", "CanonicalizeOps", "SimplifyInference",
                                              "FoldConstant", "LegalizeQnnForDnnl", "FuseOpsByPattern",
                                              "MergeCompositeFunctions", "RunCodegen"}));
  }

  void aSmallConvNetBecomesOneDnnlRegionOfComposites() {
    Module module = loadTypedTestModule(QStringLiteral("partition/dnnl_convnet.relay"));
    PassContext context;
    context.instruments.push_back(makeVerifierInstrument());
    std::vector<PassPtr> steps = partitionSteps(builtin("dnnl"), PartitionPipeline::Relay).value();
    for (const PassPtr& pass : steps) {
      Result<PassResult> result = (*pass)(module, context);
      QVERIFY2(result.isOk(), result ? "" : result.error().str().c_str());
      module = result->module;
    }
    if (qEnvironmentVariableIsSet("BYOC_UPDATE_GOLDENS")) writeTestData(QStringLiteral("partition/dnnl_convnet.expected"), printModule(module));
    QCOMPARE(printModule(module), readTestData(QStringLiteral("partition/dnnl_convnet.expected")));
  }

  // TVM's partition_for_dnnl, as far as this tool has its passes: the preparation (Legalize and
  // AlterOpLayout left out), MergeComposite, AnnotateTarget, MergeCompilerRegions, PartitionGraph
  // and prune_dnnl_subgraphs.
  void tvmDnnlRunsTvmsPreparationThenTheRelayPipelineThenPruning() {
    std::vector<PassPtr> steps = partitionSteps(builtin("tvm-dnnl"), PartitionPipeline::Relay).value();
    std::vector<std::string> names;
    for (const PassPtr& pass : steps) names.push_back(pass->info().name);
    QCOMPARE(names, (std::vector<std::string>{"CanonicalizeOps", "SimplifyInference", "FoldConstant", "FoldScaleAxis",
                                              "SimplifyExpr", "FoldConstant", "RewriteLayerNorm",
                                              "RewriteDenseBiasGeluReshapeLast", "MergeComposite", "AnnotateTarget",
                                              "MergeCompilerRegions", "PartitionGraph", "PruneRegions"}));
  }

  // The expected modules are derived from TVM's rules (spec §6.1, §6.2): see each input's comment.
  void tvmDnnlPartitionsAsTvm_data() {
    QTest::addColumn<QString>("name");
    QTest::newRow("scale folded, conv1d bias add not fused, ceil-mode pool on the host") << QStringLiteral("tvm_dnnl_flow");
    QTest::newRow("conv2d, bias add, batch norm and relu as one composite") << QStringLiteral("tvm_dnnl_bn");
  }
  void tvmDnnlPartitionsAsTvm() {
    QFETCH(QString, name);
    Module module = loadTypedTestModule(QStringLiteral("partition/%1.relay").arg(name));
    PassContext context;
    context.instruments.push_back(makeVerifierInstrument());
    std::vector<PassPtr> steps = partitionSteps(builtin("tvm-dnnl"), PartitionPipeline::Relay).value();
    for (const PassPtr& pass : steps) {
      Result<PassResult> result = (*pass)(module, context);
      QVERIFY2(result.isOk(), result ? "" : result.error().str().c_str());
      module = result->module;
    }
    const QString expected = QStringLiteral("partition/%1.expected").arg(name);
    if (qEnvironmentVariableIsSet("BYOC_UPDATE_GOLDENS")) writeTestData(expected, printModule(module));
    QCOMPARE(printModule(module), readTestData(expected));
  }

  void theRelaxFlowMergesCompositesOfOneCodegen() {
    Module module = loadTypedTestModule(QStringLiteral("partition/dnnl_convnet.relay"));
    PassContext context;
    context.instruments.push_back(makeVerifierInstrument());
    std::vector<PassPtr> steps = partitionSteps(builtin("dnnl"), PartitionPipeline::Relax).value();
    std::string printed;
    for (const PassPtr& pass : steps) {
      Result<PassResult> result = (*pass)(module, context);
      QVERIFY2(result.isOk(), result ? "" : result.error().str().c_str());
      module = result->module;
      printed += "// after " + pass->info().name + "\n" + printModule(module);
    }
    if (qEnvironmentVariableIsSet("BYOC_UPDATE_GOLDENS")) writeTestData(QStringLiteral("partition/dnnl_convnet.relax.expected"), printed);
    QCOMPARE(printed, readTestData(QStringLiteral("partition/dnnl_convnet.relax.expected")));
    const AttrValue* external = module.attrs().find("external_mods");
    QVERIFY(external && external->isList());
    QCOMPARE(external->asList().size(), std::size_t{2});
  }

  void anErrorInPreparePointsIntoTheTargetFile() {
    Target target = loadTarget("dnnl").value();
    target.file = "mine.json";
    target.preparePipeline = "CanonicalizeOps, FoldConstnt";
    auto targets = std::vector<std::shared_ptr<const Target>>{std::make_shared<const Target>(target)};
    Result<std::vector<PassPtr>> steps = partitionSteps(targets, PartitionPipeline::Relay);
    QVERIFY(!steps.isOk());
    QCOMPARE(steps.error().str(), std::string("mine.json: at /prepare: 1:18: unknown pass 'FoldConstnt'"));
    target.file.clear();
    target.preparePipeline = "FoldConstant(nope=1)";
    targets = {std::make_shared<const Target>(target)};
    steps = partitionSteps(targets, PartitionPipeline::Relax);
    QVERIFY(!steps.isOk());
    QCOMPARE(steps.error().str(), std::string("target dnnl: at /prepare: 1:14: unknown option 'nope' of FoldConstant, which takes no options"));
  }

  // TVM's relay.ext.<target>.optimize: PartitionGraph hands each function it outlines for the
  // target to the hook. Here the hook's SimplifyExpr removes the transposes that cancel inside
  // the region; main and the functions of other targets keep theirs.
  void theOptimizePipelineRunsOnEachOutlinedFunction() {
    Target target;
    target.name = "t";
    target.codegen = "reference";
    target.opRules.push_back(parseOpRule("transpose, nn.relu").value());
    target.optimizePipeline = "SimplifyExpr";
    auto targets = std::vector<std::shared_ptr<const Target>>{std::make_shared<const Target>(target)};
    std::vector<PassPtr> steps = partitionSteps(targets, PartitionPipeline::Relay).value();
    QCOMPARE(steps.back()->info().name, std::string("OptimizeExternal"));
    Result<Module> parsed = parseModule("def @main(%x: Tensor[(1, 2, 3), float32]) {\n"
                                        "  %0 = transpose(%x, axes=[0, 2, 1]);\n"
                                        "  %1 = transpose(%0, axes=[0, 2, 1]);\n"
                                        "  %2 = nn.relu(%1);\n"
                                        "  %3 = negative(%2);\n"
                                        "  %4 = transpose(%3, axes=[0, 2, 1]);\n"
                                        "  transpose(%4, axes=[0, 2, 1])\n"
                                        "}\n",
                                        "case.relay");
    QVERIFY(parsed.isOk());
    Module module = inferTypes(*parsed).value();
    PassContext context;
    context.instruments.push_back(makeVerifierInstrument());
    for (const PassPtr& pass : steps) {
      Result<PassResult> result = (*pass)(module, context);
      QVERIFY2(result.isOk(), result ? "" : result.error().str().c_str());
      module = result->module;
    }
    PrintOptions options;
    options.showMetadata = false;
    const std::string printed = printModule(module, options);
    const std::string external = printed.substr(printed.find("def @tvmgen_default_t_main_0"));
    QVERIFY2(external.find("nn.relu(%t_0_i0)") != std::string::npos, printed.c_str());
    QVERIFY2(external.find("transpose") == std::string::npos, printed.c_str());
    QVERIFY2(external.find("Compiler=\"t\", Primitive=1, Inline=1") != std::string::npos, printed.c_str());
  }

  void anErrorInOptimizePointsIntoTheTargetFile() {
    Target target = loadTarget("dnnl").value();
    target.file = "mine.json";
    target.optimizePipeline = "FoldConstant, SimplifyExpr(level=2)";
    auto targets = std::vector<std::shared_ptr<const Target>>{std::make_shared<const Target>(target)};
    Result<std::vector<PassPtr>> steps = partitionSteps(targets, PartitionPipeline::Relay);
    QVERIFY(!steps.isOk());
    QCOMPARE(steps.error().str(),
             std::string("mine.json: at /optimize: 1:28: unknown option 'level' of SimplifyExpr, which takes no options"));
  }

  void rowsMatchingLoneValuesAreRefusedInTargetsBuiltInCode() {
    for (const char* pattern : {"*", "nn.relu(*) | *", "c = c | add(*, *); c"}) {
      Target target;
      target.name = "t";
      target.patterns.push_back({"t.row", pattern, {}, {}});
      auto targets = std::vector<std::shared_ptr<const Target>>{std::make_shared<const Target>(target)};
      for (PartitionPipeline pipeline : {PartitionPipeline::Relay, PartitionPipeline::Relax}) {
        Result<std::vector<PassPtr>> steps = partitionSteps(targets, pipeline);
        QVERIFY2(!steps.isOk(), pattern);
        QVERIFY2(steps.error().str().starts_with("target t, pattern t.row: the pattern"), steps.error().str().c_str());
      }
    }
  }

  void theRelaxPipelineIsNamedAndABadNameIsRefused() {
    QVERIFY(parsePartitionPipeline("relax").isOk());
    QCOMPARE(parsePartitionPipeline("xla").error().message, std::string("unknown pipeline 'xla'; expected relay or relax"));
  }
};

QTEST_GUILESS_MAIN(TestPartitionFlow)
#include "test_partition_flow.moc"
