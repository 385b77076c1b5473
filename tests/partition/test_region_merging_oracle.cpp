/// \file
/// The fast region merging of MergeCompilerRegions and the fast grouping of
/// MergeCompositeFunctions give exactly what their simple oracles give (tests/support/
/// merge_oracles.h), on thousands of random graphs with two or three targets or codegens, random
/// support, skip edges, tuples, Ifs and lets; and the passes built on them keep verified modules.

#include <QtTest>
#include <memory>
#include <random>

#include "ir/traversal.h"
#include "merge_oracles.h"
#include "pass/analysis/composite_grouping.h"
#include "pass/analysis/region_merging.h"
#include "pass/infer_type.h"
#include "pass/partition/annotations.h"
#include "pass/partition/partition_passes.h"
#include "pass/verifier.h"
#include "random_partition_graphs.h"
#include "target/target.h"
#include "text/parser.h"

using namespace byoc;
using namespace byoc::testing;

namespace {

Choose seeded(std::mt19937& generator) {
  return [&generator](int bound) { return static_cast<int>(generator() % static_cast<unsigned>(bound)); };
}

/// `main` of a random function annotated for random targets, or null when the region set refuses
/// it (the simple and the fast merging then never run).
struct Annotated {
  Module module;
  Function main;
};

Annotated annotatedRandomFunction(const Choose& choose, int nodes, RandomFunctionForms forms) {
  Result<Module> parsed = parseModule(randomRelayFunction(choose, nodes, forms), "random.relay");
  if (!parsed) qFatal("random function does not parse: %s", parsed.error().str().c_str());
  Result<Module> typed = inferTypes(*parsed);
  if (!typed) qFatal("random function does not type: %s", typed.error().str().c_str());
  std::vector<std::shared_ptr<const Target>> targets;
  for (const std::string& file : randomTargetFiles(choose, 2 + choose(2))) {
    Result<Target> target = parseTarget(file);
    if (!target) qFatal("random target does not parse: %s", target.error().str().c_str());
    targets.push_back(std::make_shared<const Target>(std::move(*target)));
  }
  PassContext context;
  Result<PassResult> annotated = (*createAnnotateTargetPass(targets))(*typed, context);
  if (!annotated) qFatal("AnnotateTarget failed: %s", annotated.error().str().c_str());
  return {annotated->module, annotated->module.find("main")};
}

/// Every annotation of `function` with the id of its region after merging.
std::vector<int> regionIdsOfAnnotations(const Function& function, AnnotatedRegionSet& regions) {
  std::vector<int> ids;
  postOrderVisit(function, [&](const Expr& node) {
    if (partitioning::isCompilerBegin(node) || partitioning::isCompilerEnd(node)) ids.push_back(regions.regionOf(node)->id);
  });
  return ids;
}

}  // namespace

class TestRegionMergingOracle : public QObject {
  Q_OBJECT

 private slots:
  void compositeGroupingEqualsTheOracle() {
    std::mt19937 generator(20261129);
    const Choose choose = seeded(generator);
    for (int round = 0; round < 3000; ++round) {
      const CodegenGraph graph = randomCodegenGraph(choose, 1 + choose(round < 2500 ? 60 : 600), 1 + choose(3));
      Result<std::vector<int>> fast = groupCompositeCalls(graph.operands, graph.codegens);
      QVERIFY(fast.isOk());
      QCOMPARE(*fast, simpleCompositeGrouping(graph.operands, graph.codegens));
    }
  }

  void regionMergingEqualsTheOracle() {
    std::mt19937 generator(1129);
    const Choose choose = seeded(generator);
    int compared = 0, merged = 0;
    for (int round = 0; round < 2000; ++round) {
      const Annotated annotated = annotatedRandomFunction(choose, 2 + choose(round < 1800 ? 40 : 300), {true, round % 8 == 0});
      Result<AnnotatedRegionSet> fast = AnnotatedRegionSet::create(annotated.main);
      Result<AnnotatedRegionSet> simple = AnnotatedRegionSet::create(annotated.main);
      QCOMPARE(fast.isOk(), simple.isOk());
      if (!fast) continue;
      const std::size_t before = fast->regions().size();
      QVERIFY(mergeRegionsAsTvm(*fast).isOk());
      SimpleRegionMerger(*simple).run();
      QCOMPARE(regionIdsOfAnnotations(annotated.main, *fast), regionIdsOfAnnotations(annotated.main, *simple));
      ++compared;
      merged += fast->regions().size() < before;
    }
    // The random functions exercise the merging: most are compared, many merge something.
    QVERIFY2(compared > 1500, qPrintable(QString::number(compared)));
    QVERIFY2(merged > 500, qPrintable(QString::number(merged)));
  }

  // TVM's merge order can close a cycle; MergeCompilerRegions then refuses the merges that close
  // one, and otherwise gives exactly TVM's regions.
  void mergeCompilerRegionsNeverMakesACycle() {
    std::mt19937 generator(7);
    const Choose choose = seeded(generator);
    int tvmCycles = 0;
    for (int round = 0; round < 3000; ++round) {
      const Annotated annotated = annotatedRandomFunction(choose, 2 + choose(round < 2500 ? 30 : 200), {round % 2 == 0, false});
      Result<AnnotatedRegionSet> tvm = AnnotatedRegionSet::create(annotated.main);
      if (!tvm) continue;
      SimpleRegionMerger(*tvm).run();
      Result<AnnotatedRegionSet> merged = mergeCompilerRegions(annotated.main);
      QVERIFY2(merged.isOk(), merged.isOk() ? "" : merged.error().str().c_str());
      QVERIFY(!regionsFormCycle(*merged));
      if (regionsFormCycle(*tvm)) ++tvmCycles;
      else QCOMPARE(regionIdsOfAnnotations(annotated.main, *merged), regionIdsOfAnnotations(annotated.main, *tvm));
    }
    QVERIFY2(tvmCycles > 0, "no random function made TVM's merging close a cycle");
  }

  // Annotations that already make two regions feed each other are an error, not a crash.
  void regionsFeedingEachOtherAreAnError() {
    Result<Module> parsed = parseModule(R"(#[version = "0.0.5"]
def @main(%x: Tensor[(2), float32]) {
  %0 = annotation.compiler_begin(%x, compiler="t0");
  %1 = tanh(%0);
  %2 = annotation.compiler_end(%1, compiler="t0");
  %3 = annotation.compiler_begin(%2, compiler="t1");
  %4 = nn.relu(%3);
  %5 = annotation.compiler_end(%4, compiler="t1");
  %6 = annotation.compiler_begin(%5, compiler="t0");
  %7 = add(%6, %1);
  annotation.compiler_end(%7, compiler="t0")
}
)", "cycle.relay");
    QVERIFY2(parsed.isOk(), parsed.isOk() ? "" : parsed.error().str().c_str());
    Result<Module> typed = inferTypes(*parsed);
    QVERIFY(typed.isOk());
    PassContext context;
    Result<PassResult> merged = (*createMergeCompilerRegionsPass())(*typed, context);
    QVERIFY(!merged.isOk());
    QVERIFY2(merged.error().message.find("depend on one another in a cycle") != std::string::npos, merged.error().str().c_str());
    QVERIFY(merged.error().location.line > 0);
    Result<PassResult> outlined = (*createPartitionGraphPass())(*typed, context);
    QVERIFY(!outlined.isOk());
    QVERIFY2(outlined.error().message.find("takes a value computed from its own output") != std::string::npos,
             outlined.error().str().c_str());
    QCOMPARE(outlined.error().location.line, 5);  // the end whose value comes back into its region
  }

  void mergedAndPartitionedModulesVerify() {
    std::mt19937 generator(42);
    const Choose choose = seeded(generator);
    PassContext context;
    for (int round = 0; round < 400; ++round) {
      Annotated annotated = annotatedRandomFunction(choose, 2 + choose(80), {round % 2 == 0, false});
      if (!AnnotatedRegionSet::create(annotated.main)) continue;
      Module module = annotated.module;
      for (const PassPtr& pass : {createMergeCompilerRegionsPass(), createPartitionGraphPass()}) {
        Result<PassResult> ran = (*pass)(module, context);
        QVERIFY2(ran.isOk(), ran.isOk() ? "" : ran.error().str().c_str());
        module = ran->module;
        const Status verified = verifyModule(module);
        QVERIFY2(verified.isOk(), verified.isOk() ? "" : verified.error().str().c_str());
      }
    }
  }
};

QTEST_APPLESS_MAIN(TestRegionMergingOracle)
#include "test_region_merging_oracle.moc"
