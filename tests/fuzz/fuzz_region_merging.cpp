/// \file
/// libFuzzer target: the fuzzer's bytes choose a random graph (tests/support/
/// random_partition_graphs.h), on which the fast region merging and grouping must give exactly
/// what their simple oracles give (tests/support/merge_oracles.h): MergeCompositeFunctions'
/// grouping on a graph of composite calls of up to three codegens, and MergeCompilerRegions'
/// merging on a Relay function annotated for two or three targets of random support.

#include <cstddef>
#include <cstdint>
#include <memory>

#include "ir/traversal.h"
#include "merge_oracles.h"
#include "pass/analysis/composite_grouping.h"
#include "pass/analysis/region_merging.h"
#include "pass/infer_type.h"
#include "pass/partition/annotations.h"
#include "pass/partition/partition_passes.h"
#include "random_partition_graphs.h"
#include "support/result.h"
#include "target/target.h"
#include "text/parser.h"

namespace {

/// Annotations of `function` with their region ids after merging.
std::vector<int> regionIds(const byoc::Function& function, byoc::AnnotatedRegionSet& regions) {
  std::vector<int> ids;
  byoc::postOrderVisit(function, [&](const byoc::Expr& node) {
    if (byoc::partitioning::isCompilerBegin(node) || byoc::partitioning::isCompilerEnd(node))
      ids.push_back(regions.regionOf(node)->id);
  });
  return ids;
}

void checkRegionMerging(const byoc::testing::Choose& choose) {
  byoc::Result<byoc::Module> parsed = byoc::parseModule(byoc::testing::randomRelayFunction(choose, 2 + choose(200), {true, choose(8) == 0}), "fuzz.relay");
  BYOC_CHECK(parsed.isOk(), "a random function does not parse");
  byoc::Result<byoc::Module> typed = byoc::inferTypes(*parsed);
  BYOC_CHECK(typed.isOk(), "a random function does not type");
  std::vector<std::shared_ptr<const byoc::Target>> targets;
  for (const std::string& file : byoc::testing::randomTargetFiles(choose, 2 + choose(2))) {
    byoc::Result<byoc::Target> target = byoc::parseTarget(file);
    BYOC_CHECK(target.isOk(), "a random target does not parse");
    targets.push_back(std::make_shared<const byoc::Target>(std::move(*target)));
  }
  byoc::PassContext context;
  byoc::Result<byoc::PassResult> annotated = (*byoc::createAnnotateTargetPass(targets))(*typed, context);
  BYOC_CHECK(annotated.isOk(), "AnnotateTarget fails on a random function");
  const byoc::Function main = annotated->module.find("main");
  byoc::Result<byoc::AnnotatedRegionSet> fast = byoc::AnnotatedRegionSet::create(main);
  byoc::Result<byoc::AnnotatedRegionSet> simple = byoc::AnnotatedRegionSet::create(main);
  if (!fast || !simple) return;
  BYOC_CHECK(byoc::mergeRegionsAsTvm(*fast).isOk(), "the fast merging fails where the oracle does not");
  byoc::testing::SimpleRegionMerger(*simple).run();
  BYOC_CHECK(regionIds(main, *fast) == regionIds(main, *simple), "MergeCompilerRegions differs from its oracle");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::size_t offset = 0;
  const byoc::testing::Choose choose = [&](int bound) {
    unsigned value = 0;
    for (int k = 0; k < 2 && offset < size; ++k) value = value << 8 | data[offset++];
    return static_cast<int>(value % static_cast<unsigned>(bound));
  };
  if (choose(2) == 0) {
    const byoc::testing::CodegenGraph graph = byoc::testing::randomCodegenGraph(choose, 1 + choose(400), 1 + choose(3));
    byoc::Result<std::vector<int>> fast = byoc::groupCompositeCalls(graph.operands, graph.codegens);
    BYOC_CHECK(fast.isOk() && *fast == byoc::testing::simpleCompositeGrouping(graph.operands, graph.codegens),
               "MergeCompositeFunctions' grouping differs from its oracle");
  } else {
    checkRegionMerging(choose);
  }
  return 0;
}
