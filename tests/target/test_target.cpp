#include <QtTest>

#include "ir/op.h"
#include "pattern/pattern_printer.h"
#include "target/target.h"

using namespace byoc;

namespace {

Var tensorVar(const std::string& name, Shape shape, DType dtype = DType::Float32) {
  return VarNode::make(name, tensorType(std::move(shape), dtype));
}

/// A type-checked call of `op` (types are computed by the op's relation, as InferType would).
Expr typedCall(const std::string& op, std::vector<Expr> args, const Attrs& attrs = {}) {
  Call call = makeOpCall(op, std::move(args), attrs).value();
  std::vector<Type> argTypes;
  for (const Expr& arg : call->args) argTypes.push_back(arg->type());
  Type result = call->opDef()->relation({argTypes, call->attrs}).value();
  return CallNode::make(call->callee, call->args, call->attrs, {}, result);
}

Expr conv(int groups = 1, DType dtype = DType::Float32) {
  return typedCall("nn.conv2d",
                   {tensorVar("x", {1, 4, 8, 8}, dtype), tensorVar("w", {4, 4 / groups, 3, 3}, dtype)},
                   Attrs{{"groups", groups}});
}

bool supported(const std::string& rule, const Expr& call) {
  Target target;
  target.name = "t";
  target.opRules.push_back(parseOpRule(rule).value());
  Result<bool> result = target.supports(call);
  if (!result) qFatal("%s", result.error().str().c_str());
  return *result;
}

std::string ruleError(const std::string& rule) {
  Result<OpRule> parsed = parseOpRule(rule);
  return parsed ? std::string("<no error>") : parsed.error().str();
}


}  // namespace

/// Op-support rules, the predicate language, and target files.
class TestTarget : public QObject {
  Q_OBJECT

 private slots:
  void ruleWithoutConditionAlwaysHolds() {
    QVERIFY(supported("nn.conv2d", conv()));
    QVERIFY(!supported("nn.relu", conv()));  // no rule names the op
  }

  void conditionsReadAttributesDTypesAndShapes_data() {
    QTest::addColumn<QString>("rule");
    QTest::addColumn<bool>("expected");
    QTest::newRow("attr") << "nn.conv2d when groups == 1" << true;
    QTest::newRow("attr false") << "nn.conv2d when groups != 1" << false;
    QTest::newRow("dtype") << R"(nn.conv2d when dtype(arg0) == "float32")" << true;
    QTest::newRow("result shape") << "nn.conv2d when shape(result) == [1, 4, 6, 6]" << true;
    QTest::newRow("numel") << "nn.conv2d when numel(arg1) >= 144 and rank(arg1) == 4" << true;
    QTest::newRow("in list") << R"(nn.conv2d when "int64" not in arg_dtypes())" << true;
    QTest::newRow("attr of path") << R"(nn.conv2d when attr(self, "data_layout") == "NCHW")" << true;
    QTest::newRow("or/not") << "nn.conv2d when not (groups == 1) or False" << false;
    QTest::newRow("if") << R"(nn.conv2d when if op(self) == "nn.conv2d" then groups == 1 else False)" << true;
    QTest::newRow("missing attr is None") << "nn.conv2d when channels == None" << true;
    QTest::newRow("several ops") << "nn.relu, nn.conv2d when num_args() == 2" << true;
    // Indexing and slicing as in Python (x: 1x4x8x8, w: 4x4x3x3, result: 1x4x6x6).
    QTest::newRow("index") << "nn.conv2d when shape(arg0)[0] == 1" << true;
    QTest::newRow("index from the end") << "nn.conv2d when shape()[-1] == 6" << true;
    QTest::newRow("index both sides") << "nn.conv2d when shape(arg0)[1] == shape(arg1)[1]" << true;
    QTest::newRow("slice from") << "nn.conv2d when shape(arg1)[2:] == [3, 3]" << true;
    QTest::newRow("slice to") << "nn.conv2d when shape(arg0)[:2] == [1, 4]" << true;
    QTest::newRow("slice negative") << "nn.conv2d when shape(arg0)[-3:-1] == [4, 8]" << true;
    QTest::newRow("slice clamped") << "nn.conv2d when shape(arg0)[5:] == [] and shape(arg0)[-9:1] == [1]" << true;
    QTest::newRow("slice then index") << "nn.conv2d when shape(arg0)[1:][0] == 4" << true;
    QTest::newRow("index a list literal") << "nn.conv2d when [3, 5, 7][groups] == 5" << true;
  }
  void conditionsReadAttributesDTypesAndShapes() {
    QFETCH(QString, rule);
    QFETCH(bool, expected);
    QCOMPARE(supported(rule.toStdString(), conv()), expected);
  }

  void pathsWalkIntoArguments() {
    Expr relu = typedCall("nn.relu", {conv()});
    QVERIFY(supported(R"(nn.relu when op(arg0) == "nn.conv2d" and attr(arg0, "groups") == 1)", relu));
    QVERIFY(supported("nn.relu when shape(arg0.arg1) == [4, 4, 3, 3]", relu));
  }

  /// static_shape() holds when the call and its arguments have no unknown dimension; a path moves
  /// the question to an argument, whose own arguments then count.
  void staticShapeLooksAtTheCallAndItsArguments() {
    QVERIFY(supported("nn.conv2d when static_shape()", conv()));
    Expr dynamicDense = typedCall("nn.dense", {tensorVar("x", {kAnyDim, 8}), tensorVar("w", {4, 8})}, Attrs{{"units", 4}});
    QCOMPARE(typeToString(dynamicDense->type()), std::string("Tensor[(?, 4), float32]"));
    QVERIFY(!supported("nn.dense when static_shape()", dynamicDense));
    QVERIFY(supported("nn.dense when not static_shape()", dynamicDense));
    QVERIFY(!supported("nn.dense when static_shape(arg0)", dynamicDense));
    QVERIFY(supported("nn.dense when static_shape(arg1)", dynamicDense));
    // A static result computed from a dynamic argument is not static: the argument counts.
    Expr total = typedCall("sum", {tensorVar("x", {kAnyDim, 8})});
    QCOMPARE(typeToString(total->type()), std::string("float32"));
    QVERIFY(!supported("sum when static_shape()", total));
    Expr relu = typedCall("nn.relu", {total});
    QVERIFY(supported("nn.relu when static_shape()", relu));
    QVERIFY(!supported("nn.relu when static_shape(arg0)", relu));
    // Tuples count field by field.
    Type fields = tupleType({tensorType({2, 8}, DType::Float32), tensorType({kAnyDim, 8}, DType::Float32)});
    Expr joined = typedCall("concatenate", {TupleNode::make({tensorVar("a", {2, 8}), tensorVar("b", {kAnyDim, 8})}, {}, fields)},
                            Attrs{{"axis", 0}});
    QVERIFY(!supported("concatenate when static_shape()", joined));
    QCOMPARE(QString::fromStdString(ruleError("nn.relu when static_shape(arg0, arg1)")),
             QStringLiteral("1:14: static_shape() takes at most 1 argument(s)"));
  }

  void evaluationErrorsNameTheProblem() {
    Target target;
    target.name = "t";
    target.opRules.push_back(parseOpRule("nn.conv2d when shape(arg5) == [1]").value());
    Result<bool> result = target.supports(conv());
    QVERIFY(!result);
    QCOMPARE(QString::fromStdString(result.error().message),
             QStringLiteral("target t, rule 'nn.conv2d when shape(arg5) == [1]': 1:22: 'arg5' does not exist here"));
    target.opRules[0] = parseOpRule("nn.conv2d when shape(arg0)[4] == 1").value();
    QCOMPARE(QString::fromStdString(target.supports(conv()).error().message),
             QStringLiteral("target t, rule 'nn.conv2d when shape(arg0)[4] == 1': 1:27: index 4 is out of range for a list of 4"));
    target.opRules[0] = parseOpRule("nn.conv2d when groups[0] == 1").value();
    QCOMPARE(QString::fromStdString(target.supports(conv()).error().message),
             QStringLiteral("target t, rule 'nn.conv2d when groups[0] == 1': 1:22: expected a list to index, found 1"));
    target.opRules[0] = parseOpRule("nn.conv2d when groups").value();
    QVERIFY(target.supports(conv()).error().message.find("expected a condition (True or False), found 1") !=
            std::string::npos);
  }

  void badRulesReportLineAndColumn_data() {
    QTest::addColumn<QString>("rule");
    QTest::addColumn<QString>("error");
    QTest::newRow("unknown op") << "nn.conv2d, nn.frob" << "1:12: unknown op 'nn.frob'";
    QTest::newRow("empty op") << "nn.relu,, add" << "1:9: found '', expected an op name";
    QTest::newRow("dangling and") << "nn.relu when groups == 1 and" << "1:29: found the end of the condition, expected a value, a name or '('";
    QTest::newRow("bad char") << "nn.relu when groups @ 1" << "1:21: unexpected character '@'";
    QTest::newRow("unclosed") << "nn.relu when (groups == 1" << "1:26: found the end of the condition, expected ')'";
    QTest::newRow("string") << "nn.relu when dtype(arg0) == \"float32" << "1:29: unterminated string";
    QTest::newRow("huge integer") << "nn.relu when groups == 99999999999999999999"
                                  << "1:24: found '99999999999999999999', expected an integer from -2^63 to 2^63-1";
    QTest::newRow("huge float") << "nn.relu when groups < 1e999"
                                << "1:23: found '1e999', expected a float with a magnitude up to 1.79769e+308";
    QTest::newRow("then") << "nn.relu when if True groups" << "1:22: found 'groups', expected 'then'";
    QTest::newRow("trailing") << "nn.relu when True False" << "1:19: found 'False', expected the end of the condition or an operator";
    QTest::newRow("empty index") << "nn.relu when shape()[] == 1" << "1:22: found ']', expected an index or a slice such as 1:3";
    QTest::newRow("unclosed index") << "nn.relu when shape()[1" << "1:23: found the end of the condition, expected ']'";
    QTest::newRow("index a string") << "nn.relu when dtype()[0] == \"f\"" << "1:21: expected a list to index, found a string";
    QTest::newRow("string index") << "nn.relu when shape()[\"a\"] == 1" << "1:22: expected an integer index, found a string";
  }
  void badRulesReportLineAndColumn() {
    QFETCH(QString, rule);
    QFETCH(QString, error);
    QCOMPARE(QString::fromStdString(ruleError(rule.toStdString())), error);
  }

  void targetFileRoundTrips() {
    QFile file(QStringLiteral(BYOC_TEST_DATA_DIR "/target/mini.json"));
    QVERIFY(file.open(QIODevice::ReadOnly));
    Result<Target> target = parseTarget(file.readAll().toStdString(), "mini.json");
    QVERIFY2(target.isOk(), target ? "" : target.error().str().c_str());
    QCOMPARE(target->name, std::string("mini"));
    QCOMPARE(target->opRules.size(), std::size_t{2});
    QCOMPARE(target->opRules[1].ops, (std::vector<std::string>{"nn.relu", "add"}));
    QCOMPARE(target->patterns[0].name, std::string("mini.conv_relu"));
    QVERIFY(target->patterns[0].check.has_value());
    QVERIFY(target->patterns[0].compiled);
    QCOMPARE(printPattern(target->patterns[0].compiled.get()), std::string("nn.relu(nn.conv2d(*, *))"));
    std::string once = serializeTarget(*target);
    Result<Target> again = parseTarget(once, "again.json");
    QVERIFY(again.isOk());
    QCOMPARE(serializeTarget(*again), once);
  }

  void rewriteRowsRoundTrip() {
    Result<Target> target = parseTarget("{\"format\": \"byoc-studio-target\", \"version\": 1, \"name\": \"t\",\n"
        "        \"rewrites\": [{\"pattern\": \"x = *; multiply(x, 1f)\", \"replace\": \"x\"}, {\"pattern\": \"x = *; nn.relu(nn.relu(x))\", \"replace\": \"nn.relu(x)\"}]}",
                                        "t.json");
    QVERIFY2(target.isOk(), target ? "" : target.error().str().c_str());
    QCOMPARE(target->rewrites.size(), std::size_t{2});
    QCOMPARE(target->rewrites[1].replace, std::string("nn.relu(x)"));
    QVERIFY(target->rewrites[1].replacement.has_value());
    const std::string once = serializeTarget(*target);
    QVERIFY(once.find("\"rewrites\"") != std::string::npos);
    QCOMPARE(serializeTarget(parseTarget(once).value()), once);
  }

  void theOptimizePipelineRoundTrips() {
    Result<Target> target = parseTarget(R"({"format": "byoc-studio-target", "version": 1, "name": "t",
        "prepare": "SimplifyInference", "optimize": "FoldConstant,SimplifyExpr"})", "t.json");
    QVERIFY2(target.isOk(), target ? "" : target.error().str().c_str());
    QCOMPARE(target->optimizePipeline, std::string("FoldConstant,SimplifyExpr"));
    const std::string once = serializeTarget(*target);
    QVERIFY(once.find("\"optimize\"") != std::string::npos);
    QCOMPARE(serializeTarget(parseTarget(once).value()), once);
  }

  void aRecursivePatternIsFreedWithItsTarget() {
    const std::string json = R"({"format": "byoc-studio-target", "version": 1, "name": "t",
        "patterns": [{"name": "t.sum", "pattern": "r = add(r, *) | add(*, *); r"}]})";
    Pattern root;
    std::optional<Target> copy;
    {
      Result<Target> target = parseTarget(json, "t.json");
      QVERIFY2(target.isOk(), target ? "" : target.error().str().c_str());
      copy = *target;
      root = target->patterns[0].compiled.get();
    }
    QCOMPARE(root->useCount(), std::size_t{3});  // here, the copy's table, and the recursion's redirect
    copy.reset();
    QCOMPARE(root->useCount(), std::size_t{1});
  }

  void badTargetFilesNameThePath_data() {
    QTest::addColumn<QString>("json");
    QTest::addColumn<QString>("error");
    QTest::newRow("not json") << "{" << "t.json:1:2: not valid JSON";
    QTest::newRow("not json, later line") << "{\"format\": \"byoc-studio-target\",\n \"version\": 1 \"name\": \"a\"}"
                                          << "t.json:2:20: not valid JSON";
    QTest::newRow("deep") << QString(600, QLatin1Char('[')) + QString(600, QLatin1Char(']'))
                          << "t.json: the JSON nests 600 arrays or objects deep, more than the limit of 500";
    QTest::newRow("format") << R"({"format": "x", "version": 1, "name": "a"})"
                            << R"(t.json: at /format: expected "byoc-studio-target", found "x")";
    QTest::newRow("newer") << R"({"format": "byoc-studio-target", "version": 9, "name": "a"})"
                           << "t.json: at /version: version 9 is newer than this program reads (1)";
    QTest::newRow("name") << R"({"format": "byoc-studio-target", "version": 1})" << "t.json: at /name: missing";
    QTest::newRow("codegen") << R"({"format": "byoc-studio-target", "version": 1, "name": "a", "codegen": "cu da"})"
                             << R"(t.json: at /codegen: expected a codegen's name (letters, digits, '_' and '-'; "plugin:NAME" for a plugin's) or "", found "cu da")";
    QTest::newRow("plugin codegen without a name") << R"({"format": "byoc-studio-target", "version": 1, "name": "a", "codegen": "plugin:"})"
                                                   << R"(t.json: at /codegen: expected a codegen's name (letters, digits, '_' and '-'; "plugin:NAME" for a plugin's) or "", found "plugin:")";
    QTest::newRow("plugin codegen with a path") << R"({"format": "byoc-studio-target", "version": 1, "name": "a", "codegen": "plugin:../x"})"
                                                << R"(t.json: at /codegen: expected a codegen's name (letters, digits, '_' and '-'; "plugin:NAME" for a plugin's) or "", found "plugin:../x")";
    QTest::newRow("rule") << R"({"format": "byoc-studio-target", "version": 1, "name": "a", "op_rules": ["add when"]})"
                          << "t.json: at /op_rules/0 (add): 1:9: found the end of the condition, expected a value, a name or '('";
    QTest::newRow("rule function") << R"({"format": "byoc-studio-target", "version": 1, "name": "a", "op_rules": ["add", "nn.relu, tanh when size(arg0) > 1"]})"
                                   << "t.json: at /op_rules/1 (nn.relu, tanh): 1:20: unknown function 'size'; expected op, dtype, shape, rank, "
                                      "numel, attr, is_constant, num_args, arg_dtypes or static_shape";
    QTest::newRow("rule attribute") << R"({"format": "byoc-studio-target", "version": 1, "name": "a", "op_rules": ["nn.relu, nn.leaky_relu when alpha > 0"]})"
                                    << "t.json: at /op_rules/0 (nn.relu, nn.leaky_relu): 1:29: 'alpha' is not an attribute of nn.relu (it has none)";
    QTest::newRow("check") << "{\"format\": \"byoc-studio-target\", \"version\": 1, \"name\": \"a\", \"patterns\": [{\"name\": \"p\", \"pattern\": \"nn.relu(*)\", \"check\": \"==\"}]}"
                           << "t.json: at /patterns/0/check (p): 1:1: found '==', expected a value, a name or '('";
    QTest::newRow("check types") << "{\"format\": \"byoc-studio-target\", \"version\": 1, \"name\": \"a\", \"patterns\": [{\"name\": \"p\", \"pattern\": \"nn.relu(*)\", \"check\": \"if rank() then 1 else 2\"}]}"
                                 << "t.json: at /patterns/0/check (p): 1:4: expected a condition (True or False), found a number";
    QTest::newRow("check attribute") << "{\"format\": \"byoc-studio-target\", \"version\": 1, \"name\": \"a\", \"patterns\": [{\"name\": \"p\", \"pattern\": \"nn.conv2d(*, *) | nn.dense(*, *)\", \"check\": \"attr(self, \\\"groups\\\") == 1\"}]}"
                                     << "t.json: at /patterns/0/check (p): 1:6: 'groups' is not an attribute of nn.dense (it has units, out_dtype)";
    QTest::newRow("pattern") << "{\"format\": \"byoc-studio-target\", \"version\": 1, \"name\": \"a\", \"patterns\": [{\"name\": \"p\", \"pattern\": \"nn.relu(nn.conv2d(*, *)\"}]}"
                             << "t.json: at /patterns/0/pattern (p): 1:24: found the end of the input, expected ',' or ')'";
    QTest::newRow("pattern op") << "{\"format\": \"byoc-studio-target\", \"version\": 1, \"name\": \"a\", \"patterns\": [{\"name\": \"p\", \"pattern\": \"x = *;\\nnn.relux(x)\"}]}"
                                << "t.json: at /patterns/0/pattern (p): 2:1: found 'nn.relux', expected a registered op or a name defined before";
    QTest::newRow("function pattern") << "{\"format\": \"byoc-studio-target\", \"version\": 1, \"name\": \"a\", \"patterns\": [{\"name\": \"p\", \"pattern\": \"fn(..) { * }\"}]}"
                                      << "t.json: at /patterns/0/pattern (p): expected a pattern of a call or another value, found a function pattern (nothing would call it)";
    QTest::newRow("wildcard pattern") << "{\"format\": \"byoc-studio-target\", \"version\": 1, \"name\": \"a\", \"patterns\": [{\"name\": \"p\", \"pattern\": \"nn.relu(*) | *\"}]}"
                                      << "t.json: at /patterns/0/pattern (p): the pattern's root may match any value, which would become a composite of no operation";
    QTest::newRow("constant pattern") << "{\"format\": \"byoc-studio-target\", \"version\": 1, \"name\": \"a\", \"patterns\": [{\"name\": \"p\", \"pattern\": \"has_dtype(float32, const)\"}]}"
                                      << "t.json: at /patterns/0/pattern (p): the pattern's root may match a constant, which would become a composite of no operation";
    QTest::newRow("left recursion") << "{\"format\": \"byoc-studio-target\", \"version\": 1, \"name\": \"a\", \"patterns\": [{\"name\": \"p\", \"pattern\": \"c = c{a=1} | nn.relu(c); c\"}]}"
                                    << "t.json: at /patterns/0/pattern (p): the pattern refers to itself before it matches anything";
    QTest::newRow("rewrite not an object") << "{\"format\": \"byoc-studio-target\", \"version\": 1, \"name\": \"a\", \"rewrites\": [\"x\"]}"
                                           << "t.json: at /rewrites/0: expected an object with pattern and replace";
    QTest::newRow("rewrite without replace") << "{\"format\": \"byoc-studio-target\", \"version\": 1, \"name\": \"a\", \"rewrites\": [{\"pattern\": \"nn.relu(*)\"}]}"
                                             << "t.json: at /rewrites/0/replace: missing";
    QTest::newRow("rewrite pattern") << "{\"format\": \"byoc-studio-target\", \"version\": 1, \"name\": \"a\", \"rewrites\": [{\"pattern\": \"nn.relu(\", \"replace\": \"x\"}]}"
                                     << "t.json: at /rewrites/0/pattern: 1:9: found the end of the input, expected a pattern";
    QTest::newRow("rewrite replacement") << "{\"format\": \"byoc-studio-target\", \"version\": 1, \"name\": \"a\", \"rewrites\": [{\"pattern\": \"x = *; nn.relu(x)\", \"replace\": \"tanh(*)\"}]}"
                                         << "t.json: at /rewrites/0/replace: 1:6: a replacement cannot build '*' (name the pattern's node to use what it matched)";
    QTest::newRow("prune") << R"({"format": "byoc-studio-target", "version": 1, "name": "a", "prune_keep_ops": ["nope"]})"
                           << "t.json: at /prune_keep_ops/0: unknown op 'nope'";
  }
  void badTargetFilesNameThePath() {
    QFETCH(QString, json);
    QFETCH(QString, error);
    Result<Target> target = parseTarget(json.toStdString(), "t.json");
    QVERIFY(!target.isOk());
    QCOMPARE(QString::fromStdString(target.error().str()), error);
  }
};

QTEST_GUILESS_MAIN(TestTarget)
#include "test_target.moc"
