#include <QtTest>

#include <algorithm>
#include <string>
#include <vector>

#include "ir/expr.h"
#include "ir/traversal.h"

using namespace byoc;

namespace {

/// x → (x,) → .0 → (…,) → .0 …: a chain of `length` nodes built without any op.
Expr buildChain(const Var& x, int length) {
  Expr current = x;
  for (int i = 0; i < length; ++i) {
    if (i % 2 == 0) current = TupleNode::make({current});
    else current = TupleGetItemNode::make(current, 0);
  }
  return current;
}

/// Replaces every variable named "x" by "y" (same annotation).
class RenameX final : public ExprMutator {
 public:
  Var replacement = VarNode::make("y");

 protected:
  Result<Expr> rewriteVar(const Var& var) override { return var->name == "x" ? Expr(replacement) : Expr(var); }
};

/// Records which hook each node reached, and fails on the variable named "bad".
class HookRecorder final : public ExprMutator {
 public:
  std::vector<std::string> calls;

 protected:
  Result<Expr> rewriteVar(const Var& var) override {
    if (var->name == "bad") return makeError("bad variable");
    calls.push_back("var " + var->name);
    return Expr(var);
  }
  Result<Expr> rewriteTuple(const Tuple& pre, const Tuple& post) override {
    calls.push_back(pre == post ? "tuple" : "tuple (rebuilt)");
    return Expr(post);
  }
  Result<Expr> rewriteTupleGetItem(const TupleGetItem&, const TupleGetItem& post) override {
    calls.push_back("item " + std::to_string(post->index));
    return Expr(post);
  }
};

/// Replaces every `.0` of a one-field tuple by the rewrite of that field (an alias), renames "x"
/// to "y", and counts the tuples that reach the hook.
class UnwrapSingles final : public ExprMutator {
 public:
  Var replacement = VarNode::make("y");
  int tuples = 0;

 protected:
  Result<Expr> rewriteVar(const Var& var) override { return var->name == "x" ? Expr(replacement) : Expr(var); }
  Result<Expr> rewriteTuple(const Tuple&, const Tuple& post) override {
    ++tuples;
    return Expr(post);
  }
  const ExprNode* aliasOf(const ExprNode& node) override {
    const auto* item = node.as<TupleGetItemNode>();
    const auto* tuple = item ? item->tuple->as<TupleNode>() : nullptr;
    return tuple && tuple->fields.size() == 1 ? tuple->fields[0].get() : nullptr;
  }
};

}  // namespace

/// Iterative visits and rewrites: order, memoisation, sharing and depth.
class TestTraversal : public QObject {
  Q_OBJECT

 private slots:
  void postOrderVisitsChildrenFirstAndSharedNodesOnce() {
    Var a = VarNode::make("a");
    Var b = VarNode::make("b");
    Tuple pair = TupleNode::make({a, b});
    Tuple diamond = TupleNode::make({pair, pair});
    std::vector<const ExprNode*> order;
    postOrderVisit(diamond, [&](const Expr& node) { order.push_back(node.get()); });
    QCOMPARE(order.size(), std::size_t{4});
    QCOMPARE(order[0], static_cast<const ExprNode*>(a.get()));
    QCOMPARE(order[1], static_cast<const ExprNode*>(b.get()));
    QCOMPARE(order[2], static_cast<const ExprNode*>(pair.get()));
    QCOMPARE(order[3], static_cast<const ExprNode*>(diamond.get()));
  }

  void letValueIsVisitedBeforeItsVariable() {
    Var v = VarNode::make("v");
    Var x = VarNode::make("x");
    Tuple value = TupleNode::make({x});
    Let let = LetNode::make(v, value, v);
    std::vector<const ExprNode*> order;
    postOrderVisit(let, [&](const Expr& node) { order.push_back(node.get()); });
    QCOMPARE(order.size(), std::size_t{4});
    QCOMPARE(order[1], static_cast<const ExprNode*>(value.get()));
    QCOMPARE(order[2], static_cast<const ExprNode*>(v.get()));
  }

  void restrictedVisitSkipsRefusedSubgraphs() {
    Var a = VarNode::make("a");
    Var b = VarNode::make("b");
    Tuple skipped = TupleNode::make({a});
    Tuple root = TupleNode::make({skipped, b});
    std::vector<const ExprNode*> order;
    postOrderVisit(root, [&](const Expr& node) { order.push_back(node.get()); },
                   [&](const Expr& node) { return !(node == skipped); });
    QCOMPARE(order.size(), std::size_t{2});
    QCOMPARE(order[0], static_cast<const ExprNode*>(b.get()));
    QCOMPARE(order[1], static_cast<const ExprNode*>(root.get()));
    std::size_t visited = 0;
    postOrderVisit(root, [&](const Expr&) { ++visited; }, [](const Expr&) { return false; });
    QCOMPARE(visited, std::size_t{0});
  }

  void mutatorWithoutChangesReturnsTheSameGraph() {
    Var x = VarNode::make("x");
    Expr chain = buildChain(x, 100);
    ExprMutator identity;
    QVERIFY(identity.mutate(chain).value() == chain);
  }

  void mutatorRebuildsOnlyWhatChangedAndKeepsSharing() {
    Var x = VarNode::make("x");
    Var other = VarNode::make("other");
    Tuple left = TupleNode::make({x});
    Tuple untouched = TupleNode::make({other});
    Tuple root = TupleNode::make({left, left, untouched});
    RenameX rename;
    Expr result = rename.mutate(root).value();
    const auto& fields = result->as<TupleNode>()->fields;
    QVERIFY(fields[0] == fields[1]);              // the shared node is rebuilt once
    QVERIFY(!(fields[0] == left));                // and it did change
    QVERIFY(fields[2] == untouched);              // the unchanged subgraph is shared
    QVERIFY(fields[0]->as<TupleNode>()->fields[0] == rename.replacement);
  }

  void mutatorCallsTheHookOfEachKindOncePerNode() {
    Var a = VarNode::make("a");
    Tuple pair = TupleNode::make({a, a});
    Expr root = TupleNode::make({TupleGetItemNode::make(pair, 1), pair});
    HookRecorder recorder;
    QVERIFY(recorder.mutate(root).isOk());
    QCOMPARE(recorder.calls, (std::vector<std::string>{"var a", "tuple", "item 1", "tuple"}));
  }

  void anAliasedNodeTakesTheRewriteOfItsAliasAndSkipsTheRest() {
    Var x = VarNode::make("x");
    Expr item = TupleGetItemNode::make(TupleNode::make({x}), 0);
    Expr root = TupleNode::make({item, item});
    UnwrapSingles unwrap;
    Expr result = unwrap.mutate(root).value();
    const auto& fields = result->as<TupleNode>()->fields;
    QVERIFY(fields[0] == unwrap.replacement);
    QVERIFY(fields[1] == unwrap.replacement);
    QCOMPARE(unwrap.tuples, 1);  // the root alone: the tuple under the alias is not visited
  }

  void aFailingHookEndsTheMutation() {
    Var a = VarNode::make("a");
    Var bad = VarNode::make("bad");
    Expr root = TupleNode::make({TupleNode::make({a}), TupleNode::make({bad}), TupleNode::make({a})});
    HookRecorder recorder;
    Result<Expr> result = recorder.mutate(root);
    QVERIFY(!result);
    QCOMPARE(result.error().message, std::string("bad variable"));
    // The first field was finished; nothing after the failure was visited, not even the root.
    QCOMPARE(recorder.calls, (std::vector<std::string>{"var a", "tuple"}));
  }

  void childrenFirstVisitFollowsTheChildrenItIsGiven() {
    Var a = VarNode::make("a");
    Var b = VarNode::make("b");
    Tuple pair = TupleNode::make({a, b});
    Tuple diamond = TupleNode::make({pair, pair, TupleGetItemNode::make(pair, 0)});
    std::vector<const ExprNode*> order;
    auto done = [&](const ExprNode* node) { return std::find(order.begin(), order.end(), node) != order.end(); };
    // Only tuples' fields are children here: the item is visited as a leaf.
    auto fieldsOnly = [](const ExprNode& node, std::vector<const ExprNode*>& children) {
      if (const auto* tuple = node.as<TupleNode>())
        for (const Expr& field : tuple->fields) children.push_back(field.get());
      return Status::ok();
    };
    auto record = [&](const ExprNode& node) {
      order.push_back(&node);
      return Status::ok();
    };
    QVERIFY(visitChildrenFirst(diamond.get(), done, fieldsOnly, record).isOk());
    QCOMPARE(order, (std::vector<const ExprNode*>{a.get(), b.get(), pair.get(), diamond->fields[2].get(), diamond.get()}));

    // The first failure ends the walk: the root is not visited after a failing child.
    order.clear();
    auto refuseB = [&](const ExprNode& node) -> Status {
      if (&node == b.get()) return makeError("b refused");
      order.push_back(&node);
      return Status::ok();
    };
    Status failed = visitChildrenFirst(diamond.get(), done, fieldsOnly, refuseB);
    QVERIFY(!failed.isOk());
    QCOMPARE(failed.error().message, std::string("b refused"));
    QCOMPARE(order, (std::vector<const ExprNode*>{a.get()}));
  }

  void hundredThousandNodeChainNeedsNoDeepStack() {
    Var x = VarNode::make("x");
    Expr chain = buildChain(x, 100000);
    std::size_t visited = 0;
    postOrderVisit(chain, [&](const Expr&) { ++visited; });
    QCOMPARE(visited, std::size_t{100001});
    NodeSet seen;
    auto allChildren = [](const ExprNode& node, std::vector<const ExprNode*>& children) {
      for (int i = 0, count = childCount(node); i < count; ++i) children.push_back(childAt(node, i));
      return Status::ok();
    };
    QVERIFY(visitChildrenFirst(chain.get(), [&](const ExprNode* node) { return seen.contains(node); }, allChildren,
                               [&](const ExprNode& node) {
                                 seen.insert(&node);
                                 return Status::ok();
                               })
                .isOk());
    QCOMPARE(seen.size(), std::size_t{100001});

    RenameX rename;
    Expr renamed = rename.mutate(chain).value();
    QVERIFY(!(renamed == chain));
    std::size_t renamedVars = 0;
    postOrderVisit(renamed, [&](const Expr& node) {
      if (node == Expr(rename.replacement)) ++renamedVars;
    });
    QCOMPARE(renamedVars, std::size_t{1});
    // Dropping both chains frees 200,000 nodes; the deferred release keeps this off the stack.
  }
};

QTEST_GUILESS_MAIN(TestTraversal)
#include "test_traversal.moc"
