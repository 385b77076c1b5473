/// \file
/// The verifier: a well-formed module passes, and each kind of violation is caught with a
/// precise message; the verifier instrument fails the pass that broke an invariant.

#include <QtTest>

#include "ir/op.h"
#include "ir/traversal.h"
#include "pass/infer_type.h"
#include "pass/verifier.h"
#include "text/parser.h"

using namespace byoc;

namespace {

Module typedModule(const char* text) {
  Result<Module> parsed = parseModule(text, "v.relay");
  if (!parsed) qFatal("%s", parsed.error().str().c_str());
  Result<Module> typed = inferTypes(*parsed);
  if (!typed) qFatal("%s", typed.error().str().c_str());
  return *typed;
}

Type vector(int64_t size) { return tensorType({size}, DType::Float32); }

}  // namespace

class TestVerifier : public QObject {
  Q_OBJECT

 private slots:
  void aTypedLoadedModulePasses() {
    Module module = typedModule(
        "def @main(%x: Tensor[(2), float32]) {\n"
        "  %0 = annotation.compiler_begin(%x, compiler=\"t\");\n"
        "  %1 = nn.relu(%0);\n"
        "  %2 = annotation.compiler_end(%1, compiler=\"t\");\n"
        "  negative(%2)\n"
        "}\n");
    Status status = verifyModule(module);
    QVERIFY2(status.isOk(), status.isOk() ? "" : status.error().str().c_str());
  }

  void missingType() {
    Result<Module> parsed = parseModule("def @main(%x: Tensor[(2), float32]) {\n  negative(%x)\n}\n", "v.relay");
    QVERIFY(parsed.isOk());
    Status status = verifyModule(*parsed);
    QVERIFY(!status.isOk());
    QCOMPARE(QString::fromStdString(status.error().str()),
             QStringLiteral("v.relay:2:3: verifier: missing type (call of negative in @main)"));
  }

  void staleType() {
    Module module = typedModule("def @main(%x: Tensor[(2), float32]) {\n  negative(%x)\n}\n");
    Function main = module.find("main");
    Expr wrongBody = withType(main->body, vector(3));
    Function broken = downcast<FunctionNode>(withType(
        FunctionNode::make(main->params, wrongBody, main->retType, main->attrs, main->origin()), main->type()));
    module.set("main", broken);
    Status status = verifyModule(module);
    QVERIFY(!status.isOk());
    QCOMPARE(QString::fromStdString(status.error().str()),
             QStringLiteral("verifier: stale types in @main: InferType would change them"));
  }

  void unboundVariable() {
    Var x = VarNode::make("x", vector(2), Origin::single(1));
    Var y = VarNode::make("y", vector(2), Origin::single(2));
    Module module;
    module.set("main", FunctionNode::make({x}, makeOpCall("add", {x, y}, {}, Origin::single(3)).value(), {}, {},
                                          Origin::single(4)));
    Status status = verifyModule(module);
    QVERIFY(!status.isOk());
    QCOMPARE(QString::fromStdString(status.error().str()),
             QStringLiteral("verifier: variable used but not bound in its function (variable %y in @main)"));
  }

  void missingOrigin() {
    Var x = VarNode::make("x", vector(2), Origin::single(1));
    Module module;
    module.set("main", FunctionNode::make({x}, makeOpCall("negative", {x}).value(), {}, {}, Origin::single(2)));
    Result<Module> typed = inferTypes(module);
    QVERIFY(typed.isOk());
    Status status = verifyModule(*typed);
    QVERIFY(!status.isOk());
    QCOMPARE(QString::fromStdString(status.error().str()),
             QStringLiteral("verifier: missing origin (call of negative in @main)"));
    VerifyOptions withoutOrigins;
    withoutOrigins.origins = false;
    QVERIFY(verifyModule(*typed, withoutOrigins).isOk());
  }

  void unbalancedAnnotations_data() {
    QTest::addColumn<QString>("body");
    QTest::addColumn<QString>("message");
    QTest::newRow("region never closed")
        << "  %0 = annotation.compiler_begin(%x, compiler=\"t\");\n  nn.relu(%0)\n"
        << "v.relay:1:10: verifier: the function returns a value still inside a region of t: a compiler_end is "
           "missing (function in @main)";
    QTest::newRow("end of a host value")
        << "  %0 = nn.relu(%x);\n  annotation.compiler_end(%0, compiler=\"t\")\n"
        << "v.relay:3:3: verifier: compiler_end(t) closes a value computed in the host (call of "
           "annotation.compiler_end in @main)";
    QTest::newRow("end of another target")
        << "  %0 = annotation.compiler_begin(%x, compiler=\"u\");\n  annotation.compiler_end(%0, compiler=\"t\")\n"
        << "v.relay:3:3: verifier: compiler_end(t) closes a value computed in a region of u (call of "
           "annotation.compiler_end in @main)";
    QTest::newRow("two regions mixed")
        << "  %0 = annotation.compiler_begin(%x, compiler=\"t\");\n"
           "  %1 = annotation.compiler_begin(%x, compiler=\"u\");\n  add(%0, %1)\n"
        << "v.relay:4:3: verifier: combines values of a region of t and a region of u without "
           "compiler_end/compiler_begin (call of add in @main)";
    QTest::newRow("region and host mixed")
        << "  %0 = annotation.compiler_begin(%x, compiler=\"t\");\n  %1 = nn.relu(%x);\n  add(%0, %1)\n"
        << "v.relay:4:3: verifier: combines values of a region of t and the host without "
           "compiler_end/compiler_begin (call of add in @main)";
    QTest::newRow("begin inside a region")
        << "  %0 = annotation.compiler_begin(%x, compiler=\"t\");\n"
           "  %1 = annotation.compiler_begin(%0, compiler=\"u\");\n  annotation.compiler_end(%1, compiler=\"u\")\n"
        << "v.relay:3:8: verifier: compiler_begin(u) opens a region on a value still inside a region of t (call of "
           "annotation.compiler_begin in @main)";
    QTest::newRow("a region feeding itself")
        << "  %0 = annotation.compiler_begin(%x, compiler=\"t\");\n"
           "  %1 = nn.relu(%0);\n"
           "  %2 = annotation.compiler_end(%1, compiler=\"t\");\n"
           "  %3 = negative(%2);\n"
           "  %4 = annotation.compiler_begin(%3, compiler=\"t\");\n"
           "  %5 = add(%1, %4);\n"
           "  annotation.compiler_end(%5, compiler=\"t\")\n"
        << "v.relay:6:8: verifier: the region of t takes a value computed from its own output: outlining it would "
           "create a cycle (call of annotation.compiler_begin in @main)";
  }

  void unbalancedAnnotations() {
    QFETCH(QString, body);
    QFETCH(QString, message);
    Module module = typedModule(("def @main(%x: Tensor[(2), float32]) {\n" + body.toStdString() + "}\n").c_str());
    Status status = verifyModule(module);
    QVERIFY(!status.isOk());
    QCOMPARE(QString::fromStdString(status.error().str()), message);
  }

  void theInstrumentCatchesAFalseNoChangeClaim() {
    Module module = typedModule("def @main(%x: Tensor[(2), float32]) {\n  negative(%x)\n}\n");
    PassPtr lying = makeModulePass({"Lie", "changes but says not", 0, {}}, [](const Module& input, PassContext&) {
      Module output = input;
      output.erase("main");
      return Result<PassResult>(PassResult{output, false});
    });
    PassContext context;
    context.instruments = {makeVerifierInstrument()};
    Result<PassResult> result = (*lying)(module, context);
    QVERIFY(!result.isOk());
    QCOMPARE(result.error().message, std::string("after Lie: the pass reported no change but returned a different module"));
  }

  void theInstrumentFailsTheBreakingPass() {
    Module module = typedModule("def @main(%x: Tensor[(2), float32]) {\n  negative(%x)\n}\n");
    PassPtr breaking = makeModulePass({"Break", "drops the types", 0, {}}, [](const Module& input, PassContext&) {
      Function main = input.find("main");
      Module output = input;
      output.set("main", FunctionNode::make(main->params, main->body, main->retType, main->attrs, main->origin()));
      return Result<PassResult>(PassResult{output, true});
    });
    PassContext context;
    context.instruments = {makeVerifierInstrument()};
    Result<PassResult> result = (*breaking)(module, context);
    QVERIFY(!result.isOk());
    QCOMPARE(QString::fromStdString(result.error().str()),
             QStringLiteral("v.relay:1:10: after Break: verifier: missing type (function in @main)"));
  }
};

QTEST_GUILESS_MAIN(TestVerifier)
#include "test_verifier.moc"
