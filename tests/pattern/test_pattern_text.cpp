#include <QtTest>

#include <cstring>

#include "ir/op.h"
#include "pattern/matcher.h"
#include "pattern/owned_pattern.h"
#include "pattern/pattern_parser.h"
#include "pattern/pattern_printer.h"
#include "pattern_test_util.h"
#include "support/limits.h"

using namespace byoc;

namespace {

Pattern parsed(const std::string& text) {
  Result<Pattern> pattern = parsePattern(text);
  if (!pattern) qFatal("%s", pattern.error().str().c_str());
  return *pattern;
}

std::string parseError(const std::string& text) {
  Result<Pattern> pattern = parsePattern(text, "p.txt");
  return pattern ? std::string("<parsed>") : pattern.error().str();
}

/// `a0 = nn.relu(*); a1 = nn.relu(a0); …` with `count` names: a pattern `count + 1` deep
/// written without nesting any bracket.
std::string reluChain(int count) {
  std::string text;
  for (int i = 0; i < count; ++i)
    text += "a" + std::to_string(i) + " = nn.relu(" + (i ? "a" + std::to_string(i - 1) : std::string("*")) + ");\n";
  return text + "a" + std::to_string(count - 1);
}

}  // namespace

/// The textual pattern language: parsing, printing, round trips and errors.
class TestPatternText : public QObject {
  Q_OBJECT

 private slots:
  void canonicalTextRoundTrips_data() {
    QTest::addColumn<QString>("text");
    for (const std::string& text : testing::canonicalPatterns())
      QTest::newRow(text.c_str()) << QString::fromStdString(text);
  }

  void canonicalTextRoundTrips() {
    QFETCH(QString, text);
    const std::string source = text.toStdString();
    Pattern pattern = parsed(source);
    const std::string printed = printPattern(pattern);
    clearRedirects(pattern);
    QCOMPARE(printed, source);
  }

  void aLiteralBeforeAnItemIndexIsParenthesised() {
    Pattern pattern = parsed("0 .33");
    const std::string printed = printPattern(pattern);
    QCOMPARE(printed, std::string("(0).33"));
    QCOMPARE(printPattern(parsed(printed)), printed);
  }

  void namesShareOneNode() {
    Pattern pattern = parsed("x = *; add(x, x)");
    const auto* call = pattern->as<CallPatternNode>();
    QVERIFY(call && call->args && call->args->size() == 2);
    QVERIFY((*call->args)[0] == (*call->args)[1]);
    QCOMPARE((*call->args)[0]->name(), std::string("x"));
    Pattern fresh = parsed("add(*, *)");
    const auto& args = *fresh->as<CallPatternNode>()->args;
    QVERIFY(!(args[0] == args[1]));
  }

  void aPostOrderOverSeveralRootsVisitsSharedNodesOnce() {
    Pattern shared = parsed("nn.relu(*)");
    Pattern left = parsed("x = nn.relu(*); add(x, x)");
    const std::vector<Pattern> roots{shared, left, shared};
    const std::vector<Pattern> order = patternPostOrder(roots);
    QCOMPARE(order.size(), patternPostOrder(shared).size() + patternPostOrder(left).size());
    QVERIFY(order[patternPostOrder(shared).size() - 1] == shared);  // children first, roots in order
    QVERIFY(order.back() == left);
  }

  // TVM users name a capture after its op (`mean = is_op("mean")(x)`): called, the word is the op;
  // anywhere else, the name.
  void aNameMayBeAnOpName() {
    Pattern pattern = parsed("x = *; mean = mean(x); subtract(x, mean)");
    const auto* subtract = pattern->as<CallPatternNode>();
    QVERIFY(subtract && subtract->args && subtract->args->size() == 2);
    const Pattern& mean = (*subtract->args)[1];
    QCOMPARE(mean->name(), std::string("mean"));
    const auto* meanCall = mean->as<CallPatternNode>();
    QVERIFY(meanCall);
    QCOMPARE(printPattern(meanCall->callee), std::string("mean"));
    QVERIFY((*meanCall->args)[0] == (*subtract->args)[0]);
    QCOMPARE(printPattern(parsed("add = *; add(add, *)")), std::string("add = *;\nadd(add, *)"));
  }

  // A tensor constant, matched by value (TVM's is_expr(relay.const(array))).
  void aTensorConstantMatchesByValue() {
    const Pattern pattern = parsed("add(*, const([[1f, 2f], [3f, 4f]]))");
    QCOMPARE(printPattern(pattern), std::string("add(*, const([[1f, 2f], [3f, 4f]]))"));
    QCOMPARE(printPattern(parsed("const([[[7i64]], [[8i64]]])")), std::string("const([[[7i64]], [[8i64]]])"));
    auto constant = [](std::vector<float> values) {
      std::vector<std::byte> bytes(values.size() * sizeof(float));
      std::memcpy(bytes.data(), values.data(), bytes.size());
      return ConstantNode::make(TensorData::fromBytes(DType::Float32, {2, 2}, bytes));
    };
    Var x = VarNode::make("x", tensorType({2, 2}, DType::Float32));
    PatternMatcher matcher;
    QVERIFY(matcher.match(pattern, makeOpCall("add", {x, constant({1, 2, 3, 4})}).value()));
    QVERIFY(!matcher.match(pattern, makeOpCall("add", {x, constant({1, 2, 3, 5})}).value()));
  }

  void sharingIsPrintedWithGeneratedNames() {
    Pattern x = wildcard();
    QCOMPARE(printPattern(callOp("add", {x, x})), std::string("p0 = *;\nadd(p0, p0)"));
    Pattern conv = callOp("nn.conv2d", {wildcard(), wildcard()});
    QCOMPARE(printPattern(optional(conv, [](const Pattern& p) { return callOp("nn.relu", {p}); })),
             std::string("p0 = nn.conv2d(*, *);\np0 | nn.relu(p0)"));
  }

  void optionalSugarBuildsAnAlternative() {
    Pattern pattern = parsed("optional(nn.conv2d(*, *), add(_, *))");
    const auto* either = pattern->as<AltPatternNode>();
    QVERIFY(either);
    QVERIFY((*either->right->as<CallPatternNode>()->args)[0] == either->left);
    QCOMPARE(printPattern(pattern), std::string("p0 = nn.conv2d(*, *);\np0 | add(p0, *)"));
  }

  void recursivePatternRedirectsAWildcard() {
    Pattern pattern = parsed("r = add(r, *) | *; nn.relu(r)");
    const auto* root = pattern->as<CallPatternNode>();
    const auto* r = (*root->args)[0]->as<WildcardPatternNode>();
    QVERIFY(r && r->redirect());
    Expr deep = testing::parseMain("fn (%a, %b) { nn.relu(add(add(add(%a, %b), %b), %b)) }")->body;
    QVERIFY(matchPattern(pattern, deep));
    Expr other = testing::parseMain("fn (%a, %b) { nn.relu(multiply(%a, %b)) }")->body;
    QVERIFY(matchPattern(pattern, other));  // the alternative's wildcard accepts anything
    clearRedirects(pattern);
    QVERIFY(!r->redirect());
  }

  void aRecursiveDefinitionTheRootDoesNotUseIsFreed() {
    // Its cycle would leak; the sanitizer build's leak checker sees it.
    Pattern pattern = parsed("x = (x, mean(*)); r = add(r, *) | *; nn.relu(r)");
    const auto* r = (*pattern->as<CallPatternNode>()->args)[0]->as<WildcardPatternNode>();
    QVERIFY(r && r->redirect());  // the definition the root uses keeps its recursion
    clearRedirects(pattern);
  }

  void deepRecursionFailsInsteadOfCrashing() {
    Pattern pattern = parsed("r = add(r, *) | var; r");
    Var x = VarNode::make("x");
    Expr chain = x;
    for (int i = 0; i < 100; ++i) chain = CallNode::make(isOp("add")->as<ExprPatternNode>()->expr, {chain, x});
    QVERIFY(matchPattern(pattern, chain));
    for (int i = 0; i < 100000; ++i) chain = CallNode::make(isOp("add")->as<ExprPatternNode>()->expr, {chain, x});
    std::optional<MatchFailure> failure = explainMismatch(pattern, chain);
    clearRedirects(pattern);
    QVERIFY(failure.has_value());
    QCOMPARE(failure->reason, std::string("the match nests deeper than 2000 pattern nodes (a recursive pattern?)"));
  }

  void nestingIsBoundedByTheSharedLimit() {
    QCOMPARE(patternDepth(parsed("nn.relu(nn.conv2d(*, *))")), 3);
    const OwnedPattern recursive(parsed("r = add(r, *) | *; nn.relu(r)"));
    QCOMPARE(patternDepth(recursive.get()), 5);  // the redirect back to r does not count
    const int limit = limits::kMaxNestingDepth;
    QCOMPARE(patternDepth(parsed(reluChain(limit - 1))), limit);
    QCOMPARE(QString::fromStdString(parseError(reluChain(limit))),
             QStringLiteral("p.txt:%1:8: the pattern nests %2 sub-patterns deep, more than the limit of %3")
                 .arg(limit).arg(limit + 1).arg(limit));  // at the last definition, `a499 = nn.relu(a498);`
    // Each definition reaches all earlier ones: the parser's work must stay linear in their number.
    QCOMPARE(QString::fromStdString(parseError(reluChain(30000))),
             QStringLiteral("p.txt:30000:10: the pattern nests 30001 sub-patterns deep, more than the limit of %1").arg(limit));
    const std::string brackets = std::string(limit + 1, '(') + "*" + std::string(limit + 1, ')');
    QCOMPARE(QString::fromStdString(parseError(brackets)),
             QStringLiteral("p.txt:1:%1: found '(', expected at most %2 nested brackets or sub-patterns (the nesting limit)")
                 .arg(limit + 1).arg(limit));
    QCOMPARE(QString::fromStdString(parseError("has_type(" + std::string(limit, '(') + std::string(limit, ')') + ")")),
             QStringLiteral("p.txt:1:%1: found '(', expected at most %2 nested brackets or sub-patterns (the nesting limit)")
                 .arg(limit + 9).arg(limit));
  }

  void aMatchReachesAsDeepAsTheReadersAllow() {
    QVERIFY(kMaxMatchDepth >= limits::kMaxNestingDepth);
    Pattern pattern = parsed(reluChain(limits::kMaxNestingDepth - 1));
    Expr chain = VarNode::make("x");
    for (int i = 0; i < limits::kMaxNestingDepth - 1; ++i)
      chain = CallNode::make(isOp("nn.relu")->as<ExprPatternNode>()->expr, {chain});
    QVERIFY(matchPattern(pattern, chain));
  }

  void commentsAndLayoutAreFree() {
    QCOMPARE(printPattern(parsed("# conv then relu\n  nn.relu(   # the activation\n nn.conv2d(*,*) )")),
             std::string("nn.relu(nn.conv2d(*, *))"));
  }

  void locationsPointAtTheText() {
    Result<ParsedPattern> parsedWithLocations = parsePatternWithLocations("nn.relu(\n  nn.conv2d(*, *))", "f", 3, 10);
    QVERIFY(parsedWithLocations.isOk());
    const Pattern& root = parsedWithLocations->pattern;
    const Pattern& conv = (*root->as<CallPatternNode>()->args)[0];
    QCOMPARE(parsedWithLocations->locations.at(root.get()).str(), std::string("f:3:10"));
    QCOMPARE(parsedWithLocations->locations.at(conv.get()).str(), std::string("f:4:3"));
  }

  void errors_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("error");
    auto row = [](const char* text, const char* error) { QTest::newRow(text) << QString(text) << QString(error); };
    row("", "p.txt:1:1: found the end of the input, expected a pattern");
    row("nn.relu(", "p.txt:1:9: found the end of the input, expected a pattern");
    row("nn.relu(*", "p.txt:1:10: found the end of the input, expected ',' or ')'");
    row("nn.relux(*)", "p.txt:1:1: found 'nn.relux', expected a registered op or a name defined before");
    row("add(*, *) add", "p.txt:1:11: found 'add', expected '|', '(', '{', '.' or the end of the pattern");
    row("x = *", "p.txt:1:6: found the end of the input, expected ';' after a definition");
    row("var = *; var", "p.txt:1:1: found 'var', expected a name that is not a keyword");
    row("x = *; x = *; x", "p.txt:1:8: found 'x', expected a name not defined before");
    row("nn.conv2d(*, *){groups}", "p.txt:1:23: found '}', expected '=' after the attribute name");
    row("nn.conv2d(*, *){groups=}",
        "p.txt:1:24: found '}', expected an attribute value (a number, a string, True, False, None or a list)");
    row("nn.conv2d(*, *){groups=1 strides=[1]}", "p.txt:1:26: found 'strides', expected ',' or '}'");
    row("nn.conv2d(*, *){groups=1, groups=2}", "p.txt:1:27: found 'groups', expected an attribute not given before");
    row("split(*).x", "p.txt:1:10: found 'x', expected a tuple index or '*' after '.'");
    row("has_dtype(float33)", "p.txt:1:11: found 'float33', expected a dtype such as float32");
    row("has_shape([1, x])", "p.txt:1:15: found 'x', expected a dimension (an integer or '?')");
    row("has_type(Tensor[(1), float32)", "p.txt:1:29: found ')', expected ']' after a tensor type");
    row("has_type(foo)", "p.txt:1:10: found 'foo', expected a type (Tensor[(…), dtype], a dtype, a tuple of types or fn (…) -> T)");
    row("dominates(*, *)", "p.txt:1:15: found ')', expected ',' (dominates takes 3 patterns)");
    row("if(*, *, *, *)", "p.txt:1:11: found ',', expected ')' (if takes 3 patterns)");
    row("fn(*) add(*, *)", "p.txt:1:7: found 'add', expected '{' before the function body");
    row("fn(*) { * ", "p.txt:1:11: found the end of the input, expected '}' after the function body");
    row("_", "p.txt:1:1: found '_', expected a pattern ('_' stands for the first pattern of optional(…))");
    row("optional(*)",
        "p.txt:1:11: found ')', expected ',' (optional takes a pattern and what may wrap it, with '_' for the "
        "pattern)");
    row("add(*, 1q)", "p.txt:1:9: found 'q', expected ',' or ')'");
    row("add(*, 1i7)", "p.txt:1:8: unknown literal suffix 'i7'; expected f, f16, f64, i8, i16, i32, i64 or u8");
    row("add(*, -6.0E66)", "p.txt:1:8: float literal '-6.0E66' is out of range for float32; expected a magnitude up to 3.40282e+38");
    row("add(*, 300u8)", "p.txt:1:8: integer literal '300u8' is out of range for uint8; expected 0 to 255");
    row("const([1f, [2f]])", "p.txt:1:12: found '[', expected a number (the lists nest 1 deep)");
    row("const([[1f], 2f])", "p.txt:1:14: found '2f', expected a list (the lists nest 2 deep)");
    row("const([[1f, 2f], [3f]])", "p.txt:1:21: found ']', expected 2 items in this list, as in the others of its level");
    row("const([1f, 2])", "p.txt:1:12: found '2', expected a float32 literal like the first element");
    row("const([1f, ])", "p.txt:1:12: found ']', expected a number or '[' after ','");
    row("const([])", "p.txt:1:1: found 'const', expected a tensor with at least one element");
    row("const(1f)", "p.txt:1:7: found '1f', expected '[' starting the tensor's values");
    row("const([1f 2f])", "p.txt:1:11: found '2f', expected ',' or ']'");
    row("const([1f]", "p.txt:1:11: found the end of the input, expected ')' after the tensor's values");
    row("split(*).2147483648", "p.txt:1:10: found '2147483648', expected a tuple index from 0 to 2^31-1");
    row("has_shape([-1])", "p.txt:1:12: found '-1', expected a dimension from 0 to 2^63-1");
    row("nn.conv2d(*, *){groups=99999999999999999999}",
        "p.txt:1:24: found '99999999999999999999', expected an integer from -2^63 to 2^63-1");
    row("nn.conv2d(*, *){alpha=1e999}", "p.txt:1:23: found '1e999', expected a float with a magnitude up to 1.79769e+308");
    row("add(*, \"s\")", "p.txt:1:8: found '\"s\"', expected a pattern (strings appear only as attribute values)");
    row("nn.conv2d(*, *){layout=\"NCHW}", "p.txt:1:24: found an unterminated string, expected '\"'");
    row("add(*, $)", "p.txt:1:8: found '$', expected a pattern");
    row("(*, *", "p.txt:1:6: found the end of the input, expected ',' or ')'");
    row("(* *)", "p.txt:1:4: found '*', expected ',' or ')'");
    row("x = *; x = ", "p.txt:1:8: found 'x', expected a name not defined before");
    row("%", "p.txt:1:1: found '%', expected a name after it");
    row("has_type(fn (int32) int32)", "p.txt:1:21: found 'int32', expected '->' before the result type");
    row("r = add(r, *) | *; nn.relu(r", "p.txt:1:29: found the end of the input, expected ',' or ')'");
    row("x = x; nn.relu(x)", "p.txt:1:1: expected a pattern for 'x', found only its own name");
  }

  void errors() {
    QFETCH(QString, text);
    QFETCH(QString, error);
    QCOMPARE(QString::fromStdString(parseError(text.toStdString())), error);
  }
};

QTEST_GUILESS_MAIN(TestPatternText)
#include "test_pattern_text.moc"
