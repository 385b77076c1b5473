#include <QtTest>

#include "pattern/pattern_parser.h"
#include "pattern/replacement.h"
#include "pattern_test_util.h"

using namespace byoc;
using testing::parseMain;
using testing::printBody;

namespace {

/// `body` of @main(`params`) rewritten: every match of `pattern` replaced by `replacement`, to a
/// fixed point.
Result<std::string> rewritten(const std::string& body, const std::string& pattern, const std::string& replacement,
                              const std::string& params = "%x: Tensor[(1, 8), float32], %y: Tensor[(1, 8), float32]") {
  const OwnedPattern parsed(parsePattern(pattern).value());
  BYOC_ASSIGN_OR_RETURN(Replacement built, Replacement::parse(replacement, parsed.get()));
  Function main = parseMain("def @main(" + params + ") {\n" + body + "\n}");
  BYOC_ASSIGN_OR_RETURN(Expr result, rewrite({built.callback()}, main));
  return printBody(result->as<FunctionNode>()->body);
}

// TVM's BatchnormCallback (tests/python/relay/test_dataflow_pattern.py): gamma * (x - mean) /
// sqrt(var + eps) + beta becomes nn.batch_norm(...)[0]. Its callback reads epsilon from the matched
// constant; a replacement states it.
const char* kBatchNormPattern =
    "x = *; variance = *; mean = *; beta = *; gamma = *; eps = const; "
    "add(divide(multiply(gamma, subtract(x, mean)), sqrt(add(variance, eps))), beta)";
const char* kBatchNormReplacement = "nn.batch_norm(x, gamma, beta, mean, variance){epsilon=1e-05f}.0";
const char* kBatchNormParams = "%x: Tensor[(2, 4), float32], %var: Tensor[(4), float32], %mean: Tensor[(4), float32], "
                               "%beta: Tensor[(4), float32], %gamma: Tensor[(4), float32]";

/// TVM's BN expression on `x`, ending in `last` (add, or subtract for the near misses).
std::string batchNormOf(const std::string& x, int first, const char* last = "add") {
  auto v = [first](int k) { return "%" + std::to_string(first + k); };
  return v(0) + " = subtract(" + x + ", %mean);\n" + v(1) + " = multiply(%gamma, " + v(0) + ");\n" + v(2) +
         " = add(%var, 1e-05f);\n" + v(3) + " = sqrt(" + v(2) + ");\n" + v(4) + " = divide(" + v(1) + ", " + v(3) +
         ");\n" + v(5) + " = " + last + "(" + v(4) + ", %beta);\n";
}

}  // namespace

/// Replacements in the pattern language, as `byoc rewrite --replace` reads them.
class TestReplacement : public QObject {
  Q_OBJECT

 private slots:
  // TVM's rewrite repeats until nothing changes: relu(relu(relu(relu(x)))) folds to one relu.
  void aRewriteRunsToAFixedPoint() {
    QCOMPARE(rewritten("nn.relu(nn.relu(nn.relu(nn.relu(%x))))", "x = *; nn.relu(nn.relu(x))", "nn.relu(x)").value(),
             std::string("nn.relu(%x)"));
  }

  void theReplacementMayBeANameOfThePattern() {
    QCOMPARE(rewritten("%0 = multiply(%x, 1f);\n add(%0, %y)", "x = *; multiply(x, 1f)", "x").value(), std::string("add(%x, %y)"));
  }

  void callsTakeTheAttributesWrittenAndDefaultsForTheRest() {
    QCOMPARE(rewritten("nn.relu(%x)", "x = *; nn.relu(x)", "clip(x){a_min=1f, a_max=6f}").value(),
             std::string("clip(%x, a_min=1f, a_max=6f)"));
    // alpha takes the default, which the text states because TVM's default differs.
    QCOMPARE(rewritten("nn.relu(%x)", "x = *; nn.relu(x)", "nn.leaky_relu(x)").value(),
             std::string("nn.leaky_relu(%x, alpha=0.01f)"));
  }

  void namesOfTheReplacementShareOneNode() {
    QCOMPARE(rewritten("add(%x, %y)", "a = *; b = *; add(a, b)", "s = subtract(a, b); multiply(s, (s, b).0)").value(),
             std::string("%0 = subtract(%x, %y);\n%1 = (%0, %y);\n%2 = %1.0;\nmultiply(%0, %2)"));
  }

  // A name of the pattern may also be an op's: called, the word is the op.
  void aNameThatIsAnOpIsTheOpWhenCalled() {
    QCOMPARE(rewritten("nn.relu(%x)", "x = *; tanh = nn.relu(x); tanh", "tanh(x)").value(), std::string("tanh(%x)"));
  }

  void aReplacementThatHoldsItsPatternStopsWithAnError() {
    Result<std::string> result = rewritten("nn.relu(%x)", "x = *; nn.relu(x)", "nn.relu(nn.relu(x))");
    QVERIFY(!result);
    QVERIFY2(result.error().message.find("rewrite: the expression grew to ") == 0, result.error().str().c_str());
    QVERIFY(result.error().message.find("more than 16 times its size (does a replacement hold its own pattern?)") != std::string::npos);
  }

  // Swapping the arguments of add changes the expression on every pass; TVM gives up after 100.
  void aRewriteThatNeverSettlesStopsAfterTheLimit() {
    Result<std::string> result = rewritten("add(%x, %y)", "a = *; b = *; add(a, b)", "add(b, a)");
    QVERIFY(!result);
    QCOMPARE(result.error().message, std::string("rewrite: no fixed point after 100 callback passes (possible conflicting rewrites)"));
  }

  // Two rules that undo each other within one round leave it as it was: TVM stops there too.
  void rulesThatUndoEachOtherInOneRoundSettle() {
    const OwnedPattern toTanh(parsePattern("x = *; nn.relu(x)").value());
    const OwnedPattern toRelu(parsePattern("x = *; tanh(x)").value());
    std::vector<RewriteCallback> rules{Replacement::parse("tanh(x)", toTanh.get()).value().callback(),
                                       Replacement::parse("nn.relu(x)", toRelu.get()).value().callback()};
    Function main = parseMain("def @main(%x: Tensor[(1, 8), float32]) { nn.relu(%x) }");
    QCOMPARE(printBody(rewrite(rules, main->body).value()), std::string("nn.relu(%x)"));
  }

  // TVM's test_rewrite: an add becomes a subtract of the same operands.
  void tvmTestRewrite() {
    QCOMPARE(rewritten("add(%x, %y)", "a = *; b = *; add(a, b)", "subtract(a, b)").value(), std::string("subtract(%x, %y)"));
  }

  // TVM's test_fuse_batchnorm and test_no_fuse_batchnorm.
  void tvmTestFuseBatchnorm() {
    const std::string fused = "%0 = nn.batch_norm(%x, %gamma, %beta, %mean, %var);\n%0.0";
    QCOMPARE(rewritten(batchNormOf("%x", 0) + "%5", kBatchNormPattern, kBatchNormReplacement, kBatchNormParams).value(), fused);
    const std::string fake = batchNormOf("%x", 0, "subtract") + "%5";
    QCOMPARE(rewritten(fake, kBatchNormPattern, kBatchNormReplacement, kBatchNormParams).value(),
             rewritten(fake, "x = *; tanh(x)", "x", kBatchNormParams).value());  // unchanged: no tanh to rewrite
  }

  // TVM's test_fuse_double_batchnorm and test_partial_fuse_double_batchnorm.
  void tvmTestFuseDoubleBatchnorm() {
    QCOMPARE(rewritten(batchNormOf("%x", 0) + batchNormOf("%5", 6) + "%11", kBatchNormPattern, kBatchNormReplacement,
                       kBatchNormParams)
                 .value(),
             std::string("%0 = nn.batch_norm(%x, %gamma, %beta, %mean, %var);\n%1 = %0.0;\n"
                         "%2 = nn.batch_norm(%1, %gamma, %beta, %mean, %var);\n%2.0"));
    // The first BN, not one (it subtracts beta), stays; the second, on it, fuses.
    const std::string partial = batchNormOf("%x", 0, "subtract") + "%6 = nn.batch_norm(%5, %gamma, %beta, %mean, %var);\n%6.0";
    QCOMPARE(rewritten(batchNormOf("%x", 0, "subtract") + batchNormOf("%5", 6) + "%11", kBatchNormPattern,
                       kBatchNormReplacement, kBatchNormParams)
                 .value(),
             rewritten(partial, "x = *; tanh(x)", "x", kBatchNormParams).value());  // printed as the rewrite prints
  }

  // TVM's test_fuse_batchnorm_commutation: the add with beta first matches too (add commutes).
  void tvmTestFuseBatchnormCommutation() {
    const std::string commuted = "%0 = subtract(%x, %mean);\n%1 = multiply(%gamma, %0);\n%2 = add(%var, 1e-05f);\n"
                                 "%3 = sqrt(%2);\n%4 = divide(%1, %3);\nadd(%beta, %4)";
    QCOMPARE(rewritten(commuted, kBatchNormPattern, kBatchNormReplacement, kBatchNormParams).value(),
             std::string("%0 = nn.batch_norm(%x, %gamma, %beta, %mean, %var);\n%0.0"));
  }

  void aNameInAnAlternativeNotTakenIsAnError() {
    Result<std::string> result = rewritten("nn.relu(%x)", "a = *; b = *; nn.relu(a) | tanh(b)", "sigmoid(b)");
    QVERIFY(!result);
    QCOMPARE(result.error().message, std::string("'b' matched nothing here (it is in an alternative that did not match)"));
  }

  void whatOnlyMatchesCannotBeBuilt_data() {
    QTest::addColumn<QString>("replacement");
    QTest::addColumn<QString>("error");
    QTest::newRow("wildcard") << "nn.relu(*)" << "r.txt:1:9: a replacement cannot build '*' (name the pattern's node to use what it matched)";
    QTest::newRow("alternative") << "nn.relu(a) | tanh(a)" << "r.txt:1:1: a replacement cannot build an alternative '|'";
    QTest::newRow("any arguments") << "concatenate(..)" << "r.txt:1:1: a replacement cannot build a call with any arguments '(..)'";
    QTest::newRow("bare op") << "add(a, nn.relu)" << "r.txt:1:8: a replacement cannot build the op nn.relu itself (call it)";
    QTest::newRow("constant") << "add(a, const)" << "r.txt:1:8: a replacement cannot build 'const' (write the literal)";
    QTest::newRow("types") << "has_dtype(float32, a)" << "r.txt:1:1: a replacement cannot build a pattern that only matches (types, dominates, if, let)";
    QTest::newRow("own name") << "c = *; add(a, c)" << "r.txt:1:5: 'c' is not a name of the pattern (its names: a, b)";
    QTest::newRow("recursive") << "c = add(c, a); c" << "r.txt:1:1: a replacement cannot refer to itself ('c')";
    QTest::newRow("syntax") << "add(a,\n  b" << "r.txt:2:4: found the end of the input, expected ',' or ')'";
  }
  void whatOnlyMatchesCannotBeBuilt() {
    QFETCH(QString, replacement);
    QFETCH(QString, error);
    const OwnedPattern pattern(parsePattern("a = *; b = *; add(a, b)").value());
    Result<Replacement> parsed = Replacement::parse(replacement.toStdString(), pattern.get(), "r.txt");
    QVERIFY(!parsed);
    QCOMPARE(QString::fromStdString(parsed.error().str()), error);
  }
};

QTEST_GUILESS_MAIN(TestReplacement)
#include "test_replacement.moc"
