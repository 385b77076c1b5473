#include <QtTest>

#include "export/python_text.h"
#include "export/tvm_pattern.h"
#include "export/tvm_predicate.h"
#include "export/tvm_python.h"
#include "pattern/owned_pattern.h"
#include "pattern/pattern_parser.h"
#include "target/target_library.h"
#include "test_files.h"

using namespace byoc;

namespace {

/// The statements and root of a translated pattern, one per line, the root last.
QString patternPython(const Pattern& pattern) {
  Result<PythonPattern> python = patternAsPython(pattern);
  if (!python) return QStringLiteral("error: ") + QString::fromStdString(python.error().message);
  std::string text;
  for (const std::string& statement : python->statements) text += statement + "\n";
  return QString::fromStdString(text + python->root);
}

QString patternPython(const QString& text) {
  Result<Pattern> parsed = parsePattern(text.toStdString());
  if (!parsed) qFatal("bad test pattern: %s", parsed.error().str().c_str());
  const OwnedPattern pattern(std::move(parsed).value());
  return patternPython(pattern.get());
}

QString conditionPython(const QString& text) {
  Result<Predicate> predicate = Predicate::parse(text.toStdString());
  if (!predicate) qFatal("bad test condition: %s", predicate.error().str().c_str());
  Result<PythonCondition> python = predicateAsPython(*predicate);
  if (!python) return QStringLiteral("error: ") + QString::fromStdString(python.error().message);
  return QString::fromStdString(python->text);
}

Target targetFromJson(const std::string& json) {
  Result<Target> target = parseTarget(json, "t.json");
  if (!target) qFatal("bad test target: %s", target.error().str().c_str());
  return *target;
}

}  // namespace

/// A target as a TVM Python module: patterns, conditions, the whole module, and what has no TVM form.
class TestTvmPython : public QObject {
  Q_OBJECT

 private slots:
  void patternsBecomeDataflowPatternCalls_data() {
    QTest::addColumn<QString>("pattern");
    QTest::addColumn<QString>("python");
    QTest::newRow("wildcard") << "*" << "wildcard()";
    QTest::newRow("op call") << "nn.relu(nn.conv2d(*, *))" << "is_op(\"nn.relu\")(is_op(\"nn.conv2d\")(wildcard(), wildcard()))";
    QTest::newRow("any arguments") << "concatenate(..)" << "is_op(\"concatenate\")(None)";
    QTest::newRow("alternative callee") << "(nn.relu | tanh)(*)" << "(is_op(\"nn.relu\") | is_op(\"tanh\"))(wildcard())";
    QTest::newRow("alternative right nested") << "nn.relu(*) | (tanh(*) | sigmoid(*))"
                                              << "is_op(\"nn.relu\")(wildcard()) | (is_op(\"tanh\")(wildcard()) | is_op(\"sigmoid\")(wildcard()))";
    QTest::newRow("shared name") << "x = *; add(x, x)" << "x = wildcard()\nis_op(\"add\")(x, x)";
    QTest::newRow("named, used once") << "conv = nn.conv2d(*, *); nn.relu(conv)"
                                      << "conv = is_op(\"nn.conv2d\")(wildcard(), wildcard())\nis_op(\"nn.relu\")(conv)";
    QTest::newRow("name clashing with the API") << "is_op = *; nn.relu(is_op)" << "is_op_2 = wildcard()\nis_op(\"nn.relu\")(is_op_2)";
    QTest::newRow("name that is a Python keyword") << "lambda = *; nn.relu(lambda)" << "lambda_2 = wildcard()\nis_op(\"nn.relu\")(lambda_2)";
    QTest::newRow("recursive") << "chain = add(chain, *) | *; nn.relu(chain)"
                               << "chain = wildcard()\nchain.redirect_to(is_op(\"add\")(chain, wildcard()) | wildcard())\nis_op(\"nn.relu\")(chain)";
    QTest::newRow("var and constant") << "add(var, %x) | add(const, *)" << "is_op(\"add\")(is_var(), is_var(\"x\")) | is_op(\"add\")(is_constant(), wildcard())";
    QTest::newRow("float literal") << "add(*, 1f)" << "is_op(\"add\")(wildcard(), is_expr(relay.const(1.0, \"float32\")))";
    QTest::newRow("int64 literal") << "add(*, -5000000000i64)"
                                   << "is_op(\"add\")(wildcard(), is_expr(relay.const(-5000000000, \"int64\")))";
    QTest::newRow("float16 literal") << "multiply(*, 0.5f16)" << "is_op(\"multiply\")(wildcard(), is_expr(relay.const(0.5, \"float16\")))";
    QTest::newRow("bool literal") << "logical_and(*, True)" << "is_op(\"logical_and\")(wildcard(), is_expr(relay.const(True, \"bool\")))";
    QTest::newRow("tuples") << "(*, const).1 | (..).*"
                            << "is_tuple_get_item(is_tuple([wildcard(), is_constant()]), 1) | is_tuple_get_item(is_tuple(None))";
    QTest::newRow("attributes") << "nn.conv2d(*, *){groups=1, data_layout=\"NCHW\", padding=[1, 1, 1, 1], scale=0.5f, ok=True}"
                                << "is_op(\"nn.conv2d\")(wildcard(), wildcard()).has_attr({\"groups\": 1, \"data_layout\": \"NCHW\", "
                                   "\"padding\": [1, 1, 1, 1], \"scale\": 0.5, \"ok\": True})";
    QTest::newRow("attributes of an alternative") << "(nn.relu | tanh){TOpPattern=0}(*)"
                                                  << "(is_op(\"nn.relu\") | is_op(\"tanh\")).has_attr({\"TOpPattern\": 0})(wildcard())";
    QTest::newRow("composite call") << "*{Composite=\"dnnl.conv2d_relu\"}(..)"
                                    << "wildcard().has_attr({\"Composite\": \"dnnl.conv2d_relu\"})(None)";
    QTest::newRow("types") << "has_type(Tensor[(1, 3), float32], nn.relu(*)) | has_dtype(int8) | has_shape([1, ?, 3])"
                           << "has_type(relay.TensorType([1, 3], \"float32\"), is_op(\"nn.relu\")(wildcard())) | "
                              "has_dtype(\"int8\") | has_shape([1, relay.Any(), 3])";
    QTest::newRow("tuple and function types") << "has_type((int32, fn (float32) -> float32))"
                                              << "has_type(relay.TupleType([relay.TensorType([], \"int32\"), "
                                                 "relay.FuncType([relay.TensorType([], \"float32\")], relay.TensorType([], \"float32\"))]))";
    QTest::newRow("dominator") << "dominates(nn.conv2d(*, *), *{TOpPattern=0}(*), add(*, *))"
                               << "dominates(is_op(\"nn.conv2d\")(wildcard(), wildcard()), wildcard().has_attr({\"TOpPattern\": 0})(wildcard()), "
                                  "is_op(\"add\")(wildcard(), wildcard()))";
    QTest::newRow("function, if and let") << "fn(var) { nn.relu(*) } | if(*, *, *) | let(var, *, *)"
                                          << "FunctionPattern([is_var()], is_op(\"nn.relu\")(wildcard())) | is_if(wildcard(), wildcard(), wildcard()) | "
                                             "is_let(is_var(), wildcard(), wildcard())";
    QTest::newRow("function with any parameters") << "fn(..) { * }" << "FunctionPattern(None, wildcard())";
  }

  void patternsBecomeDataflowPatternCalls() {
    QFETCH(QString, pattern);
    QFETCH(QString, python);
    QCOMPARE(patternPython(pattern), python);
  }

  void unnamedSharedNodesGetGeneratedNames() {
    Pattern data = wildcard();
    Pattern conv = callOp("nn.conv2d", {data, wildcard()});
    QCOMPARE(patternPython(callOp("add", {callOp("nn.relu", {conv}), conv})),
             QStringLiteral("p0 = is_op(\"nn.conv2d\")(wildcard(), wildcard())\nis_op(\"add\")(is_op(\"nn.relu\")(p0), p0)"));
  }

  void theImportsAreTheNamesUsed() {
    Result<PythonPattern> python = patternAsPython(*parsePattern("x = *; multiply(x, has_dtype(float32, const))"));
    QVERIFY(python.isOk());
    QCOMPARE(python->imports, (std::set<std::string>{"has_dtype", "is_constant", "is_op", "wildcard"}));
  }

  void globalFunctionsHaveNoTvmPattern() {
    QCOMPARE(patternPython(QStringLiteral("@f(*)")),
             QStringLiteral("error: @f (a global function) has no TVM pattern: TVM's is_expr compares global functions by "
                            "identity, not by name"));
  }

  void tensorConstantsHaveNoTvmPattern() {
    Pattern tensor = isExpr(ConstantNode::make(TensorData::zeros(DType::Float32, {2})));
    QCOMPARE(patternPython(callOp("add", {wildcard(), tensor})),
             QStringLiteral("error: an expression pattern that is not an op, a global function or a scalar literal has no TVM form"));
  }

  void conditionsBecomePythonPredicates_data() {
    QTest::addColumn<QString>("condition");
    QTest::addColumn<QString>("python");
    QTest::newRow("op of a path") << "op(arg0.arg1) == \"add\"" << "_op_name(expr.args[0].args[1]) == \"add\"";
    QTest::newRow("dnnl pooling") << "\"int64\" not in arg_dtypes() and not ceil_mode"
                                  << "\"int64\" not in _arg_dtypes(expr) and not _bool(_attr(expr, \"ceil_mode\"))";
    QTest::newRow("attribute equality") << "groups == 1" << "_same(_attr(expr, \"groups\"), 1)";
    QTest::newRow("attribute inequality") << "groups != 1" << "not _same(_attr(expr, \"groups\"), 1)";
    QTest::newRow("string equality is plain") << "attr(self, \"data_layout\") != \"NCHW\""
                                              << "_attr(expr, \"data_layout\") != \"NCHW\"";
    QTest::newRow("result is self") << "dtype(result) == \"float32\"" << "_tensor_type(expr).dtype == \"float32\"";
    QTest::newRow("rank") << "rank(arg0) >= 4" << "len(_tensor_type(expr.args[0]).shape) >= 4";
    QTest::newRow("ordering of an attribute") << "attr(arg0, \"channels\") < 2.5" << "_number(_attr(expr.args[0], \"channels\")) < 2.5";
    QTest::newRow("numbers compare plainly") << "numel(arg1) == 64 and num_args() != 2" << "_numel(expr.args[1]) == 64 and _num_args(expr) != 2";
    QTest::newRow("shapes compare plainly") << "shape(arg0) == shape(arg1) or shape() == [1, 2]"
                                            << "_shape(expr.args[0]) == _shape(expr.args[1]) or _shape(expr) == [1, 2]";
    QTest::newRow("shape against a mixed list") << "shape() == [1, 2.5]" << "_same(_shape(expr), [1, 2.5])";
    QTest::newRow("string in a list") << "dtype() in [\"float32\", \"float16\"]" << "_tensor_type(expr).dtype in [\"float32\", \"float16\"]";
    QTest::newRow("attribute in a list") << "groups in [1, 2]" << "_in(_attr(expr, \"groups\"), [1, 2])";
    QTest::newRow("attribute not in a list") << "groups not in [1, 2]" << "not _in(_attr(expr, \"groups\"), [1, 2])";
    QTest::newRow("True is not 1") << "True == 1" << "_same(True, 1)";
    QTest::newRow("None") << "attr(arg0, \"units\") == None" << "_same(_attr(expr.args[0], \"units\"), None)";
    QTest::newRow("if then else") << "if op() == \"nn.relu\" then is_constant(arg1) else True"
                                  << "isinstance(expr.args[1], relay.Constant) if _op_name(expr) == \"nn.relu\" else True";
    QTest::newRow("nested if in a condition") << "(if is_constant(arg0) then True else False) and True"
                                              << "(True if isinstance(expr.args[0], relay.Constant) else False) and True";
    QTest::newRow("or under and") << "(is_constant(arg0) or is_constant(arg1)) and not is_constant()"
                                  << "(isinstance(expr.args[0], relay.Constant) or isinstance(expr.args[1], relay.Constant)) and "
                                     "not isinstance(expr, relay.Constant)";
    QTest::newRow("and under or") << "is_constant(arg0) or is_constant(arg1) and is_constant()"
                                  << "isinstance(expr.args[0], relay.Constant) or (isinstance(expr.args[1], relay.Constant) and "
                                     "isinstance(expr, relay.Constant))";
    QTest::newRow("or chain") << "is_constant(arg0) or is_constant(arg1) or is_constant()"
                              << "isinstance(expr.args[0], relay.Constant) or isinstance(expr.args[1], relay.Constant) or "
                                 "isinstance(expr, relay.Constant)";
    QTest::newRow("values in branches") << "(if is_constant(arg0) then 1 else groups) == 1"
                                        << "_same(1 if isinstance(expr.args[0], relay.Constant) else _attr(expr, \"groups\"), 1)";
    QTest::newRow("conditions in branches") << "if groups then rank() > 2 and True else not True"
                                            << "(len(_tensor_type(expr).shape) > 2 and True) if _bool(_attr(expr, \"groups\")) else not True";
    QTest::newRow("not of or") << "not (is_constant(arg0) or is_constant(arg1))"
                               << "not (isinstance(expr.args[0], relay.Constant) or isinstance(expr.args[1], relay.Constant))";
    QTest::newRow("bare attribute is the result") << "ceil_mode" << "_bool(_attr(expr, \"ceil_mode\"))";
    QTest::newRow("index of a shape") << "shape(arg0)[0] == 1 and shape()[-1] > 2" << "_shape(expr.args[0])[0] == 1 and _shape(expr)[-1] > 2";
    QTest::newRow("slice of a shape") << "shape()[-2:] == [7, 7] and shape(arg1)[:] == []" << "_shape(expr)[-2:] == [7, 7] and _shape(expr.args[1])[:] == []";
    QTest::newRow("index of an attribute") << "padding[0] == 1" << "_same(_attr(expr, \"padding\")[0], 1)";
    QTest::newRow("escaped string") << "attr(self, \"a\\\"b\") == \"\\\\\"" << "_attr(expr, \"a\\\"b\") == \"\\\\\"";
  }

  void conditionsBecomePythonPredicates() {
    QFETCH(QString, condition);
    QFETCH(QString, python);
    QCOMPARE(conditionPython(condition), python);
  }

  void conditionsThatCannotBeEvaluatedAreErrors_data() {
    QTest::addColumn<QString>("condition");
    QTest::addColumn<QString>("error");
    QTest::newRow("unknown function") << "foo(arg0)"
                                      << "1:1: unknown function 'foo'; expected op, dtype, shape, rank, numel, attr, is_constant, num_args, arg_dtypes or static_shape";
    QTest::newRow("too many arguments") << "True and op(arg0, arg1) == \"add\"" << "1:10: op() takes at most 1 argument(s)";
    QTest::newRow("attr without a quoted name") << "attr(arg0, groups) == 1" << "1:1: attr() takes a path and an attribute name in quotes";
    QTest::newRow("not a path") << "dtype(x1) == \"float32\"" << "1:7: expected a path such as self, arg0 or arg1.arg0, found 'x1'";
    QTest::newRow("a value where a path goes") << "dtype(\"a\") == \"float32\"" << "1:7: expected a path such as self, arg0 or arg1.arg0";
  }

  void conditionsThatCannotBeEvaluatedAreErrors() {
    QFETCH(QString, condition);
    QFETCH(QString, error);
    QCOMPARE(conditionPython(condition), QStringLiteral("error: ") + error);
  }

  void helpersComeWithTheHelpersTheyCall() {
    std::string text = pythonConditionHelpers({"_numel", "_in"});
    std::vector<std::string> defined;
    for (std::size_t at = text.find("def "); at != std::string::npos; at = text.find("\ndef ", at + 1))
      defined.push_back(text.substr(text.find_first_not_of('\n', at) + 4, text.find('(', at) - text.find_first_not_of('\n', at) - 4));
    QCOMPARE(defined, (std::vector<std::string>{"_same", "_in", "_tensor_type", "_shape", "_numel"}));
    QVERIFY(pythonConditionHelpers({}).empty());
  }

  void pythonTextIsValidForAnyInput() {
    QCOMPARE(pythonString("a\"b\\c\n\x01é"), std::string("\"a\\\"b\\\\c\\n\\x01é\""));
    QCOMPARE(pythonFloat(1.0), std::string("1.0"));
    QCOMPARE(pythonFloat(1e-05), std::string("1e-05"));
    QCOMPARE(pythonFloat(0.1f), std::string("0.1"));
    QCOMPARE(pythonFloat(-std::numeric_limits<double>::infinity()), std::string("-float(\"inf\")"));
    QCOMPARE(pythonDocstring("say \"\"\"hi\"\"\"\nsecond line\\", "    "), std::string("\"\"\"say \\\"\"\"hi\\\"\"\"\n"
        "    second line\\\\\"\"\""));
    QCOMPARE(pythonDocstring("ends with \"", ""), std::string("\"\"\"ends with \\\"\"\"\""));
    std::set<std::string> taken{"p"};
    QCOMPARE(uniquePythonName("p", taken), std::string("p_2"));
    QCOMPARE(uniquePythonName("dnnl.conv2d-relu", taken), std::string("dnnl_conv2d_relu"));
    QCOMPARE(uniquePythonName("1x", taken), std::string("_1x"));
    QCOMPARE(uniquePythonName("class", taken), std::string("class_2"));
  }

  void builtinTargetsMatchTheirGoldens_data() {
    QTest::addColumn<QString>("name");
    for (const std::string& name : builtinTargetNames()) QTest::newRow(name.c_str()) << QString::fromStdString(name);
  }

  void builtinTargetsMatchTheirGoldens() {
    QFETCH(QString, name);
    Result<Target> target = loadTarget(name.toStdString());
    QVERIFY(target.isOk());
    Result<std::string> python = targetAsTvmPython(*target);
    QVERIFY2(python.isOk(), python ? "" : python.error().str().c_str());
    const QString golden = QStringLiteral("export/tvm/%1.py").arg(name);
    // BYOC_UPDATE_GOLDENS=1 rewrites the golden files (to be reviewed before they are committed).
    if (qEnvironmentVariableIsSet("BYOC_UPDATE_GOLDENS")) byoc::testing::writeTestData(golden, *python);
    QCOMPARE(*python, byoc::testing::readTestData(golden));
  }

  void laterRulesForAnOpAlreadyDecidedAreNotRegistered() {
    Target target = targetFromJson("{\"format\": \"byoc-studio-target\", \"version\": 1, \"name\": \"t\",\n"
        "        \"op_rules\": [\"nn.relu, tanh when dtype() == \\\"float32\\\"\", \"tanh, sigmoid\", \"nn.relu\"]}");
    Result<std::string> python = targetAsTvmPython(target);
    QVERIFY(python.isOk());
    QVERIFY(python->find("@tvm.ir.register_op_attr(\"nn.relu\", \"target.t\")\n"
                         "@tvm.ir.register_op_attr(\"tanh\", \"target.t\")\n"
                         "def _op_rule_0(expr):\n") != std::string::npos);
    QVERIFY(python->find("@tvm.ir.register_op_attr(\"sigmoid\", \"target.t\")\ndef _op_rule_1(expr):\n") != std::string::npos);
    QVERIFY(python->find("# op rule 2 (nn.relu): every op it names is decided by an earlier rule\n") != std::string::npos);
    QVERIFY(python->find("register_op_attr(\"tanh\"", python->find("_op_rule_0")) == std::string::npos);
    QVERIFY(python->find("return []\n") != std::string::npos);
  }

  void errorsNameTheRuleOrPattern_data() {
    QTest::addColumn<QString>("json");
    QTest::addColumn<QString>("error");
    QTest::newRow("op rule") << "{\"format\": \"byoc-studio-target\", \"version\": 1, \"name\": \"t\",\n"
        "        \"op_rules\": [\"add\", \"nn.relu when size(arg0) > 1\"]}"
                             << "at /op_rules/1 (nn.relu): 1:14: unknown function 'size'; expected op, dtype, shape, rank, numel, attr, "
                                "is_constant, num_args, arg_dtypes or static_shape";
    QTest::newRow("pattern") << "{\"format\": \"byoc-studio-target\", \"version\": 1, \"name\": \"t\",\n"
        "        \"patterns\": [{\"name\": \"t.ok\", \"pattern\": \"nn.relu(*)\"}, {\"name\": \"t.call\", \"pattern\": \"@helper(*)\"}]}"
                             << "at /patterns/1/pattern (t.call): @helper (a global function) has no TVM pattern: TVM's is_expr "
                                "compares global functions by identity, not by name";
    QTest::newRow("check") << "{\"format\": \"byoc-studio-target\", \"version\": 1, \"name\": \"t\",\n"
        "        \"patterns\": [{\"name\": \"t.relu\", \"pattern\": \"nn.relu(*)\", \"check\": \"op(arg0, arg1) == \\\"add\\\"\"}]}"
                           << "at /patterns/0/check (t.relu): 1:1: op() takes at most 1 argument(s)";
  }

  void errorsNameTheRuleOrPattern() {
    QFETCH(QString, json);
    QFETCH(QString, error);
    // Rules that cannot be checked are refused when the target is read; the rest when it is written.
    Result<Target> target = parseTarget(json.toStdString(), "t.json");
    if (!target) {
      QCOMPARE(QString::fromStdString(target.error().message), error);
      return;
    }
    Result<std::string> python = targetAsTvmPython(*target);
    QVERIFY(!python.isOk());
    QCOMPARE(QString::fromStdString(python.error().message), error);
  }
};

QTEST_GUILESS_MAIN(TestTvmPython)
#include "test_tvm_python.moc"
