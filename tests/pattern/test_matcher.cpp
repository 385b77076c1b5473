#include <QtTest>

#include <algorithm>

#include "ir/op.h"
#include "pattern/find_matches.h"
#include "pattern/matcher.h"
#include "pattern/root_ops.h"
#include "pattern_test_util.h"

using namespace byoc;
using testing::parseMain;

namespace {

Expr bodyOf(const std::string& text, bool typed = false) { return parseMain(text, typed)->body; }

std::string failureReason(const Pattern& pattern, const Expr& expr) {
  std::optional<MatchFailure> failure = explainMismatch(pattern, expr);
  return failure ? failure->reason : std::string("<matched>");
}

/// dominates(conv2d(*, *), (*{TOpPattern=0})(*), add(*, *)).
Pattern diamondDominator() {
  Pattern conv = callOp("nn.conv2d", {wildcard(), wildcard()});
  Pattern elementwise = isCall(hasAttr(wildcard(), {{"TOpPattern", AttrValue(int64_t{0})}}), {wildcard()});
  return dominates(conv, elementwise, callOp("add", {wildcard(), wildcard()}));
}

}  // namespace

/// The matcher rules of TVM's DFPatternMatcher, case by case.
class TestMatcher : public QObject {
  Q_OBJECT

 private slots:
  void diamondMatchesOneSharedConv() {
    Pattern conv = callOp("nn.conv2d", {wildcard(), wildcard()});
    Pattern diamond = callOp("add", {callOp("nn.relu", {conv}), callOp("nn.leaky_relu", {conv})});
    Expr expr = bodyOf("fn (%i, %w) { %0 = nn.conv2d(%i, %w); %1 = nn.relu(%0); %2 = nn.leaky_relu(%0); add(%1, %2) }");
    QVERIFY(matchPattern(diamond, expr));
  }

  void fakeDiamondFailsOnTwoConvs() {
    Pattern conv = callOp("nn.conv2d", {wildcard(), wildcard()});
    Pattern diamond = callOp("add", {callOp("nn.relu", {conv}), callOp("nn.leaky_relu", {conv})});
    Expr expr = bodyOf(
        "fn (%i, %w) { %0 = nn.conv2d(%i, %w); %1 = nn.relu(%0); %2 = nn.conv2d(%i, %w); "
        "%3 = nn.leaky_relu(%2); add(%1, %3) }");
    QVERIFY(!matchPattern(diamond, expr));
    std::optional<MatchFailure> failure = explainMismatch(diamond, expr);
    QVERIFY(failure.has_value());
    QVERIFY(failure->pattern == conv);
    QCOMPARE(failure->reason, std::string("this shared sub-pattern is already bound to a call of nn.conv2d"));
  }

  void sharedWildcardsNeedTheSameNodes() {
    Pattern x = wildcard();
    Pattern y = wildcard();
    Pattern pattern = callOp("multiply", {callOp("add", {x, y}), callOp("subtract", {x, y})});
    QVERIFY(matchPattern(pattern, bodyOf("fn (%a, %b) { multiply(add(%a, %b), subtract(%a, %b)) }")));
    QVERIFY(!matchPattern(pattern, bodyOf("fn (%a, %b, %c) { multiply(add(%a, %b), subtract(%c, %b)) }")));
    Pattern z = wildcard();
    Pattern distinct = callOp("add", {x, z});
    QVERIFY(matchPattern(distinct, bodyOf("fn (%a) { add(%a, %a) }")));
  }

  void addAndMultiplyAreCommutative() {
    for (const char* op : {"add", "multiply"}) {
      Pattern pattern = callOp(op, {wildcard(), callOp("nn.relu", {wildcard()})});
      Expr expr = bodyOf(std::string("fn (%x, %y) { ") + op + "(nn.relu(%x), %y) }");
      QVERIFY2(matchPattern(pattern, expr), op);
    }
  }

  void subtractAndDivideAreNotCommutative() {
    for (const char* op : {"subtract", "divide"}) {
      Pattern pattern = callOp(op, {wildcard(), callOp("nn.relu", {wildcard()})});
      Expr expr = bodyOf(std::string("fn (%x, %y) { ") + op + "(nn.relu(%x), %y) }");
      QVERIFY2(!matchPattern(pattern, expr), op);
    }
  }

  void alternativesAreNotRetried() {
    Pattern x = wildcard();
    Pattern pattern = callOp("subtract", {alt(callOp("nn.relu", {x}), wildcard()), x});
    QVERIFY(matchPattern(pattern, bodyOf("fn (%p) { subtract(nn.relu(%p), %p) }")));
    QVERIFY(matchPattern(pattern, bodyOf("fn (%p, %q) { subtract(tanh(%p), %q) }")));
    // The left side matches nn.relu(%p) and binds x to %p; x then fails on %q and the right
    // side of the alternative, which would have matched, is not tried.
    QVERIFY(!matchPattern(pattern, bodyOf("fn (%p, %q) { subtract(nn.relu(%p), %q) }")));
  }

  void argumentCountMustBeEqual() {
    Pattern any = isCallAnyArgs(isOp("add"));
    Expr expr = bodyOf("fn (%a, %b) { add(%a, %b) }");
    QVERIFY(matchPattern(any, expr));
    QCOMPARE(failureReason(callOp("add", {wildcard()}), expr), std::string("expected 1 arguments, found 2"));
  }

  void opDiffersIsExplained() {
    Pattern conv = callOp("nn.conv2d", {wildcard(), wildcard()});
    Pattern pattern = callOp("nn.relu", {conv});
    Expr expr = bodyOf("fn (%a, %b) { nn.relu(nn.dense(%a, %b)) }");
    std::optional<MatchFailure> failure = explainMismatch(pattern, expr);
    QVERIFY(failure.has_value());
    QCOMPARE(failure->reason, std::string("expected op nn.conv2d, found op nn.dense"));
    QCOMPARE(describeMismatch(*failure), std::string("nn.conv2d at op nn.dense: expected op nn.conv2d, found op nn.dense"));
    QCOMPARE(failureReason(pattern, bodyOf("fn (%a) { nn.relu(%a) }")),
             std::string("expected a call, found variable %a"));
  }

  void hasAttrOnOps() {
    Pattern broadcast = isCall(hasAttr(wildcard(), {{"TOpPattern", AttrValue(int64_t{1})}}), {wildcard(), wildcard()});
    QVERIFY(matchPattern(broadcast, bodyOf("fn (%a, %b) { add(%a, %b) }")));
    QCOMPARE(failureReason(broadcast, bodyOf("fn (%a, %b) { nn.dense(%a, %b) }")),
             std::string("op nn.dense has TOpPattern=4, expected 1"));
    Pattern unknownMap = hasAttr(isOp("add"), {{"TNope", AttrValue(1)}});
    QCOMPARE(failureReason(unknownMap, isOp("add")->as<ExprPatternNode>()->expr),
             std::string("ops have no attribute map 'TNope'"));
  }

  void hasAttrOnCalls() {
    Expr conv = bodyOf("fn (%a, %b) { nn.conv2d(%a, %b, padding=[1, 1, 1, 1]) }");
    Pattern base = callOp("nn.conv2d", {wildcard(), wildcard()});
    QVERIFY(matchPattern(hasAttr(base, {{"data_layout", AttrValue("NCHW")}}), conv));
    QVERIFY(matchPattern(hasAttr(base, {{"padding", AttrValue::ints({1, 1, 1, 1})}}), conv));
    QVERIFY(matchPattern(hasAttr(base, {}), conv));
    QCOMPARE(failureReason(hasAttr(base, {{"data_layout", AttrValue("NHWC")}}), conv),
             std::string("attribute data_layout is \"NCHW\", expected \"NHWC\""));
    QCOMPARE(failureReason(hasAttr(base, {{"nope", AttrValue(1)}}), conv),
             std::string("a call of nn.conv2d has no attribute 'nope'"));
    QVERIFY(matchPattern(hasAttr(wildcard(), {}), bodyOf("fn (%a) { add(%a, %a) }")));
    QCOMPARE(failureReason(hasAttr(wildcard(), {}), bodyOf("fn (%a) { (%a, %a) }")),
             std::string("attributes apply to ops, calls and functions, found a tuple"));
  }

  void hasAttrOnFunctions() {
    Expr call = bodyOf("fn (%a) { %0 = fn (%x, Composite=\"t.relu\") { nn.relu(%x) }; %0(%a) }");
    Pattern composite = isCall(hasAttr(wildcard(), {{"Composite", AttrValue("t.relu")}}), {wildcard()});
    QVERIFY(matchPattern(composite, call));
    Pattern other = isCall(hasAttr(wildcard(), {{"Composite", AttrValue("t.tanh")}}), {wildcard()});
    QCOMPARE(failureReason(other, call), std::string("attribute Composite is \"t.relu\", expected \"t.tanh\""));
  }

  void typeDtypeAndShape() {
    Expr expr = bodyOf("fn (%a: Tensor[(1, 4), float32]) { nn.relu(%a) }", true);
    QVERIFY(matchPattern(hasDType(wildcard(), DType::Float32), expr));
    QVERIFY(matchPattern(hasShape(wildcard(), {1, 4}), expr));
    QVERIFY(matchPattern(hasType(wildcard(), tensorType({1, 4}, DType::Float32)), expr));
    QCOMPARE(failureReason(hasDType(wildcard(), DType::Int8), expr), std::string("dtype is float32, expected int8"));
    QCOMPARE(failureReason(hasShape(wildcard(), {4}), expr), std::string("shape is (1, 4), expected (4)"));
    QCOMPARE(failureReason(hasType(wildcard(), scalarType(DType::Int32)), expr),
             std::string("type is Tensor[(1, 4), float32], expected int32"));
    Expr untyped = bodyOf("fn (%a) { nn.relu(%a) }");
    QCOMPARE(failureReason(hasDType(wildcard(), DType::Float32), untyped),
             std::string("the expression has no checked type (run InferType first)"));
  }

  void varsConstantsTuples() {
    Expr expr = bodyOf("fn (%a, %b) { %0 = (%a, 1f); %0.1 }");
    QVERIFY(matchPattern(isTupleGetItem(isTuple({isVar("a"), isConstant()}), 1), expr));
    QVERIFY(matchPattern(isTupleGetItem(isAnyTuple()), expr));
    QCOMPARE(failureReason(isTupleGetItem(isAnyTuple(), 0), expr), std::string("expected index 0, found 1"));
    QCOMPARE(failureReason(isTupleGetItem(isTuple({isVar("b"), isConstant()}), 1), expr),
             std::string("expected variable %b, found %a"));
    QCOMPARE(failureReason(isTupleGetItem(isTuple({isConstant(), isConstant()}), 1), expr),
             std::string("expected a constant, found variable %a"));
    QCOMPARE(failureReason(isTupleGetItem(isTuple({wildcard()}), 1), expr), std::string("expected 1 fields, found 2"));
  }

  void dominatorMatchesTheDiamond() {
    Expr expr = bodyOf(
        "fn (%i, %w) { %0 = nn.conv2d(%i, %w); %1 = nn.relu(%0); %2 = nn.relu(%1); "
        "%3 = nn.leaky_relu(%0); add(%2, %3) }");
    QVERIFY(matchPattern(diamondDominator(), expr));
  }

  void dominatorRejectsTwoParents() {
    Expr fake = bodyOf(
        "fn (%i, %w) { %0 = nn.conv2d(%i, %w); %1 = nn.relu(%0); %2 = nn.conv2d(%i, %w); "
        "%3 = nn.leaky_relu(%2); add(%1, %3) }");
    QVERIFY(!matchPattern(diamondDominator(), fake));
  }

  void dominatorBindsTheParentOnce() {
    Pattern parent = callOp("nn.conv2d", {wildcard(), wildcard()});
    Pattern path = callOp("nn.relu", {wildcard()});
    Pattern pattern = dominates(parent, path, callOp("add", {wildcard(), wildcard()}));
    Expr expr = bodyOf(
        "fn (%x, %w) { %0 = nn.conv2d(%x, %w); %1 = tanh(%0); %2 = nn.conv2d(%1, %w); %3 = nn.relu(%2); "
        "%4 = nn.relu(%0); add(%3, %4) }");
    QVERIFY(!matchPattern(pattern, expr));
  }

  void associativityOfDivideAndMultiply() {
    Pattern a = wildcard();
    Pattern b = wildcard();
    Pattern c = wildcard();
    Pattern divOfMul = callOp("divide", {callOp("multiply", {a, b}), c});
    QVERIFY(matchPattern(divOfMul, bodyOf("fn (%x, %y, %z) { multiply(%x, divide(%y, %z)) }")));
    Pattern mulOfDiv = callOp("multiply", {callOp("divide", {wildcard(), wildcard()}), wildcard()});
    QVERIFY(matchPattern(mulOfDiv, bodyOf("fn (%x, %y, %z) { divide(multiply(%x, %y), %z) }")));
  }

  void requiredOpsFilterPatterns() {
    Pattern conv = callOp("nn.conv2d", {wildcard(), wildcard()});
    Pattern pattern = alt(callOp("nn.relu", {callOp("add", {conv, wildcard()})}), callOp("nn.relu", {conv}));
    QCOMPARE(requiredOps(pattern), (std::set<std::string>{"nn.conv2d", "nn.relu"}));
    QCOMPARE(requiredOps(diamondDominator()), (std::set<std::string>{"add", "nn.conv2d"}));
    QCOMPARE(requiredOps(wildcard()), std::set<std::string>{});
  }

  void bindingsListPatternNodesInTheOrderTheyFirstMatched() {
    Pattern inner = wildcard();
    Pattern relu = callOp("nn.relu", {inner});
    Pattern outer = callOp("nn.relu", {relu});
    Expr expr = bodyOf("fn (%a) { nn.relu(nn.relu(%a)) }");
    PatternMatcher matcher;
    QVERIFY(matcher.match(outer, expr));
    const PatternNodeMap& bindings = matcher.memo();
    std::vector<Pattern> order;
    for (const auto& [pattern, matches] : bindings) order.push_back(pattern);
    // The callee op patterns bind first, then each argument before the call holding it.
    const auto position = [&](const Pattern& pattern) { return std::find(order.begin(), order.end(), pattern) - order.begin(); };
    QVERIFY(position(inner) < position(relu) && position(relu) < position(outer));
    QCOMPARE(position(outer), static_cast<std::ptrdiff_t>(order.size()) - 1);
    QVERIFY(bindings.at(outer).front() == expr);
    QVERIFY(bindings.at(inner).front()->kind() == ExprKind::Var);
    QVERIFY(bindings.find(wildcard()) == bindings.end());
  }

  void rootOpsNameWhatARootMayCall() {
    Pattern conv = callOp("nn.conv2d", {wildcard(), wildcard()});
    QCOMPARE(*rootOps(alt(callOp("nn.relu", {conv}), conv)), (std::vector<std::string>{"nn.conv2d", "nn.relu"}));
    QCOMPARE(*rootOps(callOp("multiply", {wildcard(), wildcard()})), (std::vector<std::string>{"multiply", "divide"}));
    QVERIFY(!rootOps(wildcard()));
    QVERIFY(!rootOps(alt(conv, wildcard())));
    QVERIFY(!rootOps(isCall(wildcard(), {wildcard()})));
  }

  void compositeRootsMustMatchSomethingACompositeHolds() {
    Pattern conv = callOp("nn.conv2d", {wildcard(), wildcard()});
    for (const Pattern& good : {conv, alt(callOp("nn.relu", {conv}), conv), isTupleGetItem(conv, 0), isTuple({conv}),
                                hasDType(isCall(wildcard(), {wildcard()}), DType::Float32)})
      QCOMPARE(compositeRootProblem(good), std::string());
    const std::string any = "the pattern's root may match any value, which would become a composite of no operation";
    QCOMPARE(compositeRootProblem(wildcard()), any);
    QCOMPARE(compositeRootProblem(alt(conv, hasAttr(wildcard(), Attrs{{"Composite", std::string("x")}}))), any);
    QCOMPARE(compositeRootProblem(isConstant()),
             std::string("the pattern's root may match a constant, which would become a composite of no operation"));
    QCOMPARE(compositeRootProblem(isOp("nn.relu")),
             std::string("the pattern's root may match the op nn.relu itself (not a call of it), which would become a "
                         "composite of no operation"));
    QCOMPARE(compositeRootProblem(isFunction(std::nullopt, conv)),
             std::string("the pattern's root may match a function literal, which nothing would call"));
    auto self = makeRef<WildcardPatternNode>("c");
    self->redirectTo(alt(hasAttr(self, {}), conv));
    QCOMPARE(compositeRootProblem(self), std::string("the pattern refers to itself before it matches anything"));
    clearRedirects(self);
  }

  void findMatchesListsEveryRoot() {
    Expr expr = bodyOf("fn (%a) { %0 = nn.relu(%a); %1 = nn.relu(%0); nn.relu(%1) }");
    std::vector<PatternMatch> matches = findMatches(callOp("nn.relu", {callOp("nn.relu", {wildcard()})}), expr);
    QCOMPARE(matches.size(), std::size_t{2});
    QVERIFY(matches[1].root == expr);
    QCOMPARE(matches[1].nodes.size(), std::size_t{3});  // %0 as the wildcard's input, %1 inside, the root
    QVERIFY(matches[1].nodes[0] == expr->as<CallNode>()->args[0]->as<CallNode>()->args[0]);
    QVERIFY(matches[1].nodes[2] == expr);
  }
};

QTEST_GUILESS_MAIN(TestMatcher)
#include "test_matcher.moc"
