#include <QtTest>

#include "ir/expr.h"
#include "ir/module.h"
#include "ir/structural.h"

using namespace byoc;

namespace {

Function identityPair(const std::string& name) {
  Var p = VarNode::make(name, scalarType(DType::Int32));
  return FunctionNode::make({p}, TupleNode::make({p, p}), {}, Attrs{{"Primitive", 1}});
}

}  // namespace

/// Structural equality and hashing up to renaming of bound variables.
class TestStructural : public QObject {
  Q_OBJECT

 private slots:
  void renamedVariablesAreEqual() {
    Function a = identityPair("x");
    Function b = identityPair("renamed");
    QVERIFY(structuralEqual(a, b));
    QCOMPARE(structuralHash(a), structuralHash(b));
  }

  void differentAttributesAreNotEqual() {
    Var p = VarNode::make("x", scalarType(DType::Int32));
    Function a = identityPair("x");
    Function b = FunctionNode::make({p}, TupleNode::make({p, p}), {}, Attrs{{"Primitive", 0}});
    QVERIFY(!structuralEqual(a, b));
    QVERIFY(structuralHash(a) != structuralHash(b));
  }

  void variablesMustCorrespondOneToOne() {
    Var x = VarNode::make("x");
    Var y = VarNode::make("y");
    Function same = FunctionNode::make({x, y}, TupleNode::make({x, x}));
    Function crossed = FunctionNode::make({x, y}, TupleNode::make({x, y}));
    QVERIFY(!structuralEqual(same, crossed));
  }

  void sharingIsPartOfTheStructure() {
    Var x = VarNode::make("x");
    Tuple t = TupleNode::make({x});
    Expr shared = TupleNode::make({t, t});
    Expr copied = TupleNode::make({TupleNode::make({x}), TupleNode::make({x})});
    QVERIFY(!structuralEqual(shared, copied));
  }

  void constantsCompareByValue() {
    Constant a = ConstantNode::make(TensorData::scalar(DType::Float32, 1.5));
    Constant b = ConstantNode::make(TensorData::scalar(DType::Float32, 1.5));
    Constant c = ConstantNode::make(TensorData::scalar(DType::Float32, 2.5));
    QVERIFY(structuralEqual(a, b));
    QCOMPARE(structuralHash(a), structuralHash(b));
    QVERIFY(!structuralEqual(a, c));
  }

  void modulesCompareFunctionByFunction() {
    Module left;
    Module right;
    left.set("main", identityPair("x"));
    right.set("main", identityPair("y"));
    QVERIFY(structuralEqual(left, right));
    QCOMPARE(structuralHash(left), structuralHash(right));
    right.set("other", identityPair("z"));
    QVERIFY(!structuralEqual(left, right));
  }
};

QTEST_GUILESS_MAIN(TestStructural)
#include "test_structural.moc"
