/// \file
/// The passes, the fusion analysis and the verifier on a 100,000-op chain: nothing recurses in
/// proportion to depth, and fusion respects its depth cap.

#include <QtTest>

#include "ir/op.h"
#include "ir/traversal.h"
#include "pass/builtin_passes.h"
#include "pass/infer_type.h"
#include "pass/pipeline.h"
#include "pass/verifier.h"

using namespace byoc;

namespace {

/// `x → relu → add 1 → relu → add 1 → …` with `ops` ops, every node with an origin.
Module chain(int ops) {
  NodeId next = 1;
  Var x = VarNode::make("x", tensorType({4}, DType::Float32), Origin::single(next++));
  Expr value = x;
  for (int i = 0; i < ops; ++i) {
    if (i % 2 == 0) {
      value = makeOpCall("nn.relu", {value}, {}, Origin::single(next++)).value();
    } else {
      Expr one = ConstantNode::make(TensorData::scalar(DType::Float32, 1.0), Origin::single(next++));
      value = makeOpCall("add", {value, one}, {}, Origin::single(next++)).value();
    }
  }
  Module module;
  module.set("main", FunctionNode::make({x}, value, {}, {}, Origin::single(next++)));
  return module;
}

}  // namespace

class TestDeepGraphs : public QObject {
  Q_OBJECT

 private slots:
  void aLongChainGoesThroughEveryPass() {
    const int ops = 100000;
    const PassRegistry& registry = builtinPasses();
    Result<std::vector<PipelineStep>> steps = parsePipeline(
        "InferType,SimplifyInference,FoldConstant,EliminateCommonSubexpr,DeadCodeElimination,FuseOps(fuse_opt_level=2)",
        registry);
    QVERIFY(steps.isOk());
    Result<PassPtr> pipeline = buildPipeline(*steps, registry);
    QVERIFY(pipeline.isOk());
    PassContext context;
    context.optLevel = 3;
    context.config.set("relay.FuseOps.max_depth", AttrValue(100));
    Result<PassResult> result = runPipeline(**pipeline, chain(ops), context);
    QVERIFY2(result.isOk(), result.isOk() ? "" : result.error().str().c_str());
    QVERIFY(verifyModule(result->module).isOk());

    // Count the primitive functions and the ops inside them: every op is fused, in groups of at most 100.
    std::size_t groups = 0;
    std::size_t fusedOps = 0;
    postOrderVisit(result->module, [&](const Expr& node) {
      if (const auto* function = node->as<FunctionNode>(); function && function->attrs.contains("Primitive")) {
        ++groups;
        std::size_t inside = 0;
        postOrderVisit(function->body, [&inside](const Expr& inner) {
          if (const auto* call = inner->as<CallNode>(); call && call->opDef()) ++inside;
        });
        QVERIFY(inside <= 100);
        fusedOps += inside;
      }
    });
    QCOMPARE(fusedOps, std::size_t{ops});
    QVERIFY(groups >= ops / 100);
  }
};

QTEST_GUILESS_MAIN(TestDeepGraphs)
#include "test_deep_graphs.moc"
