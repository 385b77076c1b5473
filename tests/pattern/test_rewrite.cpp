#include <QtTest>

#include "ir/op.h"
#include "pattern/partition.h"
#include "pattern/pattern_parser.h"
#include "pattern/rewrite.h"
#include "pattern_test_util.h"

using namespace byoc;
using testing::parseMain;
using testing::printBody;

namespace {

/// Registers `ewise_fma(a, b, c) = a * b + c` once, as a backend author would register a fused op.
void registerFusedMultiplyAdd() {
  OpRegistry& registry = OpRegistry::global();
  if (registry.find("ewise_fma")) return;
  OpDef def;
  def.name = "ewise_fma";
  def.summary = "a * b + c, elementwise";
  def.inputs = {"a", "b", "c"};
  def.fusion = FusionKind::Elementwise;
  def.relation = [](const TypeRelationInput& input) -> Result<Type> { return input.args[0]; };
  Status added = registry.add(std::move(def));
  if (!added) qFatal("%s", added.error().str().c_str());
}

Pattern parsed(const std::string& text) {
  Result<Pattern> pattern = parsePattern(text);
  if (!pattern) qFatal("%s", pattern.error().str().c_str());
  return *pattern;
}

/// The node a pattern node (found by name among the pattern's call arguments) matched.
Expr bound(const PatternNodeMap& nodes, const Pattern& pattern) { return nodes.at(pattern).front(); }

/// Drops the last field of a concatenation; a single field replaces the concatenation.
RewriteCallback dropLastConcatField(bool once) {
  RewriteCallback callback;
  callback.pattern = isCallAnyArgs(isOp("concatenate"));
  callback.rewriteOnce = once;
  callback.function = [](const Expr&, const Expr& post, const PatternNodeMap&) -> Result<Expr> {
    const auto* fields = post->as<CallNode>()->args[0]->as<TupleNode>();
    std::vector<Expr> kept(fields->fields.begin(), fields->fields.end() - 1);
    if (kept.empty()) return fields->fields.front();
    BYOC_ASSIGN_OR_RETURN(Call call, makeOpCall("concatenate", {TupleNode::make(std::move(kept))}, {{"axis", 0}}));
    return Expr(call);
  };
  return callback;
}

}  // namespace

/// rewrite() to a fixed point, and the two examples of seed 002 (fused multiply-add; dense+add outlined).
class TestRewrite : public QObject {
  Q_OBJECT

 private slots:
  void seed002MultiplyAddBecomesOneFusedOp() {
    registerFusedMultiplyAdd();
    Pattern a = wildcard();
    Pattern b = wildcard();
    Pattern c = wildcard();
    RewriteCallback fma;
    fma.pattern = callOp("add", {callOp("multiply", {a, b}), c});
    fma.function = [&](const Expr&, const Expr&, const PatternNodeMap& nodes) -> Result<Expr> {
      BYOC_ASSIGN_OR_RETURN(Call call, makeOpCall("ewise_fma", {bound(nodes, a), bound(nodes, b), bound(nodes, c)}));
      return Expr(call);
    };
    Function main = parseMain(
        "fn (%x: Tensor[(3, 4), float32], %y: Tensor[(3, 4), float32]) { %0 = multiply(%x, %y); add(%0, %y) }", true);
    Result<Expr> out = rewrite({fma}, main->body);
    QVERIFY(out.isOk());
    QCOMPARE(printBody(*out), std::string("ewise_fma(%x, %y, %y)"));
  }

  void seed002DenseAddIsOutlinedAsPrimitiveFunctions() {
    Function mlp = parseMain(
        "fn (%x: Tensor[(1, 784), float32], %w0: Tensor[(128, 784), float32], %b0: Tensor[(128), float32], "
        "%w1: Tensor[(10, 128), float32], %b1: Tensor[(10), float32]) {\n"
        "  %0 = nn.dense(%x, %w0); %1 = add(%0, %b0); %2 = nn.relu(%1); %3 = nn.dense(%2, %w1); add(%3, %b1)\n"
        "}",
        true);
    Result<Expr> out = partition(parsed("add(nn.dense(*, *), *)"), mlp->body, {{"Primitive", AttrValue(1)}});
    QVERIFY(out.isOk());
    QCOMPARE(
        testing::printAsFunction(mlp, *out),
        std::string("fn (%x: Tensor[(1, 784), float32], %w0: Tensor[(128, 784), float32], %b0: Tensor[(128), float32], "
                    "%w1: Tensor[(10, 128), float32], %b1: Tensor[(10), float32]) {\n"
                    "  %2 = fn (%FunctionVar_1_0: Tensor[(1, 784), float32], %FunctionVar_1_1: Tensor[(128, 784), float32], "
                         "%FunctionVar_1_2: Tensor[(128), float32], "
                    "PartitionedFromPattern=\"nn.dense_add_\", Primitive=1) {\n"
                    "    %1 = nn.dense(%FunctionVar_1_0, %FunctionVar_1_1, units=None);\n"
                    "    add(%1, %FunctionVar_1_2)\n"
                    "  };\n"
                    "  %3 = %2(%x, %w0, %b0);\n"
                    "  %4 = nn.relu(%3);\n"
                    "  %5 = fn (%FunctionVar_0_0: Tensor[(1, 128), float32], %FunctionVar_0_1: Tensor[(10, 128), float32], "
                         "%FunctionVar_0_2: Tensor[(10), float32], "
                    "PartitionedFromPattern=\"nn.dense_add_\", Primitive=1) {\n"
                    "    %0 = nn.dense(%FunctionVar_0_0, %FunctionVar_0_1, units=None);\n"
                    "    add(%0, %FunctionVar_0_2)\n"
                    "  };\n"
                    "  %5(%4, %w1, %b1)\n"
                    "}"));
  }

  void runsToAFixedPoint() {
    Function concat = parseMain("fn (%x, %y, %z) { concatenate((%x, %y, %z), axis=0) }");
    Result<Expr> out = rewrite({dropLastConcatField(false)}, concat->body);
    QVERIFY(out.isOk());
    QCOMPARE(printBody(*out), std::string("%x"));
  }

  void rewriteOnceStopsAfterTheFirstChange() {
    Function concat = parseMain("fn (%x, %y, %z) { concatenate((%x, %y, %z), axis=0) }");
    Result<Expr> out = rewrite({dropLastConcatField(true)}, concat->body);
    QVERIFY(out.isOk());
    QCOMPARE(printBody(*out), std::string("%0 = (%x, %y);\nconcatenate(%0)"));
  }

  void nodeMapHoldsRewrittenNodes() {
    // Both relus are roots of their own group; the outer one sees the inner one already rewritten.
    Pattern inner = wildcard();
    RewriteCallback toTanh;
    toTanh.pattern = callOp("nn.relu", {inner});
    std::vector<std::string> seen;
    toTanh.function = [&](const Expr&, const Expr&, const PatternNodeMap& nodes) -> Result<Expr> {
      seen.push_back(describeExpr(bound(nodes, inner)));
      BYOC_ASSIGN_OR_RETURN(Call call, makeOpCall("tanh", {bound(nodes, inner)}));
      return Expr(call);
    };
    Function chain = parseMain("fn (%x) { nn.relu(nn.relu(%x)) }");
    Result<Expr> out = rewrite({toTanh}, chain->body);
    QVERIFY(out.isOk());
    QCOMPARE(printBody(*out), std::string("%0 = tanh(%x);\ntanh(%0)"));
    QCOMPARE(seen, (std::vector<std::string>{"variable %x", "a call of tanh"}));
  }

  void endlessRewritesAreAnError() {
    RewriteCallback grow;
    grow.pattern = callOp("nn.relu", {wildcard()});
    grow.function = [](const Expr&, const Expr& post, const PatternNodeMap&) -> Result<Expr> {
      BYOC_ASSIGN_OR_RETURN(Call call, makeOpCall("tanh", {post}));
      return Expr(call);
    };
    Function relu = parseMain("fn (%x) { nn.relu(%x) }");
    Result<Expr> out = rewrite({grow}, relu->body);
    QVERIFY(!out.isOk());
    QCOMPARE(out.error().message,
             std::string("rewrite: no fixed point after 100 callback passes (possible conflicting rewrites)"));
  }

  void callbackErrorsStopTheRewrite() {
    RewriteCallback failing;
    failing.pattern = callOp("nn.relu", {wildcard()});
    failing.function = [](const Expr&, const Expr&, const PatternNodeMap&) -> Result<Expr> {
      return makeError("cannot rewrite this relu");
    };
    Result<Expr> out = rewrite({failing}, parseMain("fn (%x) { nn.relu(%x) }")->body);
    QVERIFY(!out.isOk());
    QCOMPARE(out.error().message, std::string("cannot rewrite this relu"));
  }

  void typesAreRequestedWhenRequired() {
    RewriteCallback typed;
    typed.pattern = hasDType(callOp("nn.relu", {wildcard()}), DType::Float32);
    typed.requireType = true;
    typed.function = [](const Expr&, const Expr& post, const PatternNodeMap&) -> Result<Expr> {
      BYOC_ASSIGN_OR_RETURN(Call call, makeOpCall("tanh", {post->as<CallNode>()->args[0]}));
      return Expr(call);
    };
    Function relu = parseMain("fn (%x: Tensor[(2), float32]) { nn.relu(%x) }");
    Result<Expr> missing = rewrite({typed}, relu->body);
    QVERIFY(!missing.isOk());
    QCOMPARE(missing.error().message,
             std::string("rewrite: a callback requires types but no type inference was given"));
    int typings = 0;
    ExprTyper typer = [&](const Expr& expr) -> Result<Expr> {
      ++typings;
      Module module;
      module.set("main", FunctionNode::make(relu->params, expr));
      BYOC_ASSIGN_OR_RETURN(Module checked, inferTypes(module));
      return checked.find("main")->body;
    };
    Result<Expr> out = rewrite({typed}, relu->body, typer);
    QVERIFY(out.isOk());
    QCOMPARE(printBody(*out), std::string("tanh(%x)"));
    QCOMPARE(typings, 2);
  }
};

QTEST_GUILESS_MAIN(TestRewrite)
#include "test_rewrite.moc"
