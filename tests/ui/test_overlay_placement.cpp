/// \file
/// The graph never shows a placement the IR does not have: for models (an ONNX network whose Conv
/// nodes become conv2d and bias_add, the demo, random functions), built-in and random targets, both
/// flows and every step, the nodes the step overlay tints and the partition each is outlined in are
/// exactly what the step's module says of the call each drawn node became; and a comparison of two
/// partitionings tints what its table lists.

#include <QtTest>
#include <algorithm>
#include <map>
#include <memory>
#include <random>
#include <set>

#include "../frontend/test_onnx_builder.h"
#include "builtin_resources.h"
#include "frontend/onnx/onnx_import.h"
#include "graph/graph_model.h"
#include "ir/traversal.h"
#include "overlay/comparison_overlay.h"
#include "overlay/snapshot_overlay.h"
#include "pass/analysis/partition_diff.h"
#include "pass/analysis/placement.h"
#include "pass/analysis/annotated_region_set.h"
#include "pass/infer_type.h"
#include "pass/partition/annotations.h"
#include "pass/partition/partition_flow.h"
#include "pass/pass_runner.h"
#include "random_partition_graphs.h"
#include "target/target.h"
#include "target/target_library.h"
#include "text/parser.h"

using namespace byoc;
using namespace byoc::ui;

namespace {

/// A small residual network as exported to ONNX: 3×3 and 1×1 convolutions with biases (each
/// imported as conv2d and bias_add), relus and an add.
std::string residualOnnx() {
  testing::OnnxModelBuilder b;
  b.input("x", {1, 4, 8, 8}).output("y");
  b.rampInitializer("w1", {4, 4, 3, 3}).rampInitializer("b1", {4});
  b.rampInitializer("w2", {4, 4, 1, 1}).rampInitializer("b2", {4});
  b.rampInitializer("w3", {4, 4, 3, 3}).rampInitializer("b3", {4});
  testing::attr(b.node("Conv", {"x", "w1", "b1"}, {"c1"}, "conv3x3"), "pads", std::vector<int64_t>{1, 1, 1, 1});
  b.node("Relu", {"c1"}, {"r1"}, "relu1");
  b.node("Conv", {"r1", "w2", "b2"}, {"c2"}, "conv1x1");
  testing::attr(b.node("Conv", {"c2", "w3", "b3"}, {"c3"}, "conv3x3b"), "pads", std::vector<int64_t>{1, 1, 1, 1});
  b.node("Add", {"c3", "x"}, {"s"}, "add");
  b.node("Relu", {"s"}, {"y"}, "relu2");
  return b.bytes();
}

Module typed(Result<Module> module) {
  if (!module) qFatal("%s", module.error().str().c_str());
  Result<Module> result = inferTypes(*module);
  if (!result) qFatal("%s", result.error().str().c_str());
  return *result;
}

std::shared_ptr<const Target> targetFrom(const std::string& json) {
  Result<Target> target = parseTarget(json, "test.json");
  if (!target) qFatal("%s", target.error().str().c_str());
  return std::make_shared<const Target>(std::move(*target));
}

/// Every loaded-model id a call of a step derives from: its own and, for a call of a function
/// literal (a composite), its body's calls'.
std::set<NodeId> idsOfCall(const CallNode& call) {
  std::set<NodeId> ids(call.origin().ids().begin(), call.origin().ids().end());
  if (const auto* literal = call.callee->as<FunctionNode>()) {
    postOrderVisit(literal->body, [&](const Expr& inner) {
      if (inner->kind() == ExprKind::Call) ids.insert(inner->origin().ids().begin(), inner->origin().ids().end());
    });
  }
  return ids;
}

/// What a step's module says of the drawn calls: the target each runs on, or the partition it is
/// outlined in. A drawn node that two calls of different placement derive from is a failure
/// (the picture could only show one of them).
struct DrawnPlacement {
  std::map<int, QString> targets;
  std::map<int, QString> partitions;
  QStringList conflicts;
};

void place(std::map<int, QString>& into, const std::set<NodeId>& ids, const QString& value, const GraphModel& graph,
           QStringList& conflicts) {
  for (NodeId id : ids) {
    for (int node : graph.nodesWithOrigin(id)) {
      if (graph.nodes()[node].expr->kind() != ExprKind::Call) continue;
      auto [it, inserted] = into.emplace(node, value);
      if (!inserted && it->second != value)
        conflicts << QStringLiteral("%1#%2: %3 and %4").arg(graph.nodes()[node].title).arg(node).arg(it->second, value);
    }
  }
}

DrawnPlacement placementOf(const Module& step, const GraphModel& graph) {
  DrawnPlacement placement;
  const Function main = step.find("main");
  bool annotated = false;
  postOrderVisit(main, [&](const Expr& node) {
    annotated = annotated || partitioning::isCompilerBegin(node);
  });
  if (annotated) {
    Result<AnnotatedRegionSet> regions = AnnotatedRegionSet::create(main);
    if (!regions) qFatal("%s", regions.error().str().c_str());
    postOrderVisit(main, [&](const Expr& node) {
      const auto* call = node->as<CallNode>();
      if (!call || partitioning::isCompilerBegin(node) || partitioning::isCompilerEnd(node)) return;
      if (const AnnotatedRegion* region = regions->regionOf(node))
        place(placement.targets, idsOfCall(*call), QString::fromStdString(region->target), graph, placement.conflicts);
    });
  }
  for (const auto& [name, function] : step.functions()) {
    const AttrValue* compiler = function->attrs.find("Compiler");
    if (!compiler || !compiler->isString()) continue;
    const AttrValue* symbol = function->attrs.find("global_symbol");
    const QString partition = QString::fromStdString(symbol && symbol->isString() ? symbol->asString() : name);
    std::set<NodeId> ids;
    postOrderVisit(function->body, [&](const Expr& node) {
      if (const auto* call = node->as<CallNode>()) {
        const std::set<NodeId> more = idsOfCall(*call);
        ids.insert(more.begin(), more.end());
      }
    });
    place(placement.targets, ids, QString::fromStdString(compiler->asString()), graph, placement.conflicts);
    place(placement.partitions, ids, partition, graph, placement.conflicts);
  }
  return placement;
}

/// The drawn calls' tints and partitions as the overlay shows them.
DrawnPlacement shownBy(const GraphOverlay& overlay, const GraphModel& graph) {
  DrawnPlacement shown;
  for (const auto& [node, target] : overlay.nodeTargets)
    if (graph.nodes()[node].expr->kind() == ExprKind::Call) shown.targets.emplace(node, target);
  for (const OverlayHull& hull : overlay.hulls) {
    if (hull.kind != OverlayHull::Kind::Partition) continue;
    for (int node : hull.nodes)
      if (graph.nodes()[node].expr->kind() == ExprKind::Call) shown.partitions.emplace(node, hull.label);
  }
  return shown;
}

QString describe(const std::map<int, QString>& placed, const GraphModel& graph) {
  QStringList parts;
  for (const auto& [node, value] : placed) parts << QStringLiteral("%1#%2=%3").arg(graph.nodes()[node].title).arg(node).arg(value);
  return parts.join(QStringLiteral(", "));
}

/// Checks every step of partitioning `loaded` for `targets` with `pipeline`; adds to `placed` the
/// number of drawn calls the steps place on a target.
void checkEveryStep(const QString& label, const Module& loaded, const std::vector<std::shared_ptr<const Target>>& targets,
                    PartitionPipeline pipeline, int& placed) {
  const GraphModel graph = GraphModel::build(loaded.find("main"));
  Result<std::vector<PassPtr>> steps = partitionSteps(targets, pipeline);
  QVERIFY2(steps.isOk(), steps.isOk() ? "" : steps.error().str().c_str());
  Result<PassRun> run = runPasses(*steps, loaded);
  QVERIFY2(run.isOk(), qPrintable(label + QStringLiteral(": ") + QString::fromStdString(run.isOk() ? "" : run.error().str())));
  for (const PassStep& step : run->steps) {
    const QString where = label + QStringLiteral(" after ") + QString::fromStdString(step.pass);
    const DrawnPlacement expected = placementOf(step.module, graph);
    placed += static_cast<int>(expected.targets.size());
    QVERIFY2(expected.conflicts.isEmpty(), qPrintable(where + QStringLiteral(": ") + expected.conflicts.join(QStringLiteral("; "))));
    const DrawnPlacement shown = shownBy(overlayForSnapshot(step.module, graph), graph);
    QVERIFY2(shown.targets == expected.targets, qPrintable(where + QStringLiteral("\n  shown:    ") + describe(shown.targets, graph) +
                                                          QStringLiteral("\n  expected: ") + describe(expected.targets, graph)));
    QVERIFY2(shown.partitions == expected.partitions,
             qPrintable(where + QStringLiteral("\n  shown:    ") + describe(shown.partitions, graph) +
                        QStringLiteral("\n  expected: ") + describe(expected.partitions, graph)));
  }
}

/// The last step of partitioning `loaded` for `target` with `pipeline`.
Module partitioned(const Module& loaded, const std::shared_ptr<const Target>& target, PartitionPipeline pipeline) {
  Result<std::vector<PassPtr>> steps = partitionSteps({target}, pipeline);
  if (!steps) qFatal("%s", steps.error().str().c_str());
  Result<PassRun> run = runPasses(*steps, loaded);
  if (!run) qFatal("%s", run.error().str().c_str());
  return run->steps.back().module;
}

/// The comparison's tints agree with its table: a drawn call tinted as offloaded on both alike is
/// not among the calls the table lists as placed differently, every other tint is, and an
/// untinted call is offloaded on neither side. Returns the number of tinted calls.
int checkComparisonTints(const QString& label, const Module& loaded, const Module& a, const Module& b) {
  const GraphModel graph = GraphModel::build(loaded.find("main"));
  const PartitionDiff diff = comparePartitionings(loaded, a, b);
  std::set<NodeId> listed;
  for (const OffloadDifference& row : diff.offload) listed.insert(row.id);
  const PlacementMap placedA = placeOpCalls(a), placedB = placeOpCalls(b);
  auto offloadedIn = [](const PlacementMap& placed, NodeId id) {
    auto pieces = placed.find(id);
    return pieces != placed.end() && std::any_of(pieces->second.begin(), pieces->second.end(),
                                                 [](const byoc::Placement& piece) { return piece.offloaded(); });
  };
  const GraphOverlay overlay = overlayForComparison(a, b, diff, graph);
  int tinted = 0;
  for (const GraphNode& node : graph.nodes()) {
    if (node.expr->kind() != ExprKind::Call) continue;
    const auto tint = overlay.nodeTargets.find(node.id);
    bool inTable = false, offloaded = false;
    for (NodeId id : node.expr->origin().ids()) {
      inTable = inTable || listed.count(id);
      offloaded = offloaded || offloadedIn(placedA, id) || offloadedIn(placedB, id);
    }
    const QString where = label + QStringLiteral(": %1#%2").arg(node.title).arg(node.id);
    if (tint == overlay.nodeTargets.end()) {
      if (offloaded) qFatal("%s is offloaded but not tinted", qPrintable(where));
      continue;
    }
    ++tinted;
    if ((tint->second == kOffloadedOnBoth) == inTable)
      qFatal("%s is tinted '%s' but the table %s it", qPrintable(where), qPrintable(tint->second), inTable ? "lists" : "does not list");
  }
  return tinted;
}

}  // namespace

class TestOverlayPlacement : public QObject {
  Q_OBJECT

 private slots:
  void onnxConvolutionsOfOneKernelSize() {
    const Module loaded = typed(importOnnxModel(residualOnnx(), "residual.onnx", ""));
    // The target of the report: only 3×3 convolutions, so each 1×1 one stays on the host while the
    // bias_add imported from the same Conv node is offloaded.
    const auto threeByThree = targetFrom(R"({"format": "byoc-studio-target", "version": 1, "name": "myaccel",
      "codegen": "", "op_rules": ["nn.conv2d when shape(arg1)[2:] == [3, 3]", "nn.bias_add, nn.relu, add"]})");
    int placed = 0;
    for (PartitionPipeline pipeline : {PartitionPipeline::Relay, PartitionPipeline::Relax}) {
      checkEveryStep(QStringLiteral("3x3 target"), loaded, {threeByThree}, pipeline, placed);
      for (const std::string& name : builtinTargetNames()) {
        Result<Target> builtin = loadTarget(name);
        QVERIFY(builtin.isOk());
        checkEveryStep(QString::fromStdString(name), loaded, {std::make_shared<const Target>(*builtin)}, pipeline, placed);
      }
    }
    QVERIFY(placed > 100);
  }

  void comparisonTintsFollowItsTable() {
    const Module onnx = typed(importOnnxModel(residualOnnx(), "residual.onnx", ""));
    const Module demo = typed(parseModule(std::string(*findBuiltinResource(kDemoModelName)), "demo.relay"));
    int tinted = 0;
    for (const Module* loaded : {&onnx, &demo}) {
      std::vector<std::pair<std::string, Module>> sides;
      for (const std::string& name : builtinTargetNames()) {
        Result<Target> target = loadTarget(name);
        QVERIFY(target.isOk());
        for (PartitionPipeline pipeline : {PartitionPipeline::Relay, PartitionPipeline::Relax})
          sides.emplace_back(name, partitioned(*loaded, std::make_shared<const Target>(*target), pipeline));
      }
      for (std::size_t i = 0; i < sides.size(); ++i)
        for (std::size_t j = 0; j < sides.size(); ++j)
          if (i != j)
            tinted += checkComparisonTints(QString::fromStdString(sides[i].first + " vs " + sides[j].first), *loaded,
                                           sides[i].second, sides[j].second);
    }
    QVERIFY(tinted > 100);
  }

  void theDemo() {
    const Module loaded = typed(parseModule(std::string(*findBuiltinResource(kDemoModelName)), "demo.relay"));
    int placed = 0;
    for (const std::string& name : builtinTargetNames()) {
      Result<Target> builtin = loadTarget(name);
      QVERIFY(builtin.isOk());
      checkEveryStep(QString::fromStdString(name), loaded, {std::make_shared<const Target>(*builtin)}, PartitionPipeline::Relay,
                     placed);
    }
    QVERIFY(placed > 10);
  }

  void randomFunctionsAndRuleSets() {
    std::mt19937 generator(36);
    const testing::Choose choose = [&generator](int bound) { return static_cast<int>(generator() % static_cast<unsigned>(bound)); };
    int placed = 0;
    for (int round = 0; round < 150; ++round) {
      const Module loaded = typed(parseModule(testing::randomRelayFunction(choose, 2 + choose(40), {false, false}), "random.relay"));
      std::vector<std::shared_ptr<const Target>> targets;
      for (const std::string& file : testing::randomTargetFiles(choose, 1 + choose(3))) targets.push_back(targetFrom(file));
      checkEveryStep(QStringLiteral("random #%1").arg(round), loaded, targets, PartitionPipeline::Relay, placed);
    }
    QVERIFY(placed > 1000);
  }
};

QTEST_MAIN(TestOverlayPlacement)
#include "test_overlay_placement.moc"
