#include <QtTest>

#include "pattern/pattern_json.h"
#include "pattern/pattern_parser.h"
#include "pattern/pattern_printer.h"
#include "pattern_test_util.h"

using namespace byoc;

namespace {

std::string jsonError(const std::string& json) {
  Result<Pattern> pattern = parsePatternJson(json, "p.json");
  return pattern ? std::string("<parsed>") : pattern.error().str();
}

std::string document(const std::string& nodes, int root) {
  return R"({"format": "byoc-studio-pattern", "version": 1, "root": )" + std::to_string(root) + R"(, "nodes": )" +
         nodes + "}";
}

/// The nodes of `*` under `count` nested calls of nn.relu, each node referring to the one before.
std::string reluChain(int count) {
  std::string nodes = R"([{"kind": "wildcard"}, {"kind": "op", "name": "nn.relu"})";
  for (int i = 0; i < count; ++i)
    nodes += R"(, {"kind": "call", "callee": 1, "args": [)" + std::to_string(i == 0 ? 0 : i + 1) + "]}";
  return nodes + "]";
}

}  // namespace

/// The JSON form of patterns: round trips through JSON and text, and errors with JSON paths.
class TestPatternJson : public QObject {
  Q_OBJECT

 private slots:
  void roundTrips_data() {
    QTest::addColumn<QString>("text");
    for (const std::string& text : testing::canonicalPatterns())
      QTest::newRow(text.c_str()) << QString::fromStdString(text);
  }

  void roundTrips() {
    QFETCH(QString, text);
    Result<Pattern> pattern = parsePattern(text.toStdString());
    QVERIFY(pattern.isOk());
    Result<std::string> json = serializePattern(*pattern);
    clearRedirects(*pattern);
    QVERIFY(json.isOk());
    Result<Pattern> back = parsePatternJson(*json);
    QVERIFY2(back.isOk(), back.isOk() ? "" : back.error().str().c_str());
    const std::string printed = printPattern(*back);
    Result<std::string> again = serializePattern(*back);
    clearRedirects(*back);
    QCOMPARE(printed, text.toStdString());
    QVERIFY(again.isOk());
    QCOMPARE(*again, *json);
  }

  void sharedNodesAreListedOnce() {
    Pattern x = wildcard();
    Result<std::string> json = serializePattern(callOp("add", {x, x}));
    QVERIFY(json.isOk());
    QCOMPARE(*json, std::string(R"({
  "format": "byoc-studio-pattern",
  "version": 1,
  "root": 2,
  "nodes": [
    {
      "kind": "op",
      "name": "add"
    },
    {
      "kind": "wildcard"
    },
    {
      "kind": "call",
      "callee": 0,
      "args": [
        1,
        1
      ]
    }
  ]
})"));
  }

  void expressionsOtherThanOpsGlobalsAndScalarsAreRefused() {
    Expr tuple = TupleNode::make({});
    Result<std::string> json = serializePattern(isExpr(tuple));
    QVERIFY(!json.isOk());
    QCOMPARE(
        json.error().message,
        std::string("the JSON form holds expression patterns of ops, globals and literal constants only, found Tuple"));
  }

  void errors_data() {
    QTest::addColumn<QString>("json");
    QTest::addColumn<QString>("error");
    auto row = [](const char* name, const std::string& json, const char* error) {
      QTest::newRow(name) << QString::fromStdString(json) << QString(error);
    };
    row("not json", "{", "p.json:1:2: not valid JSON");
    row("format", R"({"format": "x"})", "p.json: /format: expected \"byoc-studio-pattern\"");
    row("version", R"({"format": "byoc-studio-pattern", "version": 9})",
        "p.json: /version: version 9 is newer than this program reads (1)");
    row("no nodes", R"({"format": "byoc-studio-pattern", "version": 1})", "p.json: /nodes: expected an array of nodes");
    row("no kind", document(R"([{}])", 0), "p.json: /nodes/0: expected an object with a \"kind\"");
    row("unknown kind", document(R"([{"kind": "blob"}])", 0), "p.json: /nodes/0/kind: unknown pattern kind \"blob\"");
    row("unknown op", document(R"([{"kind": "op", "name": "nn.nope"}])", 0),
        "p.json: /nodes/0/name: unknown op 'nn.nope'");
    row("forward child", document(R"([{"kind": "call", "callee": 1}, {"kind": "constant"}])", 0),
        "p.json: /nodes/0/callee: expected the index of an earlier node or of a wildcard (0 to -1)");
    row("bad arg", document(R"([{"kind": "wildcard"}, {"kind": "call", "callee": 0, "args": [0, 7]}])", 1),
        "p.json: /nodes/1/args/1: expected the index of an earlier node or of a wildcard (0 to 0)");
    row("bad root", document(R"([{"kind": "wildcard"}])", 3), "p.json: /root: expected the index of a node (0 to 0)");
    row("bad literal", document(R"([{"kind": "literal", "value": "x"}])", 0),
        "p.json: /nodes/0/value: expected a literal such as \"1f\" or \"const([1f, 2f])\", found \"x\"");
    row("bad dtype", document(R"([{"kind": "wildcard"}, {"kind": "dtype", "pattern": 0, "dtype": "f32"}])", 1),
        "p.json: /nodes/1/dtype: unknown dtype \"f32\"");
    row("bad type",
        document(R"([{"kind": "wildcard"}, {"kind": "type", "pattern": 0, "type": "Tensor[(1), foo]"}])", 1),
        "p.json: /nodes/1/type: found 'foo', expected a dtype such as float32");
    row("bad attr", document(R"([{"kind": "wildcard"}, {"kind": "attr", "pattern": 0, "attrs": {"a": {"b": 1}}}])", 1),
        "p.json: /nodes/1/attrs/a: expected an attribute value (number, string, bool, null or array)");
    row("bad shape", document(R"([{"kind": "wildcard"}, {"kind": "shape", "pattern": 0, "shape": [1, -3]}])", 1),
        "p.json: /nodes/1/shape/1: expected a dimension (an integer from 0, or -1 for any)");
    row("bad redirect", document(R"([{"kind": "wildcard", "redirect": 5}])", 0),
        "p.json: /nodes/0/redirect: expected the index of a node (0 to 0)");
    row("self redirect", document(R"([{"kind": "wildcard", "redirect": 0}])", 0),
        "p.json: /nodes/0/redirect: a wildcard cannot stand for itself");
    row("deep json", document("[{\"kind\": \"wildcard\"}, {\"kind\": \"attr\", \"pattern\": 0, \"attrs\": {\"a\": " +
                                  std::string(600, '[') + std::string(600, ']') + "}}]", 1),
        "p.json: the JSON nests 604 arrays or objects deep, more than the limit of 500");
    row("deep pattern", document(reluChain(600), 601), "p.json: the pattern nests 601 sub-patterns deep, more than the limit of 500");
  }

  void errors() {
    QFETCH(QString, json);
    QFETCH(QString, error);
    QCOMPARE(QString::fromStdString(jsonError(json.toStdString())), error);
  }
};

QTEST_GUILESS_MAIN(TestPatternJson)
#include "test_pattern_json.moc"
