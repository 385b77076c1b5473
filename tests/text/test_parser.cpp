#include <QtTest>

#include "ir/op.h"
#include "test_files.h"
#include "pass/infer_type.h"
#include "text/parser.h"
#include "text/printer.h"
#include "text/scalar_literal.h"

using namespace byoc;

namespace {

std::string parseError(const std::string& text) {
  Result<Module> module = parseModule(text, "in.relay");
  return module ? std::string("<parsed>") : module.error().str();
}

Function mainOf(const std::string& text) {
  Result<Module> module = parseModule(text, "in.relay");
  if (!module) qFatal("%s", module.error().str().c_str());
  return module->find("main");
}

}  // namespace

/// The Relay text parser: every construct, and precise errors.
class TestParser : public QObject {
  Q_OBJECT

 private slots:
  void parsesTheDemo() {
    Result<Module> module = parseModule(testing::readTestData("text/demo.relay"), "demo.relay");
    QVERIFY2(module.isOk(), module ? "" : module.error().str().c_str());
    Function main = module->find("main");
    QVERIFY(main);
    QCOMPARE(main->params.size(), std::size_t{3});
    const auto* let = main->body->as<LetNode>();
    QVERIFY(let);
    QCOMPARE(let->var->name, std::string("while_loop"));
    const auto* loop = let->value->as<FunctionNode>();
    QVERIFY(loop && loop->body->as<IfNode>());
    // The recursive call refers to the very variable the let binds.
    const auto* thenCall = loop->body->as<IfNode>()->thenBranch->as<CallNode>();
    QVERIFY(thenCall && thenCall->callee == Expr(let->var));
  }

  void recordsWhereEveryNodeWasWritten() {
    Result<Module> module = parseModule("#[version = \"0.0.5\"]\ndef @main(%x: int32) {\n  add(%x, 1)\n}\n", "m.relay");
    QVERIFY(module.isOk());
    Expr body = module->find("main")->body;
    QCOMPARE(module->locate(body)->str(), std::string("m.relay:3:3"));
    QCOMPARE(module->locate(body->as<CallNode>()->args[1])->str(), std::string("m.relay:3:11"));
  }

  void sharedTemporariesStayShared() {
    Function main = mainOf("def @main(%x: float32) { %0 = nn.relu(%x); add(%0, %0) }");
    const auto* add = main->body->as<CallNode>();
    QVERIFY(add->args[0] == add->args[1]);
  }

  void literalsTakeTheirSuffixDType_data() {
    QTest::addColumn<QString>("literal");
    QTest::addColumn<QString>("type");
    QTest::addColumn<double>("value");
    QTest::newRow("int32") << "2" << "int32" << 2.0;
    QTest::newRow("int64") << "0i64" << "int64" << 0.0;
    QTest::newRow("negative") << "-3" << "int32" << -3.0;
    QTest::newRow("float32") << "1f" << "float32" << 1.0;
    QTest::newRow("fraction") << "1.5f" << "float32" << 1.5;
    QTest::newRow("exponent") << "1e-05f" << "float32" << static_cast<double>(1e-05f);
    QTest::newRow("float16") << "0.5f16" << "float16" << 0.5;
    QTest::newRow("float64") << "2.25f64" << "float64" << 2.25;
    QTest::newRow("bool") << "True" << "bool" << 1.0;
    QTest::newRow("int8 lowest") << "-128i8" << "int8" << -128.0;
    QTest::newRow("uint8 highest") << "255u8" << "uint8" << 255.0;
    QTest::newRow("float32 highest") << "3.4028235e38f" << "float32" << static_cast<double>(std::numeric_limits<float>::max());
    QTest::newRow("float16 highest") << "65504f16" << "float16" << 65504.0;
    QTest::newRow("float16 nearest") << "-3.01333f16" << "float16" << -3.013671875;
    QTest::newRow("float16 subnormal") << "1e-7f16" << "float16" << std::ldexp(2, -24);
    QTest::newRow("too small rounds to 0") << "1e-400f64" << "float64" << 0.0;
  }
  void literalsTakeTheirSuffixDType() {
    QFETCH(QString, literal);
    QFETCH(QString, type);
    QFETCH(double, value);
    Function main = mainOf("def @main() { " + literal.toStdString() + " }");
    const auto* constant = main->body->as<ConstantNode>();
    QVERIFY(constant);
    QCOMPARE(QString::fromStdString(typeToString(constant->type())), type);
    QCOMPARE(constant->data.elementAsDouble(0), value);
    // The literal prints as the shortest text that reads back to the same value.
    const std::string printed = *scalarLiteralText(constant->data);
    QCOMPARE(mainOf("def @main() { " + printed + " }")->body->as<ConstantNode>()->data.elementAsDouble(0), value);
  }

  void int64LiteralsKeepEveryDigit_data() {
    QTest::addColumn<QString>("literal");
    QTest::newRow("highest") << "9223372036854775807i64";
    QTest::newRow("lowest") << "-9223372036854775808i64";
    QTest::newRow("beyond 2^53") << "9007199254740993i64";
  }
  void int64LiteralsKeepEveryDigit() {
    QFETCH(QString, literal);
    Function main = mainOf("def @main() { " + literal.toStdString() + " }");
    const auto* constant = main->body->as<ConstantNode>();
    QVERIFY(constant);
    QCOMPARE(QString::fromStdString(scalarLiteralText(constant->data).value_or("")), literal);
  }

  void parsesTuplesProjectionsAndTypes() {
    Function main = mainOf(
        "fn (%a: Tensor[(2, ?), float32], %t: (int32, Tensor[(3), bool]), %f: fn (int32) -> int32) -> (int32,) {"
        " %0 = (%t.0,); %1 = (); %0 }");
    QCOMPARE(typeToString(main->params[0]->annotation), std::string("Tensor[(2, ?), float32]"));
    QCOMPARE(typeToString(main->params[1]->annotation), std::string("(int32, Tensor[(3), bool])"));
    QCOMPARE(typeToString(main->params[2]->annotation), std::string("fn (int32) -> int32"));
    const auto* tuple = main->body->as<TupleNode>();
    QVERIFY(tuple && tuple->fields.size() == 1);
    QVERIFY(tuple->fields[0]->as<TupleGetItemNode>());
  }

  void parsesAttributesAndFunctionAttributes() {
    Function main = mainOf(
        "def @main(%x: Tensor[(1, 4, 8, 8), float32], %w: Tensor[(4, 4, 3, 3), float32]) {"
        " %0 = fn (%a, %b, Composite=\"t.conv\", Primitive=1) { nn.conv2d(%a, %b, strides=[2, 2], padding=[1, 1], data_layout=\"NCHW\") };"
        " %0(%x, %w) }");
    const auto* call = main->body->as<CallNode>();
    const auto* composite = call->callee->as<FunctionNode>();
    QVERIFY(composite);
    QCOMPARE(composite->attrs.find("Composite")->asString(), std::string("t.conv"));
    QCOMPARE(composite->attrs.find("Primitive")->asInt(), int64_t{1});
    const auto* conv = composite->body->as<CallNode>();
    QCOMPARE(conv->attrs.find("padding")->str(), std::string("[1, 1, 1, 1]"));  // normalised
    QCOMPARE(conv->attrs.find("strides")->str(), std::string("[2, 2]"));
  }

  void parsesMetadataConstants() {
    Function main = mainOf(
        "def @main(%x: Tensor[(2), float32]) { add(%x, meta[relay.Constant][0]) }\n"
        "#[metadata]\n{\"relay.Constant\": [{\"name\": \"b\", \"dtype\": \"float32\", \"shape\": [2], \"data\": \"AACAPwAAAEA=\"}]}\n");
    const auto* constant = main->body->as<CallNode>()->args[1]->as<ConstantNode>();
    QVERIFY(constant);
    QCOMPARE(constant->data.elementAsDouble(1), 2.0);
  }

  void parsesModulesWithSeveralFunctions() {
    Result<Module> module = parseModule(
        "def @main(%x: int32) -> int32 { @helper(%x) }\ndef @helper(%y: int32) -> int32 { %y }", "m.relay");
    QVERIFY(module.isOk());
    QCOMPARE(module->functions().size(), std::size_t{2});
    QCOMPARE(module->find("main")->body->as<CallNode>()->callee->as<GlobalVarNode>()->name, std::string("helper"));
  }

  void longProgramsParseWithoutDeepRecursion() {
    std::string text = "def @main(%x: float32) {\n";
    for (int i = 0; i < 100000; ++i)
      text += "  %" + std::to_string(i) + " = nn.relu(" + (i ? "%" + std::to_string(i - 1) : std::string("%x")) + ");\n";
    text += "  %99999\n}\n";
    Result<Module> module = parseModule(text, "long.relay");
    QVERIFY(module.isOk());
    Result<Module> typed = inferTypes(*module);
    QVERIFY(typed.isOk());
    QCOMPARE(typeToString(typed->find("main")->body->type()), std::string("float32"));
    PrintOptions options;
    options.showTypes = true;
    std::string printed = printModule(*typed, options);
    QVERIFY(printed.find("%99998 = nn.relu(%99997) /* ty=float32 */;\n  nn.relu(%99998) /* ty=float32 */\n}") != std::string::npos);
    Result<Module> reparsed = parseModule(printed, "printed.relay");
    QVERIFY(reparsed.isOk());
    QCOMPARE(printModule(*inferTypes(*reparsed), options), printed);
  }

  void badInputsGiveLineColumnAndExpectation_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("error");
    QTest::newRow("missing expression") << "def @main(%x: int32) {\n  add(%x, )\n}" << "in.relay:2:11: found ')', expected an expression";
    QTest::newRow("undefined var") << "def @main(%x: int32) {\n  %y\n}" << "in.relay:2:3: undefined variable %y";
    QTest::newRow("unknown op") << "def @main(%x: int32) {\n  nn.frob(%x)\n}" << "in.relay:2:3: unknown op 'nn.frob'";
    QTest::newRow("bad attribute") << "def @main(%x: Tensor[(1), float32]) {\n  nn.relu(%x, alpha=1)\n}"
                                   << "in.relay:2:3: nn.relu has no attribute 'alpha'; it takes none";
    QTest::newRow("bad dtype") << "def @main(%x: Tensor[(1), float33]) { %x }" << "in.relay:1:27: unknown dtype 'float33'";
    QTest::newRow("unknown global") << "def @main(%x: int32) { @nope(%x) }" << "in.relay:1:24: unknown global function @nope";
    QTest::newRow("missing brace") << "def @main(%x: int32) {\n  %x\n" << "in.relay:3:1: found the end of the input, expected '}'";
    QTest::newRow("missing else") << "def @main(%c: bool) { if (%c) { 1 } }" << "in.relay:1:37: found '}', expected 'else'";
    QTest::newRow("bad character") << "def @main() { $ }" << "in.relay:1:15: unexpected character '$'";
    QTest::newRow("unterminated string") << "def @main(%x: int32, A=\"open) { %x }" << "in.relay:1:24: unterminated string";
    QTest::newRow("bad suffix") << "def @main() { 2q8 }" << "in.relay:1:16: found 'q8', expected '}'";
    QTest::newRow("unknown suffix") << "def @main() { 2i7 }" << "in.relay:1:15: unknown literal suffix 'i7'; expected f, f16, f64, i8, i16, i32, i64 or u8";
    QTest::newRow("duplicate def") << "def @main() { 1 }\ndef @main() { 2 }" << "in.relay:2:5: @main is defined twice";
    QTest::newRow("meta index") << "def @main() { meta[relay.Constant][3] }" << "in.relay:1:36: meta[relay.Constant][3] does not exist: the metadata section has 0 constant(s)";
    QTest::newRow("comment") << "def @main() { /* never closed }" << "in.relay:1:15: unterminated comment";
    QTest::newRow("not a function") << "%x" << "in.relay:1:1: undefined variable %x";
    QTest::newRow("int32 overflow") << "def @main() { 2147483648 }" << "in.relay:1:15: integer literal '2147483648' is out of range for int32; expected -2147483648 to 2147483647";
    QTest::newRow("int8 overflow") << "def @main() { -129i8 }" << "in.relay:1:15: integer literal '-129i8' is out of range for int8; expected -128 to 127";
    QTest::newRow("float16 overflow") << "def @main() { 65505f16 }" << "in.relay:1:15: float literal '65505f16' is out of range for float16; expected a magnitude up to 65504";
    QTest::newRow("float32 overflow") << "def @main() { -3.5e38f }" << "in.relay:1:15: float literal '-3.5e38f' is out of range for float32; expected a magnitude up to 3.40282e+38";
    QTest::newRow("negative tuple index") << "def @main(%t: (int32,)) { %t.-1 }" << "in.relay:1:30: tuple index '-1' is out of range; expected 0 to 2147483647";
    QTest::newRow("negative meta index") << "def @main() { meta[relay.Constant][-1] }" << "in.relay:1:36: meta[relay.Constant][-1] does not exist: the metadata section has 0 constant(s)";
    QTest::newRow("negative dimension") << "def @main(%x: Tensor[(-2), int32]) { %x }" << "in.relay:1:15: tensor shape: dimension 0 is -2, expected 0 or more";
    QTest::newRow("unknown dimension") << "def @main(%x: Tensor[(-1, 4294967296, 2), int32]) { %x }" << "in.relay:1:15: tensor shape: more than 4294967296 elements (the limit of one tensor)";
    QTest::newRow("metadata shape") << "def @main() { meta[relay.Constant][0] }\n#[metadata]\n{\"relay.Constant\": [{\"dtype\": \"int8\", \"shape\": [-1], \"data\": \"\"}]}"
                                    << "in.relay:2:1: metadata: relay.Constant[0]: shape: dimension 0 is -1, expected 0 or more";
  }
  void badInputsGiveLineColumnAndExpectation() {
    QFETCH(QString, text);
    QFETCH(QString, error);
    QCOMPARE(QString::fromStdString(parseError(text.toStdString())), error);
  }

  void deeplyNestedTextIsRefusedNotACrash() {
    std::string text = "def @main(%x: float32) { ";
    for (int i = 0; i < 1000; ++i) text += "nn.relu(";
    text += "%x";
    for (int i = 0; i < 1000; ++i) text += ")";
    text += " }";
    QVERIFY(parseError(text).find("expressions are nested more than 500 deep") != std::string::npos);
  }

  void nestingIsBoundedInEveryRule_data() {
    QTest::addColumn<QString>("open");
    QTest::addColumn<QString>("middle");
    QTest::addColumn<QString>("close");
    QTest::addColumn<QString>("error");
    QTest::newRow("tuple types") << "def @main(%x: " << "(" << "int32,)" << "types are nested more than 500 deep";
    QTest::newRow("function types") << "def @main(%x: " << "fn () -> " << "" << "types are nested more than 500 deep";
    QTest::newRow("attribute lists") << "def @main(%x: int32) { transpose(%x, axes=" << "[" << "]" << "attribute lists are nested more than 500 deep";
  }
  void nestingIsBoundedInEveryRule() {
    QFETCH(QString, open);
    QFETCH(QString, middle);
    QFETCH(QString, close);
    QFETCH(QString, error);
    // Deep enough to overflow the stack of a recursive parser without a bound.
    std::string text = open.toStdString();
    for (int i = 0; i < 100000; ++i) text += middle.toStdString();
    text += "int32";
    for (int i = 0; i < 100000; ++i) text += close.toStdString();
    const std::string message = parseError(text);
    QVERIFY2(message.find(error.toStdString()) != std::string::npos, message.c_str());
  }

  void nestingJustBelowTheLimitParses() {
    std::string type = "int32";
    for (int i = 0; i < 499; ++i) type = "(" + type + ",)";
    QCOMPARE(parseError("def @main(%x: " + type + ") { %x }"), std::string("<parsed>"));
  }
};

QTEST_GUILESS_MAIN(TestParser)
#include "test_parser.moc"
