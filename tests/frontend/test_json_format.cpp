#include <QtTest>

#include "frontend/json_format.h"
#include "ir/op.h"
#include "ir/structural.h"
#include "pass/infer_type.h"
#include "test_files.h"
#include "text/parser.h"
#include "text/printer.h"

using namespace byoc;

namespace {

/// A module exercising every node kind, attributes of every kind, shared nodes and constants.
Module everyKindModule() {
  Var x = VarNode::make("x", tensorType({1, 4}, DType::Float32), Origin::single(1));
  Var flag = VarNode::make("flag", scalarType(DType::Bool), Origin::single(2));
  std::vector<std::byte> weights(16);
  for (std::size_t i = 0; i < weights.size(); ++i) weights[i] = static_cast<std::byte>(i * 7);
  Constant c = ConstantNode::make(TensorData::fromBytes(DType::Float32, {1, 4}, weights), Origin::single(3), "w");
  Constant i64 = ConstantNode::make(TensorData::scalar(DType::Int64, -5), Origin::single(4));
  Call relu = makeOpCall("nn.relu", {x}, {}, Origin::single(5)).value();
  Call added = makeOpCall("add", {relu, c}, {}, Origin::unite({Origin::single(6), Origin::single(7)})).value();
  Call leaky = makeOpCall("nn.leaky_relu", {added}, Attrs{{"alpha", 0.1234567890123}}).value();
  Tuple pair = TupleNode::make({relu, leaky}, Origin::single(8));  // relu is shared
  TupleGetItem first = TupleGetItemNode::make(pair, 1);
  Var a = VarNode::make("a", tensorType({1, 4}, DType::Float32));
  Function inner = FunctionNode::make({a}, a, tensorType({1, 4}, DType::Float32),
                                      Attrs{{"Composite", "t.id"}, {"Primitive", 1}, {"Flags", AttrValue(AttrValue::List{true, AttrValue(), 2.5, "s"})}});
  Call applied = CallNode::make(inner, {first});
  Var bound = VarNode::make("bound");
  Let let = LetNode::make(bound, applied, TupleNode::make({bound, i64}));
  If branch = IfNode::make(flag, let, TupleNode::make({x, i64}));
  Module module;
  module.set("main", FunctionNode::make({x, flag}, branch));
  Var y = VarNode::make("y", tensorType({1, 4}, DType::Float32));
  Var yFlag = VarNode::make("y_flag", scalarType(DType::Bool));
  module.set("helper", FunctionNode::make({y, yFlag}, CallNode::make(GlobalVarNode::make("main"), {y, yFlag})));
  module.setAttrs(Attrs{{"executor", "graph"}});
  auto provenance = std::make_shared<Provenance>();
  provenance->locations[1] = {"model.relay", 1, 10};
  provenance->names[5] = "Relu_0 (Relu)";
  module.setProvenance(provenance);
  return module;
}

std::string loadError(const std::string& text) {
  Result<Module> module = loadModuleJson(text, "m.json");
  return module ? std::string("<loaded>") : module.error().str();
}

/// A valid one-function module in JSON with `replace` substituted for `marker`.
std::string validWith(const std::string& marker, const std::string& replace) {
  std::string text = testing::readTestData("frontend/small.json");
  std::size_t at = text.find(marker);
  if (at == std::string::npos) qFatal("marker %s not in small.json", marker.c_str());
  return text.replace(at, marker.size(), replace);
}

}  // namespace

/// The native JSON form: exact round trips and precise errors.
class TestJsonFormat : public QObject {
  Q_OBJECT

 private slots:
  void roundTripIsExact() {
    Module module = everyKindModule();
    std::string once = saveModuleJson(module);
    Result<Module> loaded = loadModuleJson(once, "m.json");
    QVERIFY2(loaded.isOk(), loaded ? "" : loaded.error().str().c_str());
    QVERIFY(structuralEqual(module, *loaded));
    QCOMPARE(saveModuleJson(*loaded), once);
    QCOMPARE(printModule(*loaded), printModule(module));
  }

  void keepsSharingOriginsAndProvenance() {
    Result<Module> loaded = loadModuleJson(saveModuleJson(everyKindModule()), "m.json");
    QVERIFY(loaded.isOk());
    const auto* branch = loaded->find("main")->body->as<IfNode>();
    const auto* let = branch->thenBranch->as<LetNode>();
    const auto* item = let->value->as<CallNode>()->args[0]->as<TupleGetItemNode>();
    const auto* pair = item->tuple->as<TupleNode>();
    const auto* leaky = pair->fields[1]->as<CallNode>();
    const auto* added = leaky->args[0]->as<CallNode>();
    QVERIFY(added->args[0] == pair->fields[0]);  // relu is still one node
    QCOMPARE(std::vector<NodeId>(added->origin().ids().begin(), added->origin().ids().end()), (std::vector<NodeId>{6, 7}));
    QCOMPARE(leaky->attrs.find("alpha")->asFloat(), 0.1234567890123);
    QCOMPARE(loaded->provenance()->names.at(5), std::string("Relu_0 (Relu)"));
    QCOMPARE(loaded->locate(loaded->find("main")->params[0])->str(), std::string("model.relay:1:10"));
  }

  void typedModulesKeepTheirTypes() {
    Result<Module> parsed = parseModule(testing::readTestData("text/demo.relay"), "demo.relay");
    Result<Module> typed = inferTypes(*parsed);
    QVERIFY(typed.isOk());
    Result<Module> loaded = loadModuleJson(saveModuleJson(*typed), "demo.json");
    QVERIFY(loaded.isOk());
    PrintOptions options;
    options.showTypes = true;
    QCOMPARE(printModule(*loaded, options), printModule(*typed, options));
  }

  void hundredThousandNodeChainRoundTrips() {
    Var x = VarNode::make("x", tensorType({4}, DType::Float32));
    Expr chain = x;
    for (int i = 0; i < 100000; ++i) chain = makeOpCall(i % 2 ? "nn.relu" : "negative", {chain}).value();
    Module module;
    module.set("main", FunctionNode::make({x}, chain));
    std::string text = saveModuleJson(module);
    Result<Module> loaded = loadModuleJson(text, "chain.json");
    QVERIFY(loaded.isOk());
    QCOMPARE(saveModuleJson(*loaded), text);
  }

  void badInputsNameTheJsonPath_data() {
    QTest::addColumn<QString>("marker");
    QTest::addColumn<QString>("replacement");
    QTest::addColumn<QString>("error");
    QTest::newRow("format") << "\"byoc-studio-module\"" << "\"other\"" << "m.json: at /format: expected \"byoc-studio-module\", found \"other\"";
    QTest::newRow("version") << "\"version\": 1" << "\"version\": 7" << "m.json: at /version: version 7 is newer than this program reads (1)";
    QTest::newRow("forward index") << "\"args\": [0, 2]" << "\"args\": [0, 40]" << "m.json: at /functions/0/nodes/3/args/1: expected a node index below 3, found 40";
    QTest::newRow("index type") << "\"args\": [0, 2]" << "\"args\": [0, \"x\"]" << "m.json: at /functions/0/nodes/3/args/1: expected a node index below 3, found \"x\"";
    QTest::newRow("unknown op") << "\"name\": \"add\"" << "\"name\": \"nn.frob\"" << "m.json: at /functions/0/nodes/1/name: unknown op 'nn.frob'";
    QTest::newRow("unknown kind") << "\"kind\": \"tuple\"" << "\"kind\": \"matrix\"" << "m.json: at /functions/0/nodes/4/kind: unknown node kind \"matrix\"; expected var, global, constant, op, call, tuple, tuple_get_item, function, if or let";
    QTest::newRow("dtype") << "\"dtype\": \"float32\", \"shape\": [2], \"data\"" << "\"dtype\": \"float99\", \"shape\": [2], \"data\"" << "m.json: at /constants/0/dtype: unknown dtype \"float99\"";
    QTest::newRow("base64") << "\"AACAPwAAAEA=\"" << "\"AACAP!AAAEA=\"" << "m.json: at /constants/0/data: not valid base64";
    QTest::newRow("byte count") << "\"AACAPwAAAEA=\"" << "\"AACAPw==\"" << "m.json: at /constants/0/data: holds 4 bytes, expected 8 for shape and dtype";
    QTest::newRow("missing field") << "\"callee\": 1, " << "" << "m.json: at /functions/0/nodes/3/callee: missing";
    QTest::newRow("bad attrs") << "\"attrs\": []}" << "\"attrs\": [[1, 2]]}" << "m.json: at /functions/0/nodes/3/attrs/0: expected a [name, value] pair, found [1,2]";
    QTest::newRow("bad attribute") << "\"attrs\": []}" << "\"attrs\": [[\"axis\", 1]]}" << "m.json: at /functions/0/nodes/3: add has no attribute 'axis'; it takes none";
    QTest::newRow("param kind") << "\"params\": [0]" << "\"params\": [1]" << "m.json: at /functions/0/nodes/5/params/0: expected a Var node, found a Op";
    QTest::newRow("syntax") << "\"functions\": [" << "\"functions\": [[," << "m.json:5:17: not valid JSON";
    QTest::newRow("constant name") << "\"name\": \"bias\"" << "\"name\": [1]" << "m.json: at /constants/0/name: expected a string, found [1]";
    QTest::newRow("constant unknown dim") << "\"shape\": [2], \"data\"" << "\"shape\": [-1, 2], \"data\"" << "m.json: at /constants/0/shape: dimension 0 is -1, expected 0 or more";
    QTest::newRow("negative dim") << "\"shape\": [2]}" << "\"shape\": [-3]}" << "m.json: at /functions/0/nodes/0/annotation/shape: dimension 0 is -3, expected 0 or more";
    QTest::newRow("huge dim") << "\"shape\": [2]}" << "\"shape\": [9223372036854775808]}" << "m.json: at /functions/0/nodes/0/annotation/shape/0: expected a dimension size, found 9223372036854775808";
    QTest::newRow("element count") << "\"shape\": [2]}" << "\"shape\": [65536, -1, 65537]}" << "m.json: at /functions/0/nodes/0/annotation/shape: more than 4294967296 elements (the limit of one tensor)";
    QTest::newRow("number overflow") << "\"version\": 1" << "\"version\": 1e999" << "m.json: not valid JSON: number overflow parsing '1e999'";
    QTest::newRow("deep nesting") << "\"attrs\": []," << "\"attrs\": [[\"a\", " + QString(501, '[') + QString(501, ']') + "]]," << "m.json: the JSON nests 504 arrays or objects deep, more than the limit of 500";
  }
  void badInputsNameTheJsonPath() {
    QFETCH(QString, marker);
    QFETCH(QString, replacement);
    QFETCH(QString, error);
    QCOMPARE(QString::fromStdString(loadError(validWith(marker.toStdString(), replacement.toStdString()))), error);
  }

  void theValidBaseFileLoads() {
    QCOMPARE(QString::fromStdString(loadError(testing::readTestData("frontend/small.json"))), QStringLiteral("<loaded>"));
  }
};

QTEST_GUILESS_MAIN(TestJsonFormat)
#include "test_json_format.moc"
