#include <QtTest>

#include "ir/structural.h"
#include "ir/traversal.h"
#include "pass/infer_type.h"
#include "test_files.h"
#include "text/parser.h"
#include "text/printer.h"

using namespace byoc;

namespace {

Module parsed(const std::string& text) {
  Result<Module> module = parseModule(text, "in.relay");
  if (!module) qFatal("%s", module.error().str().c_str());
  return *module;
}

std::string typeError(const std::string& text) {
  Result<Module> typed = inferTypes(parsed(text));
  return typed ? std::string("<typed>") : typed.error().str();
}

}  // namespace

/// InferType: every node typed, recursion through let-bound functions, precise errors.
class TestInferType : public QObject {
  Q_OBJECT

 private slots:
  void typesEveryNodeOfTheDemo() {
    Result<Module> typed = inferTypes(parsed(testing::readTestData("text/demo.relay")));
    QVERIFY(typed.isOk());
    std::size_t untyped = 0;
    postOrderVisit(*typed, [&](const Expr& node) {
      if (!node->type() && node->kind() != ExprKind::Op) ++untyped;
    });
    QCOMPARE(untyped, std::size_t{0});
    QCOMPARE(typeToString(typed->find("main")->type()),
             std::string("fn (Tensor[(1, 32, 56, 56), float32], Tensor[(32, 32, 3, 3), float32], Tensor[(32), float32]) "
                         "-> Tensor[(1, 56, 56, 32), float32]"));
  }

  void secondRunChangesNothing() {
    Result<Module> once = inferTypes(parsed(testing::readTestData("text/demo.relay")));
    QVERIFY(once.isOk());
    PassContext context;
    Result<PassResult> twice = createInferTypePass()->run(*once, context);
    QVERIFY(twice.isOk());
    QVERIFY(!twice->changed);
    QVERIFY(twice->module.sameNodes(*once));
  }

  void firstRunReportsAChange() {
    Module module = parsed("def @main(%x: int32) { add(%x, 1) }");
    PassContext context;
    Result<PassResult> result = createInferTypePass()->run(module, context);
    QVERIFY(result.isOk());
    QVERIFY(result->changed);
    QVERIFY(!module.find("main")->body->type());  // the input is left untouched
    QCOMPARE(typeToString(result->module.find("main")->retType), std::string("int32"));
  }

  void unannotatedLetTakesTheValueType() {
    Result<Module> typed = inferTypes(parsed("def @main(%x: Tensor[(2, 3), float32]) { let %y = nn.relu(%x); (%y, %y) }"));
    QVERIFY(typed.isOk());
    QCOMPARE(typeToString(typed->find("main")->body->type()),
             std::string("(Tensor[(2, 3), float32], Tensor[(2, 3), float32])"));
  }

  /// Branches whose tensors differ only in sizes (an empty result against a run-time count) give
  /// the `if` a ? there; a rank that differs stays an error.
  void ifBranchesOfDifferentSizesJoin() {
    Result<Module> typed = inferTypes(parsed(
        "def @main(%c: bool, %x: Tensor[(?, 3), int64], %y: Tensor[(0, 3), int64]) { if (%c) { (%y, %x) } else { (%x, %x) } }"));
    QVERIFY2(typed.isOk(), typed ? "" : typed.error().str().c_str());
    QCOMPARE(typeToString(typed->find("main")->body->type()), std::string("(Tensor[(?, 3), int64], Tensor[(?, 3), int64])"));
    Result<Module> ranks = inferTypes(parsed("def @main(%c: bool, %x: Tensor[(2, 3), int64], %y: Tensor[(6), int64]) { if (%c) { %x } else { %y } }"));
    QVERIFY(!ranks.isOk());
  }

  /// A static value may be passed where a parameter has `?` (a loop's first call), as Relay's
  /// unifier accepts it; a size that contradicts a static one may not.
  void staticArgumentsFitUnknownSizes() {
    Result<Module> typed = inferTypes(parsed(
        "def @main(%x: Tensor[(0, 3), int64]) { %0 = fn (%a: Tensor[(?, 3), int64]) { %a }; %0(%x) }"));
    QVERIFY2(typed.isOk(), typed ? "" : typed.error().str().c_str());
    QCOMPARE(typeToString(typed->find("main")->body->type()), std::string("Tensor[(?, 3), int64]"));
    Result<Module> wrong = inferTypes(parsed(
        "def @main(%x: Tensor[(2, 4), int64]) { %0 = fn (%a: Tensor[(?, 3), int64]) { %a }; %0(%x) }"));
    QVERIFY(!wrong.isOk());
    QVERIFY2(wrong.error().message.find("expected Tensor[(?, 3), int64], found Tensor[(2, 4), int64]") != std::string::npos,
             wrong.error().str().c_str());
  }

  void callsOfGlobalFunctionsUseTheirSignature() {
    Result<Module> typed = inferTypes(parsed(
        "def @main(%x: int32) { @twice(%x) }\n"
        "def @twice(%y: int32) -> (int32, int32) { (%y, %y) }"));
    QVERIFY(typed.isOk());
    QCOMPARE(typeToString(typed->find("main")->body->type()), std::string("(int32, int32)"));
  }

  void errorsNameTheSourceLocation_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("error");
    QTest::newRow("op relation") << "def @main(%x: Tensor[(1, 16, 8, 8), float32], %w: Tensor[(8, 4, 3, 3), float32]) {\n"
                                    "  nn.conv2d(%x, %w)\n}"
                                 << "in.relay:2:3: type error: nn.conv2d: input channels 16 do not match weight input channels 4 x groups 1";
    QTest::newRow("broadcast") << "def @main(%x: Tensor[(2, 3), float32], %y: Tensor[(4), float32]) {\n  %0 = nn.relu(%x);\n  add(%0, %y)\n}"
                               << "in.relay:3:3: type error: add: shapes (2, 3) and (4) cannot be broadcast together";
    QTest::newRow("if condition") << "def @main(%x: int32) { if (%x) { 1 } else { 2 } }"
                                  << "in.relay:1:24: type error: the condition of 'if' must be a bool scalar, found int32";
    QTest::newRow("if branches") << "def @main(%c: bool) { if (%c) { 1 } else { 2i64 } }"
                                 << "in.relay:1:23: type error: the branches of 'if' have different types: int32 and int64";
    QTest::newRow("return type") << "def @main(%x: int32) -> int64 { %x }"
                                 << "in.relay:1:10: type error: the function's body has type int32, but its declared return type is int64";
    QTest::newRow("call argument") << "def @main(%x: int64) { %0 = fn (%a: int32) { %a }; %0(%x) }"
                                   << "in.relay:1:52: type error: argument 0 of the call: expected int32, found int64";
    QTest::newRow("arity") << "def @main(%x: int32) { %0 = fn (%a: int32) { %a }; %0(%x, %x) }"
                           << "in.relay:1:52: type error: the call passes 2 argument(s) to a function of 1 parameter(s)";
    QTest::newRow("projection") << "def @main(%x: int32) { %x.0 }"
                                << "in.relay:1:26: type error: '.0' needs a tuple, found int32";
    QTest::newRow("tuple index") << "def @main(%x: int32) { %0 = (%x, %x); %0.2 }"
                                 << "in.relay:1:41: type error: tuple index 2 is out of range for (int32, int32)";
    QTest::newRow("unannotated param") << "def @main(%x) { %x }"
                                       << "in.relay:1:11: type error: cannot infer the type of %x: it has no type annotation";
    QTest::newRow("recursion") << "def @main(%x: int32) { let %f = fn (%a: int32) { %f(%a) }; %f(%x) }"
                               << "in.relay:1:28: type error: cannot infer the type of %f where it is used inside its own definition; annotate it or give the function a return type";
    QTest::newRow("not callable") << "def @main(%x: int32) { %x(%x) }"
                                  << "in.relay:1:24: type error: the callee of a call must be a function, found int32";
  }
  void errorsNameTheSourceLocation() {
    QFETCH(QString, text);
    QFETCH(QString, error);
    QCOMPARE(QString::fromStdString(typeError(text.toStdString())), error);
  }
};

QTEST_GUILESS_MAIN(TestInferType)
#include "test_infer_type.moc"
