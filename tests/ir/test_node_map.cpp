#include <QtTest>
#include <vector>

#include "ir/node_map.h"

using namespace byoc;

/// The memo tables keyed by node identity.
class TestNodeMap : public QObject {
  Q_OBJECT

  static std::vector<Var> vars(int count) {
    std::vector<Var> made;
    for (int i = 0; i < count; ++i) made.push_back(VarNode::make("v" + std::to_string(i)));
    return made;
  }

 private slots:
  void keepsEveryEntryThroughGrowth() {
    const std::vector<Var> nodes = vars(5000);
    NodeMap<int> map;
    for (int i = 0; i < 5000; ++i) QVERIFY(map.emplace(nodes[i].get(), i).second);
    QCOMPARE(map.size(), std::size_t{5000});
    for (int i = 0; i < 5000; ++i) {
      const int* value = map.find(nodes[i].get());
      QVERIFY(value);
      QCOMPARE(*value, i);
    }
    const Var stranger = VarNode::make("stranger");
    QVERIFY(!map.find(stranger.get()));
    QVERIFY(!map.contains(stranger.get()));
  }

  void emplaceKeepsTheFirstValue() {
    const std::vector<Var> nodes = vars(2);
    NodeMap<int> map;
    map.emplace(nodes[0].get(), 1);
    auto [value, inserted] = map.emplace(nodes[0].get(), 2);
    QVERIFY(!inserted);
    QCOMPARE(*value, 1);
    map[nodes[1].get()] += 5;  // absent: default-constructed first
    QCOMPARE(*map.find(nodes[1].get()), 5);
    QCOMPARE(map.size(), std::size_t{2});
  }

  void reserveThenFillKeepsValues() {
    const std::vector<Var> nodes = vars(300);
    NodeMap<std::string> map;
    map.reserve(300);
    for (const Var& node : nodes) map[node.get()] = node->name;
    for (const Var& node : nodes) QCOMPARE(*map.find(node.get()), node->name);
  }

  void setsAddEachNodeOnce() {
    const std::vector<Var> nodes = vars(100);
    NodeSet set;
    for (const Var& node : nodes) QVERIFY(set.insert(node.get()));
    for (const Var& node : nodes) QVERIFY(!set.insert(node.get()));
    QCOMPARE(set.size(), std::size_t{100});
    QVERIFY(set.contains(nodes[42].get()));
  }
};

QTEST_GUILESS_MAIN(TestNodeMap)
#include "test_node_map.moc"
