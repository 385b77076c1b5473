#include <QtTest>

#include "graph/graph_items.h"
#include "graph/graph_model.h"
#include "pass/analysis/graph_blocks.h"
#include "pass/infer_type.h"
#include "synthetic_chain.h"
#include "text/parser.h"

using namespace byoc;
using namespace byoc::ui;

namespace {

/// Edges of a chain of `count` items.
std::vector<std::pair<int, int>> chain(int count) {
  std::vector<std::pair<int, int>> edges;
  for (int i = 0; i + 1 < count; ++i) edges.emplace_back(i, i + 1);
  return edges;
}

/// The blocks of one level, in order.
std::vector<GraphBlock> levelOf(const std::vector<GraphBlock>& blocks, int level) {
  std::vector<GraphBlock> result;
  for (const GraphBlock& block : blocks) {
    if (block.level == level) result.push_back(block);
  }
  return result;
}

/// Checks that the blocks of every level cover `0 … count-1` in order, each with at most
/// `maxMembers` members, that each block lies in its parent, and that the outermost level is small.
void verifyNesting(const std::vector<GraphBlock>& blocks, int count, int maxMembers) {
  QVERIFY(!blocks.empty());
  const int levels = blocks.back().level + 1;
  int members = count;
  for (int level = 0; level < levels; ++level) {
    const std::vector<GraphBlock> runs = levelOf(blocks, level);
    int next = 0;
    for (const GraphBlock& run : runs) {
      QCOMPARE(run.first, next);
      QVERIFY(run.last >= run.first);
      next = run.last + 1;
      if (level + 1 < levels) {
        QVERIFY(run.parent >= 0);
        QVERIFY(blocks[run.parent].first <= run.first && run.last <= blocks[run.parent].last);
        QCOMPARE(blocks[run.parent].level, level + 1);
      } else {
        QCOMPARE(run.parent, -1);
      }
    }
    QCOMPARE(next, count);
    QVERIFY(members > maxMembers);  // only a level too large is cut
    members = static_cast<int>(runs.size());
  }
  QVERIFY(members <= maxMembers);
}

Function typedMain(const std::string& text) {
  Result<Module> parsed = parseModule(text, "flat.relay");
  if (!parsed) qFatal("%s", parsed.error().str().c_str());
  Result<Module> typed = inferTypes(*parsed);
  if (!typed) qFatal("%s", typed.error().str().c_str());
  return typed->find("main");
}

}  // namespace

/// Synthesized blocks: the cuts findBlocks chooses, and the groups a large flat graph gets from them.
class TestGraphBlocks : public QObject {
  Q_OBJECT

 private slots:
  void aSmallLevelIsNotCut() {
    QVERIFY(findBlocks(64, chain(64)).empty());
    QVERIFY(findBlocks(0, {}).empty());
  }

  void aChainIsCutIntoLongRunsAndNoStrayTail() {
    const std::vector<GraphBlock> blocks = findBlocks(200, chain(200), {64, 24});
    verifyNesting(blocks, 200, 64);
    QCOMPARE(blocks.size(), std::size_t{4});
    QCOMPARE(blocks[0].last, 63);
    QCOMPARE(blocks[1].last, 127);
    // The rest keeps at least 24 members: 48 and 24, not 64 and 8.
    QCOMPARE(blocks[2].last, 175);
    QCOMPARE(blocks[3].last, 199);
  }

  void cutsFallWhereTheFewestEdgesCross() {
    // Residual layers of 7 items: each layer's input also feeds its sixth item (the add), so two
    // edges cross every cut but the one after the add.
    const int layers = 40, count = layers * 7;
    std::vector<std::pair<int, int>> edges = chain(count);
    for (int layer = 1; layer < layers; ++layer) edges.emplace_back(layer * 7 - 1, layer * 7 + 5);
    const std::vector<GraphBlock> blocks = findBlocks(count, edges, {64, 24});
    verifyNesting(blocks, count, 64);
    const std::vector<GraphBlock> runs = levelOf(blocks, 0);
    for (std::size_t i = 0; i + 1 < runs.size(); ++i) QCOMPARE(runs[i].last % 7, 5);
    QCOMPARE(runs.front().last, 61);  // the latest of the narrow cuts in the first window
  }

  void anEdgeGoingBackCountsAsCrossing() {
    // The same layers with their skip edges written backwards: the cuts are the same.
    const int layers = 40, count = layers * 7;
    std::vector<std::pair<int, int>> edges = chain(count);
    for (int layer = 1; layer < layers; ++layer) edges.emplace_back(layer * 7 + 5, layer * 7 - 1);
    const std::vector<GraphBlock> runs = levelOf(findBlocks(count, edges, {64, 24}), 0);
    for (std::size_t i = 0; i + 1 < runs.size(); ++i) QCOMPARE(runs[i].last % 7, 5);
  }

  void amongEqualCutsAGoodStartWins() {
    // A chain of layers of 3 items: every cut is as narrow, so the blocks start at layers' starts.
    const int count = 300;
    std::vector<bool> goodStarts(count);
    for (int i = 0; i < count; i += 3) goodStarts[i] = true;
    const std::vector<GraphBlock> blocks = findBlocks(count, chain(count), {64, 24}, goodStarts);
    verifyNesting(blocks, count, 64);
    for (const GraphBlock& block : blocks) QCOMPARE(block.first % 3, 0);
    QCOMPARE(blocks.front().last, 62);
  }

  void largeGraphsNestUntilTheOutermostLevelIsSmall() {
    const int count = 100000;
    const std::vector<GraphBlock> blocks = findBlocks(count, chain(count), {64, 24});
    verifyNesting(blocks, count, 64);
    QCOMPARE(blocks.back().level, 1);
    for (const GraphBlock& block : levelOf(blocks, 0)) QVERIFY(block.last - block.first + 1 >= 24);
  }

  void aLargeFlatGraphGetsLabelledBlocks() {
    const GraphModel graph = GraphModel::build(typedMain(bench::flatNetworkText(1000, false)), QStringLiteral("main"));
    QVERIFY(graph.nodes().size() > static_cast<std::size_t>(kCollapseAbove));
    QVERIFY(!graph.groups().empty());
    std::vector<int> members(graph.groups().size(), 0);
    for (const GraphGroup& group : graph.groups()) {
      QVERIFY(group.synthesized);
      if (group.parent >= 0) ++members[group.parent];
    }
    int topLevel = 0;
    for (const GraphNode& node : graph.nodes()) {
      QVERIFY2(node.group >= 0, qPrintable(node.title));  // every node is in a block
      if (node.kind == GraphNodeKind::Stub) {
        // A stub sits in its consumer's block.
        QCOMPARE(node.group, graph.nodes()[graph.edges()[graph.outEdges(node.id).front()].to].group);
      } else {
        ++members[node.group];
      }
    }
    for (const GraphGroup& group : graph.groups()) {
      QVERIFY(members[group.id] <= kBlockMembers);
      if (group.parent < 0) ++topLevel;
    }
    QVERIFY(topLevel > 1 && topLevel <= kBlockMembers);
    // Blocks hold whole layers, and say so: the first and last op, then how many of each.
    const GraphGroup& first = graph.groups()[graph.nodes()[1].group];
    QCOMPARE(graph.nodes()[1].title, QStringLiteral("nn.conv2d"));
    QCOMPARE(first.label, QStringLiteral("nn.conv2d \u2192 nn.relu"));
    QCOMPARE(first.detail, QStringLiteral("63 nodes\n21 nn.bias_add \u00B7 21 nn.conv2d \u00B7 21 nn.relu"));
    QCOMPARE(collapsedGroupNode(first).detail, first.detail);
  }

  void nameScopesStayTheFirstLevel() {
    // Two scopes of 1,000 layers each: the scopes are the top level, their layers cut into blocks.
    const Function main = typedMain(bench::flatNetworkText(1000, false));
    const GraphModel plain = GraphModel::build(main);
    Provenance provenance;
    int op = 0;
    for (const GraphNode& node : plain.nodes()) {
      if (node.kind == GraphNodeKind::Stub) continue;
      provenance.names[node.expr->origin().ids().front()] = (op < 1500 ? "/encoder/" : "/decoder/") + std::to_string(op);
      ++op;
    }
    const GraphModel graph = GraphModel::build(main, QStringLiteral("main"), &provenance);
    int scopes = 0;
    for (const GraphGroup& group : graph.groups()) {
      if (group.parent < 0) {
        QVERIFY2(!group.synthesized, qPrintable(group.label));
        ++scopes;
      } else {
        QVERIFY(group.synthesized);
      }
    }
    QCOMPARE(scopes, 2);
    QVERIFY(graph.groups().size() > 2);
  }

  void smallGraphsGetNoBlocks() {
    const GraphModel graph = GraphModel::build(typedMain(bench::flatNetworkText(200, true)), QStringLiteral("main"));
    QVERIFY(graph.nodes().size() < static_cast<std::size_t>(kCollapseAbove));
    QVERIFY(graph.groups().empty());
  }
};

QTEST_MAIN(TestGraphBlocks)
#include "test_graph_blocks.moc"
