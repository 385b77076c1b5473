#include <QtTest>

#include "ir/op.h"
#include "ir/traversal.h"
#include "partition_fixture.h"
#include "pass/verifier.h"
#include "text/printer.h"

using namespace byoc;
using namespace byoc::testing;

/// The demo of seed 000 through MergeComposite, AnnotateTarget, MergeCompilerRegions and PartitionGraph with
/// `byoc-target`: each step prints what the seed prints.
class TestSeed000 : public QObject {
  Q_OBJECT

  std::vector<std::shared_ptr<const Target>> targets_{loadTestTarget("byoc-target")};
  PassContext context_ = verifyingContext();

  static PassContext verifyingContext() {
    PassContext context;
    context.instruments.push_back(makeVerifierInstrument());
    return context;
  }

  Module run(const PassPtr& pass, const Module& module) {
    Result<PassResult> result = (*pass)(module, context_);
    if (!result) qFatal("%s: %s", pass->info().name.c_str(), result.error().str().c_str());
    if (!result->changed) qFatal("%s reported no change", pass->info().name.c_str());
    return result->module;
  }

  /// A function printed as TVM's `astext` prints it: `#[version]` then `fn (…) {…} /* ty=… */`.
  static std::string printedFunction(const Module& module, const std::string& name) {
    PrintOptions options;
    options.showTypes = true;
    return printExpr(module.find(name), options);
  }

  /// The first node under `root` that `accept` picks.
  static Expr find(const Expr& root, const std::function<bool(const Expr&)>& accept) {
    Expr found;
    postOrderVisit(root, [&](const Expr& node) {
      if (!found && accept(node)) found = node;
    });
    return found;
  }

  static bool callsOp(const Expr& node, const char* op) {
    const auto* call = node->as<CallNode>();
    return call && call->opDef() && call->opDef()->name == op;
  }

  static std::string seed(const char* file) { return readTestData(QStringLiteral("partition/seed000/") + QLatin1String(file)); }

 private slots:
  void everyStepPrintsWhatTheSeedPrints() {
    Module demo = loadTypedTestModule(QStringLiteral("text/demo.relay"));

    Module composite = run(partitionPass("MergeComposite", targets_), demo);
    QCOMPARE(withoutSpaces(printedFunction(composite, "main")), withoutSpaces(seed("merge_composite.seed.txt")));
    // The seed's composite module, as written in the test data, is what MergeComposite made.
    QCOMPARE(printModule(composite), printModule(loadTypedTestModule(QStringLiteral("partition/demo.composite.relay"))));

    Module annotated = run(partitionPass("AnnotateTarget", targets_), composite);
    QCOMPARE(withoutSpaces(printedFunction(annotated, "main")), withoutSpaces(seed("annotate_target.seed.txt")));

    Module merged = run(partitionPass("MergeCompilerRegions", targets_), annotated);
    QCOMPARE(withoutSpaces(printedFunction(merged, "main")), withoutSpaces(seed("merge_compiler_regions.seed.txt")));

    Module partitioned = run(partitionPass("PartitionGraph", targets_), merged);
    QCOMPARE(withoutSpaces(printedFunction(partitioned, "main")), withoutSpaces(seed("partition_graph_main.seed.txt")));
    std::vector<std::string> names;
    for (const auto& entry : partitioned.functions()) names.push_back(entry.first);
    QCOMPARE(names, (std::vector<std::string>{"main", "tvmgen_default_byoc_target_main_0", "tvmgen_default_byoc_target_main_2",
                                              "tvmgen_default_byoc_target_main_5"}));
    for (const char* region : {"0", "2", "5"}) {
      std::string name = std::string("tvmgen_default_byoc_target_main_") + region;
      std::string file = std::string("partition_graph_main_") + region + ".seed.txt";
      QCOMPARE(withoutSpaces(printedFunction(partitioned, name)), withoutSpaces(seed(file.c_str())));
    }
  }

  void outlinedCallsMapBackToTheLoadedNodes() {
    Module composite = loadTypedTestModule(QStringLiteral("partition/demo.composite.relay"));
    Module partitioned = composite;
    for (const char* step : {"AnnotateTarget", "MergeCompilerRegions", "PartitionGraph"})
      partitioned = run(partitionPass(step, targets_), partitioned);
    Expr reshape = find(composite.find("main"), [](const Expr& node) { return callsOp(node, "reshape"); });
    QVERIFY(reshape && !reshape->origin().empty());
    NodeId reshapeId = reshape->origin().ids()[0];
    // The call of the outlined region carries the origins of everything it replaced…
    Expr call = find(partitioned.find("main"), [](const Expr& node) {
      const auto* call = node->as<CallNode>();
      const auto* callee = call ? call->callee->as<GlobalVarNode>() : nullptr;
      return callee && callee->name == "tvmgen_default_byoc_target_main_5";
    });
    QVERIFY(call);
    QVERIFY(call->origin().contains(reshapeId));
    // …and the reshape inside the outlined function keeps its own.
    Expr inside = find(partitioned.find("tvmgen_default_byoc_target_main_5"), [](const Expr& node) { return callsOp(node, "reshape"); });
    QVERIFY(inside->origin() == reshape->origin());
  }
};

QTEST_GUILESS_MAIN(TestSeed000)
#include "test_seed000.moc"
