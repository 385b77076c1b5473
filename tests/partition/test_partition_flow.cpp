#include <QtTest>

#include "partition_fixture.h"
#include "pass/partition/partition_flow.h"
#include "pass/verifier.h"
#include "target/target_library.h"
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
    QCOMPARE(names, (std::vector<std::string>{"CanonicalizeOps", "SimplifyInference", "FoldConstant", "MergeComposite",
                                              "AnnotateTarget", "MergeCompilerRegions", "PartitionGraph", "PruneRegions"}));
    names.clear();
    std::vector<PassPtr> relax = partitionSteps(builtin("dnnl"), PartitionPipeline::Relax).value();
    for (const PassPtr& pass : relax) names.push_back(pass->info().name);
    QCOMPARE(names, (std::vector<std::string>{"CanonicalizeOps", "SimplifyInference", "FoldConstant", "FuseOpsByPattern",
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
