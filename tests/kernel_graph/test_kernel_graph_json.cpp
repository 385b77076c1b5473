#include <QtTest>

#include <cstring>

#include "kernel_graph/kernel_graph_json.h"

using namespace byoc;
using namespace byoc::kernel_graph;

namespace {

const std::string kFile = "region.json";
const std::string kParamsFile = "params.safetensors";

/// The rules of a codegen that knows one kernel, `toy.scale`: data times a per-column scale, with
/// an integer `factor` (1 unless given).
KernelRules toyRules() {
  KernelRules rules;
  rules.checkName = [](const std::string& name) -> Status {
    if (name != "toy.scale") return makeError("unknown kernel \"" + name + "\"");
    return Status::ok();
  };
  rules.normalizeAttrs = [](const std::string&, const Attrs& attrs) -> Result<Attrs> {
    for (const auto& [name, value] : attrs.entries())
      if (name != "factor") return makeError("toy.scale has no attribute '" + name + "'");
    return attrs.contains("factor") ? attrs : attrs.with("factor", 1);
  };
  rules.checkKernel = [](const KernelGraph& graph, const KernelNode& kernel) -> Status {
    if (kernel.inputs.size() != 2) return makeError("toy.scale takes 2 inputs, found " + std::to_string(kernel.inputs.size()));
    if (graph.spec(kernel.inputs[0]) != kernel.outputs.front()) return makeError("toy.scale keeps its data's type");
    return Status::ok();
  };
  return rules;
}

/// An input x: float32 [1, 4], a constant scale: float32 [4], and toy.scale of both, its one head.
KernelGraph toyGraph() {
  const TensorSpec data{DType::Float32, {1, 4}}, scale{DType::Float32, {4}};
  const float values[4] = {0.5f, -1.0f, 2.0f, 3.25f};
  std::byte bytes[sizeof values];
  std::memcpy(bytes, values, sizeof values);
  KernelGraph graph;
  graph.nodes.push_back({KernelNodeKind::Input, "x", {}, {}, {data}, {}, {}, {}, {}});
  graph.nodes.push_back({KernelNodeKind::Constant, "", {}, {}, {scale}, TensorData::fromBytes(DType::Float32, {4}, bytes), {}, {}, {}});
  graph.nodes.push_back({KernelNodeKind::Kernel, "toy.scale", {{"factor", 3}}, {{0, 0}, {1, 0}}, {data}, {}, {}, {}, Origin::single(7)});
  graph.heads = {{2, 0}};
  return graph;
}

/// `graph` written as JSON, and the parameter file its constants went to.
std::pair<std::string, std::string> written(const KernelGraph& graph) {
  ParamCollector params;
  Result<std::string> text = writeKernelGraphJson(graph, params);
  if (!text) qFatal("%s", text.error().str().c_str());
  return {std::move(text).value(), params.safetensors()};
}

Result<KernelGraph> read(const std::string& text, const std::string& paramBytes) {
  Result<SafetensorsIndex> params = parseSafetensors(paramBytes, kParamsFile);
  if (!params) qFatal("%s", params.error().str().c_str());
  return readKernelGraphJson(text, kFile, *params, kParamsFile, toyRules());
}

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const std::size_t at = text.find(from);
  if (at == std::string::npos) qFatal("no '%s' in the graph", from.c_str());
  return text.replace(at, from.size(), to);
}

}  // namespace

/// The neutral kernel graph's JSON form, read and written with the rules of a codegen of the test's
/// own: the form knows no kernel, the codegen's rules decide them.
class TestKernelGraphJson : public QObject {
  Q_OBJECT

 private slots:
  void roundTripsAGraphOfAnyCodegen() {
    const KernelGraph graph = toyGraph();
    const auto [text, params] = written(graph);
    QVERIFY2(text.starts_with("{\n  \"format\": \"byoc-kernel-graph\",\n  \"version\": 2,\n"), text.c_str());
    Result<KernelGraph> back = read(text, params);
    QVERIFY2(back, back ? "" : back.error().str().c_str());
    QCOMPARE(back->nodes.size(), graph.nodes.size());
    for (std::size_t i = 0; i < graph.nodes.size(); ++i) {
      QCOMPARE(back->nodes[i].kind, graph.nodes[i].kind);
      QCOMPARE(back->nodes[i].inputs, graph.nodes[i].inputs);
      QCOMPARE(back->nodes[i].outputs, graph.nodes[i].outputs);
      QCOMPARE(back->nodes[i].jsonPath, "/nodes/" + std::to_string(i));
    }
    QCOMPARE(back->nodes[0].name, std::string("x"));
    QVERIFY(back->nodes[1].data == graph.nodes[1].data);
    QCOMPARE(back->nodes[2].name, std::string("toy.scale"));
    QVERIFY(back->nodes[2].attrs == graph.nodes[2].attrs);
    QCOMPARE(std::vector<NodeId>(back->nodes[2].origin.ids().begin(), back->nodes[2].origin.ids().end()), std::vector<NodeId>{7});
    QCOMPARE(back->heads, graph.heads);
    QCOMPARE(back->tupleResult, false);
    QCOMPARE(back->file, kFile);
  }

  void readingAppliesTheCodegensAttributeRules() {
    KernelGraph graph = toyGraph();
    graph.nodes[2].attrs = {};
    const auto [text, params] = written(graph);
    Result<KernelGraph> back = read(text, params);
    QVERIFY2(back, back ? "" : back.error().str().c_str());
    QVERIFY(back->nodes[2].attrs == Attrs({{"factor", 1}}));
  }

  void readsVersion1() {
    const auto [text, params] = written(toyGraph());
    const std::string version1 =
        replaced(replaced(text, R"("format": "byoc-kernel-graph")", R"("format": "byoc-dnnl-kernel-graph")"), R"("version": 2)",
                 R"("version": 1)");
    QVERIFY(isKernelGraphJson(version1));
    Result<KernelGraph> back = read(version1, params);
    QVERIFY2(back, back ? "" : back.error().str().c_str());
    QCOMPARE(back->summary(), std::string("1 input(s), 1 constant(s), 1 kernel(s): toy.scale"));
  }

  void tellsAKernelGraphFromOtherJson() {
    QVERIFY(isKernelGraphJson(written(toyGraph()).first));
    QVERIFY(!isKernelGraphJson(R"({"format": "byoc-module", "version": 2})"));
    QVERIFY(!isKernelGraphJson("not json"));
  }

  void rejectsWhatTheRulesOrTheFormRefuse_data() {
    QTest::addColumn<QString>("from");
    QTest::addColumn<QString>("to");
    QTest::addColumn<QString>("error");
    QTest::newRow("kernel the codegen does not know") << R"("name":"toy.scale")" << R"("name":"nn.conv2d")"
                                                      << R"(/nodes/2/name: unknown kernel "nn.conv2d")";
    QTest::newRow("attribute the codegen does not know") << R"("factor":3)" << R"("factor":3,"bias":1)"
                                                         << "/nodes/2/attrs: toy.scale has no attribute 'bias'";
    QTest::newRow("inputs the codegen refuses") << R"("inputs":[[0,0],[1,0]])" << R"("inputs":[[0,0]])"
                                                << "/nodes/2: toy.scale takes 2 inputs, found 1";
    QTest::newRow("reference to a later node") << R"("inputs":[[0,0],[1,0]])" << R"("inputs":[[0,0],[2,0]])"
                                               << "/nodes/2/inputs/1: refers to node 2, which comes later";
    QTest::newRow("newer version") << R"("version": 2)" << R"("version": 3)"
                                   << "/version: kernel graph version 3 is newer than this program reads (2)";
  }
  void rejectsWhatTheRulesOrTheFormRefuse() {
    QFETCH(QString, from);
    QFETCH(QString, to);
    QFETCH(QString, error);
    const auto [text, params] = written(toyGraph());
    Result<KernelGraph> back = read(replaced(text, from.toStdString(), to.toStdString()), params);
    QVERIFY(!back);
    QCOMPARE(QString::fromStdString(back.error().str()), QString::fromStdString(kFile + ": ") + error);
  }
};

QTEST_GUILESS_MAIN(TestKernelGraphJson)
#include "test_kernel_graph_json.moc"
