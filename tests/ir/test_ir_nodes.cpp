#include <QtTest>

#include <cmath>

#include "ir/attrs.h"
#include "ir/expr.h"
#include "ir/module.h"
#include "ir/op.h"
#include "ir/origin.h"
#include "ir/tensor_data.h"
#include "ir/traversal.h"

using namespace byoc;

/// Node construction, the copy-only-if-changed builders, origins, attributes and modules.
class TestIrNodes : public QObject {
  Q_OBJECT

 private slots:
  void varTypeDefaultsToAnnotation() {
    Var x = VarNode::make("x", tensorType({1, 3}, DType::Float32));
    QCOMPARE(typeToString(x->type()), std::string("Tensor[(1, 3), float32]"));
    Var y = VarNode::make("y");
    QVERIFY(!y->type());
  }

  void constantTypeComesFromItsData() {
    Constant c = ConstantNode::make(TensorData::zeros(DType::Int8, {2, 2}), Origin::single(3), "w");
    QCOMPARE(typeToString(c->type()), std::string("Tensor[(2, 2), int8]"));
    QCOMPARE(c->name, std::string("w"));
    QVERIFY(c->origin().contains(3));
  }

  void scalarsConvertToTheirDType() {
    QCOMPARE(TensorData::scalar(DType::Int32, 7).elementAsDouble(0), 7.0);
    QCOMPARE(TensorData::scalar(DType::Float16, 1.5).elementAsDouble(0), 1.5);
    QCOMPARE(TensorData::scalar(DType::BFloat16, -2.0).elementAsDouble(0), -2.0);
    QCOMPARE(TensorData::scalar(DType::Bool, 3).elementAsDouble(0), 1.0);
    // Half and bfloat16 round to nearest, ties to even, with subnormals and overflow to infinity.
    QCOMPARE(TensorData::scalar(DType::Float16, 3.0117).elementAsDouble(0), 3.01171875);
    QCOMPARE(TensorData::scalar(DType::Float16, 1 + std::ldexp(1, -11)).elementAsDouble(0), 1.0);
    QCOMPARE(TensorData::scalar(DType::Float16, 1 + 3 * std::ldexp(1, -11)).elementAsDouble(0), 1 + std::ldexp(1, -9));
    QCOMPARE(TensorData::scalar(DType::Float16, -1e-7).elementAsDouble(0), -std::ldexp(2, -24));
    QCOMPARE(TensorData::scalar(DType::Float16, 65519).elementAsDouble(0), 65504.0);
    QVERIFY(std::isinf(TensorData::scalar(DType::Float16, 65520).elementAsDouble(0)));
    QCOMPARE(TensorData::scalar(DType::BFloat16, 1 + std::ldexp(1, -8)).elementAsDouble(0), 1.0);
    QCOMPARE(TensorData::scalar(DType::BFloat16, 1 + 3 * std::ldexp(1, -8)).elementAsDouble(0), 1.015625);
    // Values outside an integer type saturate instead of converting out of range.
    QCOMPARE(TensorData::scalar(DType::Int16, -5.6e14).elementAsDouble(0), -32768.0);
    QCOMPARE(TensorData::scalar(DType::UInt8, 300).elementAsDouble(0), 255.0);
    QCOMPARE(TensorData::scalar(DType::Int64, 1e300).elementAsDouble(0), 9223372036854775807.0);
    QCOMPARE(TensorData::scalar(DType::Int32, std::nan("")).elementAsDouble(0), 0.0);
  }

  void withChildrenReturnsSameNodeWhenNothingChanges() {
    Var x = VarNode::make("x");
    Tuple tuple = TupleNode::make({x, x}, Origin::single(1));
    std::vector<Expr> children = childrenOf(*tuple);
    QVERIFY(withChildren(tuple, children) == tuple);

    Var z = VarNode::make("z");
    children[1] = z;
    Expr rebuilt = withChildren(tuple, children);
    QVERIFY(!(rebuilt == tuple));
    QVERIFY(rebuilt->as<TupleNode>()->fields[1] == z);
    QVERIFY(rebuilt->origin() == tuple->origin());
  }

  void rebuiltNodeKeepsItsTypeOnlyWhileChildTypesStay() {
    Var x = VarNode::make("x", scalarType(DType::Int32));
    Tuple tuple = TupleNode::make({x}, {}, tupleType({scalarType(DType::Int32)}));
    Var sameType = VarNode::make("y", scalarType(DType::Int32));
    Expr kept = withChildren(tuple, std::vector<Expr>{sameType});
    QVERIFY(!(kept == tuple));
    QCOMPARE(typeToString(kept->type()), typeToString(tuple->type()));

    Var otherType = VarNode::make("z", scalarType(DType::Int64));
    QVERIFY(!withChildren(tuple, std::vector<Expr>{otherType})->type());
    QVERIFY(!withChildren(tuple, std::vector<Expr>{VarNode::make("untyped")})->type());
  }

  void nodesKnowWhetherTheyReferToAGlobal() {
    GlobalVar helper = GlobalVarNode::make("helper");
    Var x = VarNode::make("x");
    QVERIFY(helper->refersToGlobal());
    QVERIFY(!x->refersToGlobal());
    Call call = CallNode::make(helper, {x});
    QVERIFY(call->refersToGlobal());
    Function caller = FunctionNode::make({x}, TupleNode::make({TupleGetItemNode::make(call, 0)}));
    QVERIFY(caller->refersToGlobal());
    QVERIFY(!FunctionNode::make({x}, TupleNode::make({x}))->refersToGlobal());
    QVERIFY(LetNode::make(VarNode::make("v"), call, x)->refersToGlobal());
    QVERIFY(IfNode::make(x, x, call)->refersToGlobal());
  }

  void nodesKnowTheKindsOfNodeTheyReach() {
    Var x = VarNode::make("x", tensorType({1, 4}, DType::Float32));
    Expr relu = makeOpCall("nn.relu", {x}).value();
    Function function = FunctionNode::make({x}, TupleGetItemNode::make(TupleNode::make({relu}), 0));
    for (ExprKind kind : {ExprKind::Function, ExprKind::TupleGetItem, ExprKind::Tuple, ExprKind::Call, ExprKind::Op,
                          ExprKind::Var})
      QVERIFY(function->reaches(kind));
    for (ExprKind kind : {ExprKind::Constant, ExprKind::GlobalVar, ExprKind::If, ExprKind::Let})
      QVERIFY(!function->reaches(kind));
    QVERIFY(relu->reaches(ExprKind::Call) && relu->reaches(ExprKind::Var) && !relu->reaches(ExprKind::Tuple));
    QVERIFY(x->reaches(ExprKind::Var) && !x->reaches(ExprKind::Call));
  }

  void nodesSummariseTheOpsCalledBeneathThem() {
    Var x = VarNode::make("x", tensorType({1, 4}, DType::Float32));
    Expr relu = makeOpCall("nn.relu", {x}).value();
    Function function = FunctionNode::make({x}, TupleNode::make({relu}));
    const std::uint64_t reluBit = ExprNode::opBit("nn.relu");
    QVERIFY((function->calledOps() & reluBit) != 0);
    QVERIFY((relu->calledOps() & reluBit) != 0);
    QCOMPARE(x->calledOps(), std::uint64_t{0});
    QCOMPARE(ExprNode::opBit("nn.relu"), reluBit);  // a name always has the same bit
    const std::uint64_t others = ExprNode::opBit("nn.conv2d") | ExprNode::opBit("add");
    QCOMPARE(function->calledOps() & ~reluBit & others, std::uint64_t{0});
  }

  void changingACopyOfAttributesLeavesTheOriginal() {
    Attrs original{{"axis", 1}};
    Attrs copy = original;
    copy.set("axis", 2);
    copy.set("keepdims", true);
    QCOMPARE(original.find("axis")->asInt(), int64_t{1});
    QVERIFY(!original.contains("keepdims"));
    QCOMPARE(copy.find("axis")->asInt(), int64_t{2});
    QVERIFY(copy.without("axis").size() == 1 && original.size() == 1);
    QVERIFY(Attrs().without("axis").empty());
  }

  void settingTheValueANameHasKeepsTheEntriesShared() {
    Attrs original{{"axis", 1}};
    Attrs copy = original;
    copy.set("axis", 1);
    QCOMPARE(&copy.entries(), &original.entries());
    copy.set("axis", 2);
    QVERIFY(&copy.entries() != &original.entries());
    QCOMPARE(original.find("axis")->asInt(), int64_t{1});
  }

  void typeWalksDoNotRecurseWithDepth() {
    // Bindings such as `%1 = (%0,);` nest inferred types as deep as the program is long.
    auto nest = [](Type type, int depth) {
      for (int i = 0; i < depth; ++i) type = i % 2 ? tupleType({type}) : funcType({scalarType(DType::Int32)}, type);
      return type;
    };
    const Type a = nest(scalarType(DType::Float32), 200000);
    const Type b = nest(scalarType(DType::Float32), 200000);
    QVERIFY(typeEqual(a, b));
    QVERIFY(!typeEqual(a, nest(scalarType(DType::Int8), 200000)));
    QCOMPARE(typeHash(a), typeHash(b));
    const std::string text = typeToString(a);
    QCOMPARE(text.substr(0, 15), std::string("(fn (int32) -> "));
    QCOMPARE(text.size(), std::size_t{100000 * (15 + 2) + 7});
    QCOMPARE(typeToString(nest(scalarType(DType::Bool), 3)), std::string("fn (int32) -> (fn (int32) -> bool,)"));
    QCOMPARE(typeToString(tupleType({scalarType(DType::Bool), Type(), tupleType({})})), std::string("(bool, ?, ())"));
  }

  void longChainsAreFreedWithoutRecursion() {
    Var x = VarNode::make("x");
    auto chainOf = [&x](int length) {
      Expr chain = x;
      for (int i = 0; i < length; ++i) chain = CallNode::make(OpRegistry::global().get("nn.relu"), {chain});
      return chain;
    };
    Expr chain = chainOf(1000000);
    chain = Expr();
    QCOMPARE(x->useCount(), std::size_t{1});
    // This one is freed during static destruction, after the thread's own objects are gone.
    static Expr freedAtExit = chainOf(100000);
    QVERIFY(freedAtExit);
  }

  void withTypeKeepsNodeWhenTypeIsEqual() {
    Var x = VarNode::make("x", scalarType(DType::Int32));
    QVERIFY(withType(x, scalarType(DType::Int32)) == x);
    Expr retyped = withType(x, scalarType(DType::Int64));
    QVERIFY(!(retyped == x));
    QCOMPARE(typeToString(retyped->type()), std::string("int64"));
  }

  void originUnionIsSortedAndShared() {
    Origin a = Origin::single(5);
    Origin b = Origin::single(2);
    Origin both = Origin::unite({a, b, a});
    QCOMPARE(std::vector<NodeId>(both.ids().begin(), both.ids().end()), (std::vector<NodeId>{2, 5}));
    Origin onlyA = Origin::unite({Origin(), a});
    QVERIFY(onlyA == a);
    QVERIFY(Origin::unite({Origin(), Origin()}).empty());
  }

  void attrsKeepInsertionOrder() {
    Attrs attrs;
    attrs.set("PartitionedFromPattern", "nn.conv2d_");
    attrs.set("Composite", "dnnl.conv2d");
    attrs.set("PartitionedFromPattern", "nn.relu_");
    QCOMPARE(attrs.entries().front().first, std::string("PartitionedFromPattern"));
    QCOMPARE(attrs.find("PartitionedFromPattern")->asString(), std::string("nn.relu_"));
    QVERIFY(!attrs.without("Composite").contains("Composite"));
  }

  void attrValuesPrintLikeRelay() {
    QCOMPARE(AttrValue::ints({1, 1, 1, 1}).str(), std::string("[1, 1, 1, 1]"));
    QCOMPARE(AttrValue("NCHW").str(), std::string("\"NCHW\""));
    QCOMPARE(AttrValue(1e-5).str(), std::string("1e-05f"));
    QCOMPARE(AttrValue(true).str(), std::string("True"));
    QCOMPARE(AttrValue().str(), std::string("None"));
    QVERIFY(AttrValue(0.1).str() == "0.1f");
  }

  void moduleKeepsInsertionOrderAndReplacesInPlace() {
    Module module;
    Var x = VarNode::make("x", scalarType(DType::Int32));
    Function f = FunctionNode::make({x}, x);
    Function g = FunctionNode::make({x}, x);
    module.set("main", f);
    module.set("helper", g);
    module.set("main", g);
    QCOMPARE(module.functions().size(), std::size_t{2});
    QCOMPARE(module.functions()[0].first, std::string("main"));
    QVERIFY(module.find("main") == g);
    module.erase("main");
    QVERIFY(!module.find("main"));
    QVERIFY(module.find("helper") == g);
  }

  void moduleLocatesNodesThroughProvenance() {
    auto provenance = std::make_shared<Provenance>();
    provenance->locations[7] = SourceLocation{"model.relay", 3, 9};
    Module module;
    module.setProvenance(provenance);
    Var x = VarNode::make("x", {}, Origin::unite({Origin::single(1), Origin::single(7)}));
    QCOMPARE(module.locate(x)->str(), std::string("model.relay:3:9"));
    QVERIFY(!module.locate(VarNode::make("y")));
  }
};

QTEST_GUILESS_MAIN(TestIrNodes)
#include "test_ir_nodes.moc"
