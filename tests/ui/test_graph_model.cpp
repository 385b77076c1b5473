#include <QtTest>
#include <map>

#include "graph/graph_model.h"
#include "ir/op.h"
#include "pass/infer_type.h"
#include "test_files.h"
#include "text/parser.h"

using namespace byoc;
using namespace byoc::ui;

namespace {

Module typedModule(const std::string& text) {
  Result<Module> parsed = parseModule(text, "in.relay");
  if (!parsed) qFatal("%s", parsed.error().str().c_str());
  Result<Module> typed = inferTypes(*parsed);
  if (!typed) qFatal("%s", typed.error().str().c_str());
  return *typed;
}

GraphModel mainGraph(const std::string& text) {
  return GraphModel::build(typedModule(text).find("main"), QStringLiteral("main"));
}

/// Every group counts the nodes inside it, those of the groups nested in it too (what its
/// collapsed box shows); returns whether some group holds nested nodes.
bool groupsCountNestedNodes(const GraphModel& graph) {
  bool nested = false;
  for (const GraphGroup& group : graph.groups()) {
    int inside = 0;
    for (const GraphNode& node : graph.nodes())
      for (int around = node.group; around >= 0; around = graph.groups()[around].parent) inside += around == group.id;
    if (group.allNodes != inside) qFatal("group %d counts %d nodes, holds %d", group.id, group.allNodes, inside);
    nested = nested || group.allNodes > static_cast<int>(group.nodes.size());
  }
  return nested;
}

}  // namespace

/// The graph model: nodes, stubs, groups and edges built from functions.
class TestGraphModel : public QObject {
  Q_OBJECT

 private slots:
  void goldenGraphs_data() {
    QTest::addColumn<QString>("input");
    QTest::addColumn<QString>("expected");
    QTest::newRow("demo: let-bound loop, if, per-consumer stubs") << "text/demo.relay" << "ui/demo.graph.expected";
    QTest::newRow("composite literal, tuple, projections") << "ui/composite.relay" << "ui/composite.graph.expected";
  }
  void goldenGraphs() {
    QFETCH(QString, input);
    QFETCH(QString, expected);
    QCOMPARE(mainGraph(testing::readTestData(input)).dump(),
             QString::fromStdString(testing::readTestData(expected)));
  }

  /// Edges name a dtype other than float32, so quantized values show what they hold.
  void edgesNameIntegerDtypes() {
    GraphModel graph = mainGraph(
        "def @main(%x: Tensor[(1, 8), float32]) {\n"
        "  %0 = qnn.quantize(%x, 0.5f, 3, out_dtype=\"uint8\");\n"
        "  %1 = qnn.dequantize(%0, 0.5f, 3);\n"
        "  nn.relu(%1)\n"
        "}\n");
    QStringList labels;
    for (const GraphEdge& edge : graph.edges()) labels << edge.label;
    QVERIFY2(labels.contains(QStringLiteral("1\u00d78 uint8")), qPrintable(labels.join(QStringLiteral(" | "))));
    QVERIFY2(labels.contains(QStringLiteral("1\u00d78")), qPrintable(labels.join(QStringLiteral(" | "))));
    QCOMPARE(shapeLabel(tensorType({2}, DType::Int32)), QStringLiteral("2 int32"));
    QCOMPARE(shapeLabel(tensorType({}, DType::Int8)), QStringLiteral("int8"));
  }

  void everyConsumerOfAParameterGetsItsOwnStub() {
    GraphModel graph = mainGraph(testing::readTestData("text/demo.relay"));
    int weightStubs = 0;
    for (const GraphNode& node : graph.nodes()) {
      if (node.kind == GraphNodeKind::Stub && node.title == u"%w1") {
        ++weightStubs;
        QCOMPARE(graph.outEdges(node.id).size(), std::size_t{1});
      }
    }
    QCOMPARE(weightStubs, 2);  // the conv2d of each branch; the loop's call of itself passes %w1 on unchanged
  }

  /// What only one branch of an `if` uses is boxed as that branch, nested where the `if` is; what
  /// the condition, both branches or anything after the `if` uses stays outside.
  void branchesAreGroupsOfWhatOnlyTheyUse() {
    GraphModel graph = mainGraph(
        "#[version = \"0.0.5\"]\n"
        "def @main(%x: Tensor[(4), float32], %c: bool, %d: bool) {\n"
        "  %0 = nn.relu(%x);\n"
        "  %1 = tanh(%0);\n"
        "  %2 = sigmoid(%0);\n"
        "  %3 = exp(%0);\n"
        "  %4 = if (%c) {\n"
        "    add(%1, %3)\n"
        "  } else {\n"
        "    if (%d) {\n"
        "      multiply(%2, %2)\n"
        "    } else {\n"
        "      negative(%2)\n"
        "    }\n"
        "  };\n"
        "  subtract(%4, %3)\n"
        "}\n");
    auto node = [&graph](const QString& title) {
      for (const GraphNode& node : graph.nodes()) {
        if (node.title == title) return node;
      }
      qFatal("no node %s", qPrintable(title));
    };
    // The chain of group labels from the node's innermost group outwards.
    auto place = [&graph](const GraphNode& node) {
      QStringList labels;
      for (int group = node.group; group >= 0; group = graph.groups()[group].parent) labels << graph.groups()[group].label;
      return labels.join(QStringLiteral(" < "));
    };
    QCOMPARE(place(node(QStringLiteral("nn.relu"))), QString());      // used by both branches and after the if
    QCOMPARE(place(node(QStringLiteral("exp"))), QString());          // used in `then` and after the if
    QCOMPARE(place(node(QStringLiteral("subtract"))), QString());
    QCOMPARE(place(node(QStringLiteral("tanh"))), QStringLiteral("then"));
    QCOMPARE(place(node(QStringLiteral("add"))), QStringLiteral("then"));
    QCOMPARE(place(node(QStringLiteral("sigmoid"))), QStringLiteral("else"));  // both sides of the inner if
    QCOMPARE(place(node(QStringLiteral("multiply"))), QStringLiteral("then < else"));
    QCOMPARE(place(node(QStringLiteral("negative"))), QStringLiteral("else < else"));
    int ifs = 0;
    for (const GraphNode& each : graph.nodes()) {
      if (each.kind != GraphNodeKind::If) continue;
      ++ifs;
      // Each box names the `if` whose branch it is, and sits where that `if` is.
      for (const GraphGroup& group : graph.groups()) {
        if (group.branchOf == each.id) QCOMPARE(group.parent, each.group);
      }
    }
    QCOMPARE(ifs, 2);
    QCOMPARE(graph.groups().size(), std::size_t{4});
    // Stubs sit with their consumer: %d, the inner if's condition, is in the outer `else`.
    QCOMPARE(place(node(QStringLiteral("%d"))), QStringLiteral("else"));
  }

  /// A let-bound function calling itself is a loop: its box says so, its call of itself is one
  /// loop-back node fed only by what changes, and a loop called inside a branch is boxed there.
  void loopsAreLabelledAndTheirCallOfItselfReadsAsTheNextIteration() {
    GraphModel demo = mainGraph(testing::readTestData("text/demo.relay"));
    QCOMPARE(demo.groups()[0].label, QStringLiteral("loop %while_loop"));
    QVERIFY(demo.groups()[0].loop);
    int loopBacks = 0;
    for (const GraphNode& node : demo.nodes()) {
      if (node.kind != GraphNodeKind::LoopBack) continue;
      ++loopBacks;
      QCOMPARE(node.title, QStringLiteral("\u21BB %while_loop"));
      QCOMPARE(node.detail, QStringLiteral("next iteration\nsame %w1, %b1"));
      QCOMPARE(demo.groups()[node.group].label, QStringLiteral("then"));
      std::vector<int> ports;
      for (int edge : demo.inEdges(node.id)) ports.push_back(demo.edges()[edge].port);
      QCOMPARE(ports, (std::vector<int>{0, 1}));  // %iter1 + 1 and the relu; %w1 and %b1 go round unchanged
    }
    QCOMPARE(loopBacks, 1);
    // The call starting the loop stays an ordinary call, outside the loop's box.
    int starts = 0;
    for (const GraphNode& node : demo.nodes()) starts += node.kind == GraphNodeKind::Call && node.title == u"%while_loop" && node.group == -1;
    QCOMPARE(starts, 1);

    GraphModel nested = mainGraph(
        "#[version = \"0.0.5\"]\n"
        "def @main(%x: Tensor[(4), float32], %c: bool) {\n"
        "  if (%c) {\n"
        "    let %loop: fn (int32, Tensor[(4), float32]) -> Tensor[(4), float32] = fn (%i: int32, %v: Tensor[(4), float32]) -> Tensor[(4), float32] {\n"
        "      if (less(%i, 3)) {\n"
        "        %loop(add(%i, 1), nn.relu(%v))\n"
        "      } else {\n"
        "        %v\n"
        "      }\n"
        "    };\n"
        "    %loop(0, %x)\n"
        "  } else {\n"
        "    negative(%x)\n"
        "  }\n"
        "}\n");
    int loop = -1;
    for (const GraphGroup& group : nested.groups()) {
      if (group.loop) loop = group.id;
    }
    QVERIFY(loop >= 0);
    QCOMPARE(nested.groups()[loop].label, QStringLiteral("loop %loop"));
    QVERIFY(nested.groups()[loop].parent >= 0);
    QCOMPARE(nested.groups()[nested.groups()[loop].parent].label, QStringLiteral("then"));
    for (const GraphNode& node : nested.nodes()) {
      if (node.kind == GraphNodeKind::LoopBack) {
        QCOMPARE(node.detail, QStringLiteral("next iteration"));  // both arguments change
        QCOMPARE(nested.groups()[node.group].label, QStringLiteral("then"));
        QCOMPARE(nested.groups()[node.group].parent, loop);
      }
      if (node.title == u"less") QCOMPARE(node.group, loop);
    }
  }

  void widelySharedValuesReachLaterConsumersThroughStubs() {
    std::string text = "#[version = \"0.0.5\"]\ndef @main(%x: Tensor[(4), float32]) {\n  %0 = nn.relu(%x);\n";
    const int consumers = kSharedFanOut + 2;
    std::string tuple;
    for (int i = 0; i < consumers; ++i) {
      text += "  %" + std::to_string(i + 1) + " = add(%0, %x);\n";
      tuple += (i ? ", %" : "%") + std::to_string(i + 1);
    }
    text += "  (" + tuple + ")\n}\n";
    GraphModel graph = mainGraph(text);
    int relu = -1;
    for (const GraphNode& node : graph.nodes()) {
      if (node.title == u"nn.relu") relu = node.id;
    }
    QVERIFY(relu >= 0);
    QCOMPARE(graph.outEdges(relu).size(), std::size_t{1});
    int reluStubs = 0;
    for (const GraphNode& node : graph.nodes()) {
      if (node.stubOf == relu) {
        ++reluStubs;
        QCOMPARE(node.title, QStringLiteral("\u21AA nn.relu"));
        QCOMPARE(node.detail, QStringLiteral("4"));
      }
    }
    QCOMPARE(reluStubs, consumers - 1);
  }

  void originsMapBackToNodes() {
    Module module = typedModule(testing::readTestData("text/demo.relay"));
    GraphModel graph = GraphModel::build(module.find("main"));
    for (const GraphNode& node : graph.nodes()) {
      if (node.kind == GraphNodeKind::Stub) continue;
      for (NodeId id : node.expr->origin().ids()) QVERIFY(graph.nodesWithOrigin(id) == std::vector<int>{node.id});
      QCOMPARE(graph.nodeOf(node.expr.get()), node.id);
    }
    QCOMPARE(graph.nodesWithOrigin(1000000).size(), std::size_t{0});
  }

  void sourceNameScopesBecomeNestedGroups() {
    Module module = typedModule(testing::readTestData("ui/steps/0_loaded.relay"));
    GraphModel plain = GraphModel::build(module.find("main"));
    Provenance provenance = *module.provenance();
    const char* const names[] = {"/layer1/block0/conv/Conv", "/layer1/block0/Add", "/layer1/block1/Relu", "/head/Tanh"};
    const char* const titles[] = {"nn.conv2d", "nn.bias_add", "nn.relu", "tanh"};
    for (int i = 0; i < 4; ++i) {
      for (const GraphNode& node : plain.nodes()) {
        if (node.title == QLatin1String(titles[i])) provenance.names[node.expr->origin().ids().front()] = names[i];
      }
    }
    GraphModel graph = GraphModel::build(module.find("main"), QStringLiteral("main"), &provenance);
    QCOMPARE(graph.dump(), QString::fromStdString(testing::readTestData("ui/scopes.graph.expected")));
    // A scope of scopes (layer1) holds no node of its own; collapsed, it counts those of its blocks.
    QVERIFY(groupsCountNestedNodes(graph));
  }

  // A node without a source name (a pass or a rewrite made it) between named ones goes into the
  // innermost scope holding them, so that no scope's box is split by it; one with named nodes on
  // one side only stays where it is.
  void anUnnamedNodeJoinsTheScopeAroundIt() {
    Module module = typedModule(testing::readTestData("ui/steps/0_loaded.relay"));
    GraphModel plain = GraphModel::build(module.find("main"));
    Provenance provenance = *module.provenance();
    provenance.names.clear();
    const std::map<QString, std::string> names{{QStringLiteral("nn.conv2d"), "/layer1/block0/conv/Conv"},
                                               {QStringLiteral("nn.relu"), "/layer1/block1/Relu"},
                                               {QStringLiteral("tanh"), "/head/Tanh"}};
    for (const GraphNode& node : plain.nodes()) {
      if (auto name = names.find(node.title); name != names.end()) provenance.names[node.expr->origin().ids().front()] = name->second;
    }
    GraphModel graph = GraphModel::build(module.find("main"), QStringLiteral("main"), &provenance);
    const auto groupOf = [&graph](const char* title) {
      for (const GraphNode& node : graph.nodes())
        if (node.title == QLatin1String(title)) return node.group < 0 ? QStringLiteral("top") : graph.groups()[node.group].label;
      return QString();
    };
    QCOMPARE(groupOf("nn.conv2d"), QStringLiteral("conv"));
    QCOMPARE(groupOf("nn.bias_add"), QStringLiteral("layer1"));  // between conv (in block0) and relu (in block1)
    QCOMPARE(groupOf("nn.relu"), QStringLiteral("block1"));
    QCOMPARE(groupOf("add"), QStringLiteral("top"));  // between layer1 and head
    QCOMPARE(groupOf("reshape"), QStringLiteral("top"));  // after tanh only
  }

  void weightsAreLinesOfTheirOpUnlessAskedForAsNodes() {
    const Module module = typedModule(
        "#[version = \"0.0.5\"]\n"
        "def @main(%x: Tensor[(1, 2, 4, 4), float32]) {\n"
        "  %0 = nn.conv2d(%x, meta[relay.Constant][0], channels=3, kernel_size=[1, 1]);\n"
        "  add(%0, 0.5f)\n"
        "}\n"
        "#[metadata]\n"
        "{\"relay.Constant\": [{\"dtype\": \"float32\", \"shape\": [3, 2, 1, 1], \"data\": \"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\"}]}\n");
    const GraphModel inBoxes = GraphModel::build(module.find("main"));
    QCOMPARE(inBoxes.dump(), QStringLiteral("n0 stub %x [1×2×4×4]\n"
                                            "n1 op nn.conv2d [channels=3, kernel_size=[1, 1]\nweight ⟨3×2×1×1⟩]\n"
                                            "n2 op add [rhs 0.5]\n"
                                            "n0 -> n1:0 1×2×4×4\n"
                                            "n1 -> n2:0 1×3×4×4\n"));
    const GraphModel asNodes = GraphModel::build(module.find("main"), {}, nullptr, GraphOptions{.weightsAsNodes = true});
    QCOMPARE(asNodes.dump(), QStringLiteral("n0 stub %x [1×2×4×4]\n"
                                            "n1 stub const [3×2×1×1]\n"
                                            "n2 op nn.conv2d [channels=3, kernel_size=[1, 1]]\n"
                                            "n3 stub 0.5\n"
                                            "n4 op add\n"
                                            "n0 -> n2:0 1×2×4×4\n"
                                            "n1 -> n2:1 3×2×1×1\n"
                                            "n2 -> n4:0 1×3×4×4\n"
                                            "n3 -> n4:1 float32\n"));
  }

  void aLiteralCalledWithItsOwnParameterDoesNotLoop() {
    // Malformed (the argument is unbound where the call is), as a crafted JSON module can be.
    Var a = VarNode::make("a", tensorType({4}, DType::Float32));
    Expr literal = FunctionNode::make({a}, *makeOpCall("nn.relu", {a}));
    Expr call = CallNode::make(literal, {a});
    GraphModel graph = GraphModel::build(FunctionNode::make({}, *makeOpCall("nn.relu", {call})));
    QCOMPARE(graph.nodes().size(), std::size_t{3});  // the stub of %a and both relus
  }

  /// Ten thousand ifs, each in the else branch of the one before: nested boxes, built without recursion.
  void deeplyNestedIfsBuildWithoutRecursion() {
    const int depth = 10000;
    Var x = VarNode::make("x", tensorType({4}, DType::Float32));
    Var c = VarNode::make("c", tensorType({}, DType::Bool));
    Expr body = *makeOpCall("negative", {x});
    for (int i = 0; i < depth; ++i) body = IfNode::make(c, *makeOpCall("nn.relu", {x}), body);
    GraphModel graph = GraphModel::build(FunctionNode::make({x, c}, body));
    QCOMPARE(graph.groups().size(), std::size_t{2 * depth});  // a then and an else box per if
    int innermost = -1;
    for (const GraphNode& node : graph.nodes()) {
      if (node.title == u"negative") innermost = node.group;
    }
    int nesting = 0;
    for (int group = innermost; group >= 0; group = graph.groups()[group].parent) ++nesting;
    QCOMPARE(nesting, depth);  // the else box of every if, one in the other
  }

  void deepChainsBuildWithoutRecursion() {
    const int depth = 100000;
    Var x = VarNode::make("x", tensorType({4}, DType::Float32));
    Expr body = x;
    for (int i = 0; i < depth; ++i) body = *makeOpCall("nn.relu", {body});
    GraphModel graph = GraphModel::build(FunctionNode::make({x}, body));
    QCOMPARE(graph.nodes().size(), std::size_t{depth + 1});
    QCOMPARE(graph.edges().size(), std::size_t{depth});
  }
};

QTEST_GUILESS_MAIN(TestGraphModel)
#include "test_graph_model.moc"
