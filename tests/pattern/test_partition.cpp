#include <QtTest>

#include "ir/op.h"
#include "pattern/partition.h"
#include "pattern/pattern_parser.h"
#include "pattern/rewrite.h"
#include "pattern_test_util.h"
#include "test_files.h"

using namespace byoc;
using testing::parseMain;
using testing::printBody;

namespace {

std::string partitioned(const Pattern& pattern, const std::string& input, const Attrs& attrs = {},
                        const PartitionCheck& check = {}) {
  Function function = parseMain(input);
  Result<Expr> result = partition(pattern, function, attrs, check);
  if (!result) return "error: " + result.error().str();
  return printBody(*result);
}

Pattern convBiasRelu(const Pattern& weight) {
  return callOp("nn.relu", {callOp("nn.bias_add", {callOp("nn.conv2d", {wildcard(), weight}), wildcard()})});
}

}  // namespace

/// partition(): grouping, parameters, constants, rejection rules, names and counters.
class TestPartition : public QObject {
  Q_OBJECT

 private slots:
  void golden_data() {
    QTest::addColumn<QString>("pattern");
    QTest::addColumn<QString>("input");
    QTest::addColumn<QString>("expected");
    const std::string text = testing::readTestData("pattern/partition.txt");
    const std::string separator = "// -----\n";
    std::size_t start = text.find(separator) + separator.size();
    while (start < text.size()) {
      std::size_t end = text.find(separator, start);
      std::string block = text.substr(start, end == std::string::npos ? std::string::npos : end - start);
      start = end == std::string::npos ? text.size() : end + separator.size();
      std::string description = block.substr(3, block.find('\n') - 3);
      std::size_t patternAt = block.find("pattern: ") + 9;
      std::size_t inputAt = block.find('\n', patternAt) + 1;
      std::size_t arrow = block.find("=>\n");
      std::string expected = block.substr(arrow + 3);
      while (!expected.empty() && expected.back() == '\n') expected.pop_back();
      QTest::newRow(description.c_str()) << QString::fromStdString(block.substr(patternAt, inputAt - 1 - patternAt))
                                         << QString::fromStdString(block.substr(inputAt, arrow - inputAt))
                                         << QString::fromStdString(expected);
    }
  }

  void golden() {
    QFETCH(QString, pattern);
    QFETCH(QString, input);
    QFETCH(QString, expected);
    Result<Pattern> parsedPattern = parsePattern(pattern.toStdString());
    QVERIFY2(parsedPattern.isOk(), parsedPattern ? "" : parsedPattern.error().str().c_str());
    QCOMPARE(QString::fromStdString(partitioned(*parsedPattern, input.toStdString())), expected);
  }

  void wildcardsLiftConstants() {
    QCOMPARE(partitioned(convBiasRelu(wildcard()), "fn (%x) { nn.relu(nn.bias_add(nn.conv2d(%x, 1f), 2f)) }"),
             std::string("fn (%x) {\n"
                         "  %2 = fn (%FunctionVar_0_0, %FunctionVar_0_1, %FunctionVar_0_2, "
                         "PartitionedFromPattern=\"nn.conv2d_nn.bias_add_nn.relu_\") {\n"
                         "    %0 = nn.conv2d(%FunctionVar_0_0, %FunctionVar_0_1);\n"
                         "    %1 = nn.bias_add(%0, %FunctionVar_0_2);\n"
                         "    nn.relu(%1)\n"
                         "  };\n"
                         "  %2(%x, 1f, 2f)\n"
                         "}"));
  }

  void constantPatternsEmbedConstants() {
    const std::string input = "fn (%x) { nn.relu(nn.bias_add(nn.conv2d(%x, 1f), 2f)) }";
    const std::string embedded =
        "fn (%x) {\n"
        "  %2 = fn (%FunctionVar_0_0, %FunctionVar_0_1, PartitionedFromPattern=\"nn.conv2d_nn.bias_add_nn.relu_\") {\n"
        "    %0 = nn.conv2d(%FunctionVar_0_0, 1f);\n"
        "    %1 = nn.bias_add(%0, %FunctionVar_0_1);\n"
        "    nn.relu(%1)\n"
        "  };\n"
        "  %2(%x, 2f)\n"
        "}";
    QCOMPARE(partitioned(convBiasRelu(isConstant()), input), embedded);
    Constant one = ConstantNode::make(TensorData::scalar(DType::Float32, 1));
    QCOMPARE(partitioned(convBiasRelu(isExpr(one)), input), embedded);
    QCOMPARE(partitioned(convBiasRelu(alt(isVar(), isConstant())), input), embedded);
    QCOMPARE(partitioned(convBiasRelu(alt(isConstant(), isVar())), input), embedded);
    // is_var never matches a constant: nothing changes.
    QCOMPARE(partitioned(convBiasRelu(isVar()), input), printBody(parseMain(input)));
  }

  void overusedIntermediateIsRejected() {
    const std::string input = "fn (%x, %w) { %0 = nn.conv2d(%x, %w); %1 = nn.relu(%0); add(%1, %0) }";
    Pattern pattern = callOp("nn.relu", {callOp("nn.conv2d", {wildcard(), wildcard()})});
    QCOMPARE(partitioned(pattern, input), printBody(parseMain(input)));
  }

  void dominatedOutsideUseDuplicates() {
    Pattern pattern =
        callOp("multiply", {callOp("add", {callOp("nn.conv2d", {wildcard(), wildcard()}), wildcard()}), wildcard()});
    QCOMPARE(partitioned(pattern,
                         "fn (%x, %w, %b) { %0 = nn.conv2d(%x, %w); %1 = add(%0, %b); %2 = sigmoid(%1); "
                         "%3 = multiply(%1, %2); nn.relu(%3) }"),
             std::string("fn (%x, %w, %b) {\n"
                         "  %2 = nn.conv2d(%x, %w);\n"
                         "  %3 = add(%2, %b);\n"
                         "  %4 = sigmoid(%3);\n"
                         "  %5 = fn (%FunctionVar_0_0, %FunctionVar_0_1, %FunctionVar_0_2, %FunctionVar_0_3, "
                         "PartitionedFromPattern=\"nn.conv2d_add_multiply_\") {\n"
                         "    %0 = nn.conv2d(%FunctionVar_0_0, %FunctionVar_0_1);\n"
                         "    %1 = add(%0, %FunctionVar_0_2);\n"
                         "    multiply(%1, %FunctionVar_0_3)\n"
                         "  };\n"
                         "  %6 = %5(%x, %w, %b, %4);\n"
                         "  nn.relu(%6)\n"
                         "}"));
  }

  void rejectedCandidatesUseAGroupNumber() {
    Pattern pattern = callOp("nn.relu", {callOp("nn.conv2d", {wildcard(), wildcard()})});
    std::string out = partitioned(pattern,
                                  "fn (%x, %w) { %0 = nn.conv2d(%x, %w); %1 = nn.relu(%0); %2 = nn.conv2d(%1, %w); "
                                  "%3 = nn.relu(%2); add(%3, %2) }");
    QVERIFY2(out.find("%FunctionVar_1_0, %FunctionVar_1_1, PartitionedFromPattern=\"nn.conv2d_nn.relu_\"") !=
                 std::string::npos,
             out.c_str());
    QVERIFY2(out.find("FunctionVar_0_") == std::string::npos, out.c_str());
  }

  void matchesNearTheOutputComeFirst() {
    Pattern pattern = callOp("nn.relu", {callOp("nn.conv2d", {wildcard(), wildcard()})});
    std::string out = partitioned(
        pattern, "fn (%x, %w) { %0 = nn.conv2d(%x, %w); %1 = nn.relu(%0); %2 = nn.conv2d(%1, %w); nn.relu(%2) }");
    QVERIFY2(out.find("%2 = fn (%FunctionVar_1_0") < out.find("fn (%FunctionVar_0_0"), out.c_str());
  }

  void rejectedByCheckStaysReserved() {
    Pattern conv = callOp("nn.conv2d", {wildcard(), wildcard()});
    Pattern pattern = alt(callOp("nn.relu", {conv}), conv);
    const std::string input = "fn (%x, %w) { nn.relu(nn.conv2d(%x, %w)) }";
    int calls = 0;
    std::string out = partitioned(pattern, input, {}, [&](const Expr& pre) {
      ++calls;
      return pre->as<CallNode>()->callee->as<OpNode>()->name() != "nn.relu";
    });
    QCOMPARE(calls, 1);
    QCOMPARE(out, printBody(parseMain(input)));
  }

  void attrsFollowTheName() {
    Pattern pattern = callOp("nn.relu", {wildcard()});
    std::string out = partitioned(pattern, "fn (%x) { nn.relu(%x) }", {{"Composite", AttrValue("t.relu")}});
    QVERIFY2(out.find("PartitionedFromPattern=\"nn.relu_\", Composite=\"t.relu\"") != std::string::npos, out.c_str());
  }

  void namesOfTuplesAndItems() {
    Pattern pattern =
        callOp("nn.relu",
               {isTupleGetItem(
                   isCall(isOp("nn.batch_norm"), {wildcard(), wildcard(), wildcard(), wildcard(), wildcard()}), 0)});
    std::string out =
        partitioned(pattern, "fn (%x, %g, %b, %m, %v) { %0 = nn.batch_norm(%x, %g, %b, %m, %v); nn.relu(%0.0) }");
    QVERIFY2(out.find("PartitionedFromPattern=\"nn.batch_norm_TupleGetItem0_nn.relu_\"") != std::string::npos,
             out.c_str());
  }

  void functionPatternIsRefused() {
    QCOMPARE(partitioned(isFunction(std::nullopt, wildcard()), "fn (%x) { %x }"),
             std::string("error: partition: a function pattern cannot be partitioned (there is no call to replace)"));
  }

  void earlierPartitionsAreOpaque() {
    Pattern relu = callOp("nn.relu", {wildcard()});
    Function function = parseMain("fn (%x) { nn.relu(nn.relu(%x)) }");
    Result<Expr> once = partition(callOp("nn.relu", {callOp("nn.relu", {wildcard()})}), function);
    QVERIFY(once.isOk());
    Result<Expr> twice = partition(relu, *once);
    QVERIFY(twice.isOk());
    QCOMPARE(printBody(*twice), printBody(*once));
  }

  void noMatchGivesBackTheSameNodeAndGraphsCanBeShared() {
    Function function = parseMain("fn (%x, %w) { nn.relu(nn.conv2d(%x, %w)) }");
    auto graph = std::make_shared<const IndexedGraph>(function);
    Result<Expr> none = partition(callOp("tanh", {wildcard()}), graph);
    QVERIFY(none.isOk());
    QVERIFY(*none == function);
    Result<Expr> some = partition(callOp("nn.relu", {wildcard()}), graph, {{"Composite", AttrValue("t.relu")}});
    QVERIFY(some.isOk());
    QVERIFY(!(*some == function));
    QVERIFY(printBody(*some).find("Composite=\"t.relu\"") != std::string::npos);
  }

  void seed000CompositesAreNumberedFromTheElseBranch() {
    Module demo = *parseModule(testing::readTestData("text/demo.relay"), "demo.relay");
    Module typed = *inferTypes(demo);
    Function main = typed.find("main");
    Pattern pattern = *parsePattern("nn.relu(nn.bias_add(nn.conv2d(*, *), *))");
    Result<Expr> body = partition(pattern, main->body, {{"Composite", AttrValue("byoc-target.conv2d_relu_with_bias")}});
    QVERIFY(body.isOk());
    Module merged = typed;
    merged.set("main", FunctionNode::make(main->params, *body, main->retType, main->attrs));
    Result<Module> retyped = inferTypes(merged);
    QVERIFY2(retyped.isOk(), retyped ? "" : retyped.error().str().c_str());
    PrintOptions options;
    options.showTypes = true;
    const std::string text = printModule(*retyped, options);
    const std::string attrs =
        "PartitionedFromPattern=\"nn.conv2d_nn.bias_add_nn.relu_\", Composite=\"byoc-target.conv2d_relu_with_bias\")";
    const std::size_t thenFunction = text.find("%3 = fn (%FunctionVar_1_0: Tensor[(1, 32, 56, 56), float32]");
    const std::size_t elseFunction = text.find("%8 = fn (%FunctionVar_0_0: Tensor[(1, 32, 56, 56), float32]");
    QVERIFY2(thenFunction != std::string::npos && elseFunction != std::string::npos, text.c_str());
    QVERIFY(text.find(attrs, thenFunction) < elseFunction);
    QVERIFY(text.find(attrs, elseFunction) != std::string::npos);
    QVERIFY(text.find("%5 = %3(%d1, %w1, %b1) /* ty=Tensor[(1, 32, 56, 56), float32] */;") != std::string::npos);
    QVERIFY(text.find("%9 = %8(%d1, %w1, %b1) /* ty=Tensor[(1, 32, 56, 56), float32] */;") != std::string::npos);
  }

  void aTypedInputStaysTypedAsTypeInferenceWouldTypeIt() {
    Module demo = *parseModule(testing::readTestData("text/demo.relay"), "demo.relay");
    Function main = inferTypes(demo)->find("main");
    Pattern pattern = *parsePattern("nn.relu(nn.bias_add(nn.conv2d(*, *), *))");
    for (ReturnTypes returnTypes : {ReturnTypes::Omitted, ReturnTypes::Recorded}) {
      Result<Expr> result = partition(pattern, std::make_shared<const IndexedGraph>(main), {}, {}, returnTypes);
      QVERIFY(result.isOk() && (*result)->type());
      Module partitioned;
      partitioned.set("main", downcast<FunctionNode>(*result));
      Result<Module> retyped = inferTypes(partitioned, TypeReuse::RecomputeAll);
      QVERIFY2(retyped.isOk(), retyped ? "" : retyped.error().str().c_str());
      PrintOptions options;
      options.showTypes = true;
      const std::string text = printModule(partitioned, options);
      // Type inference records the return types it infers; the partition does so only when asked.
      QCOMPARE(text == printModule(*retyped, options), returnTypes == ReturnTypes::Recorded);
      QCOMPARE(text.find(") -> Tensor[(1, 32, 56, 56), float32] {") != std::string::npos,
               returnTypes == ReturnTypes::Recorded);
    }
  }

  void originsOfCreatedNodesUniteReplacedOnes() {
    Function function = parseMain("fn (%x, %w) { nn.relu(nn.conv2d(%x, %w)) }");
    const Call relu = downcast<CallNode>(function->body);
    const Call conv = downcast<CallNode>(relu->args[0]);
    Result<Expr> result = partition(callOp("nn.relu", {callOp("nn.conv2d", {wildcard(), wildcard()})}), function);
    QVERIFY(result.isOk());
    const Call outlined = downcast<CallNode>((*result)->as<FunctionNode>()->body);
    QVERIFY(outlined);
    QCOMPARE(outlined->origin(), Origin::unite({relu->origin(), conv->origin()}));
    QVERIFY(!outlined->origin().empty());
  }

  // A check that fails ends the walk with its error: no group after it is asked about.
  void aFailingCheckEndsThePartitionWithItsError() {
    Function function = parseMain("fn (%x) { nn.relu(nn.relu(nn.relu(%x))) }");
    int asked = 0;
    PartitionCheck check = [&](const Expr&) -> Result<bool> {
      if (++asked == 2) return makeError("the second group cannot be judged");
      return true;
    };
    Result<Expr> result = partition(callOp("nn.relu", {wildcard()}), function, {}, check);
    QVERIFY(!result);
    QCOMPARE(result.error().message, std::string("the second group cannot be judged"));
    QCOMPARE(asked, 2);
  }

  // So does a rewrite callback that fails.
  void aFailingRewriteEndsTheRewriteWithItsError() {
    Function function = parseMain("fn (%x) { nn.relu(nn.relu(%x)) }");
    int called = 0;
    RewriteCallback callback{callOp("nn.relu", {wildcard()}),
                             [&](const Expr&, const Expr&, const PatternNodeMap&) -> Result<Expr> {
                               ++called;
                               return makeError("no replacement");
                             }};
    Result<Expr> result = rewrite({callback}, function->body);
    QVERIFY(!result);
    QCOMPARE(result.error().message, std::string("no replacement"));
    QCOMPARE(called, 1);
  }
};

QTEST_GUILESS_MAIN(TestPartition)
#include "test_partition.moc"
