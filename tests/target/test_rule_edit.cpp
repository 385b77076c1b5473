#include <QtTest>

#include "target/rule_edit.h"

using namespace byoc;

namespace {

/// A target whose rules are `rules`, one per line.
Target withRules(const QStringList& rules) {
  Target target;
  target.name = "t";
  for (const QString& rule : rules) target.opRules.push_back(parseOpRule(rule.toStdString()).value());
  return target;
}

QStringList ruleTexts(const Target& target) {
  QStringList texts;
  for (const OpRule& rule : target.opRules) texts << QString::fromStdString(rule.text);
  return texts;
}

}  // namespace

/// Setting one op's support in a target's rules.
class TestRuleEdit : public QObject {
  Q_OBJECT

 private slots:
  void theFirstRuleNamingAnOpDecides() {
    const Target target = withRules({QStringLiteral("nn.relu, add when rank(arg0) == 4"), QStringLiteral("add")});
    QCOMPARE(opSupport(target, "add"), (OpSupport{true, "rank(arg0) == 4"}));
    QCOMPARE(opSupport(target, "nn.relu"), (OpSupport{true, "rank(arg0) == 4"}));
    QCOMPARE(opSupport(target, "nn.conv2d"), OpSupport{});
  }

  void editsKeepEveryOtherDecision_data() {
    QTest::addColumn<QStringList>("rules");
    QTest::addColumn<QString>("op");
    QTest::addColumn<bool>("supported");
    QTest::addColumn<QString>("condition");
    QTest::addColumn<QStringList>("expected");
    const QStringList mixed{QStringLiteral("nn.relu, add, tanh when rank(arg0) == 4"), QStringLiteral("nn.conv2d"),
                            QStringLiteral("add")};
    QTest::newRow("support an op no rule names") << mixed << "sigmoid" << true << ""
                                                 << QStringList{mixed[0], mixed[1], mixed[2], QStringLiteral("sigmoid")};
    QTest::newRow("support under a condition")
        << mixed << "sigmoid" << true << "  dtype(arg0) == \"float32\" "
        << QStringList{mixed[0], mixed[1], mixed[2], QStringLiteral("sigmoid when dtype(arg0) == \"float32\"")};
    QTest::newRow("split out of a multi-op rule, in place")
        << mixed << "add" << true << ""
        << QStringList{QStringLiteral("nn.relu, tanh when rank(arg0) == 4"), QStringLiteral("add"), mixed[1]};
    QTest::newRow("unsupport an op named twice")
        << mixed << "add" << false << ""
        << QStringList{QStringLiteral("nn.relu, tanh when rank(arg0) == 4"), mixed[1]};
    QTest::newRow("unsupport the only op of a rule") << mixed << "nn.conv2d" << false << ""
                                                     << QStringList{mixed[0], mixed[2]};
    QTest::newRow("change a single-op rule's condition")
        << mixed << "nn.conv2d" << true << "groups == 1"
        << QStringList{mixed[0], QStringLiteral("nn.conv2d when groups == 1"), mixed[2]};
    QTest::newRow("unsupport an op no rule names") << mixed << "sigmoid" << false << "" << mixed;
  }

  void editsKeepEveryOtherDecision() {
    QFETCH(QStringList, rules);
    QFETCH(QString, op);
    QFETCH(bool, supported);
    QFETCH(QString, condition);
    QFETCH(QStringList, expected);
    const Target before = withRules(rules);
    Result<Target> after = withOpSupport(before, op.toStdString(), {supported, condition.toStdString()});
    QVERIFY2(after, after ? "" : after.error().str().c_str());
    QCOMPARE(ruleTexts(*after), expected);
    QCOMPARE(opSupport(*after, op.toStdString()), (OpSupport{supported, supported ? condition.trimmed().toStdString() : ""}));
    for (const char* other : {"nn.relu", "add", "tanh", "nn.conv2d", "sigmoid"}) {
      if (op.toStdString() != other) QCOMPARE(opSupport(*after, other), opSupport(before, other));
    }
    // The edited rules are what a target file holds: they read back the same.
    Result<Target> reread = parseTarget(serializeTarget(*after));
    QVERIFY(reread);
    QCOMPARE(ruleTexts(*reread), expected);
  }

  void badEditsNameTheirError_data() {
    QTest::addColumn<QString>("op");
    QTest::addColumn<QString>("condition");
    QTest::addColumn<QString>("error");
    QTest::newRow("unknown op") << "nn.conv9d" << "" << "unknown op 'nn.conv9d'";
    QTest::newRow("bad condition") << "add" << "rank(arg0) == 4 andd groups"
                                   << "1:17: found 'andd', expected the end of the condition or an operator";
    QTest::newRow("unclosed call") << "add" << "rank(arg0" << "1:10: found the end of the condition, expected ','";
  }

  void badEditsNameTheirError() {
    QFETCH(QString, op);
    QFETCH(QString, condition);
    QFETCH(QString, error);
    const Target before = withRules({QStringLiteral("add")});
    Result<Target> after = withOpSupport(before, op.toStdString(), {true, condition.toStdString()});
    QVERIFY(!after);
    QCOMPARE(QString::fromStdString(after.error().str()), error);
  }
};

QTEST_GUILESS_MAIN(TestRuleEdit)
#include "test_rule_edit.moc"
