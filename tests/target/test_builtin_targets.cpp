#include <QtTest>

#include "target/target_library.h"

using namespace byoc;

/// The built-in targets: each loads, and `tvm-dnnl` is TVM's own dnnl integration.
class TestBuiltinTargets : public QObject {
  Q_OBJECT

 private slots:
  void everyBuiltinTargetLoads_data() {
    QTest::addColumn<QString>("name");
    for (const std::string& name : builtinTargetNames()) QTest::newRow(name.c_str()) << QString::fromStdString(name);
  }
  void everyBuiltinTargetLoads() {
    QFETCH(QString, name);
    Result<Target> target = loadTarget(name.toStdString());
    QVERIFY2(target.isOk(), target ? "" : target.error().str().c_str());
    QVERIFY(!target->description.empty());
  }

  // The C-source codegen of examples/ccompiler, loaded as a plugin, runs the `ccompiler` target.
  void ccompilerNamesThePluginCodegen() {
    Target target = loadTarget("ccompiler").value();
    QCOMPARE(target.codegen, std::string("plugin:ccompiler"));
    QVERIFY(target.patterns.empty());
  }

  // The rows of `pattern_table()` in python/tvm/relay/op/contrib/dnnl.py (v0.14), in its order:
  // the two sum patterns, then for bias in (True, False), for each post-op in (relu, tanh, sigmoid,
  // clip, gelu, swish, none), conv2d, conv2d_transpose and dense. The conv1d/conv3d rows and the
  // qnn rows are left out until those ops are registered.
  void tvmDnnlHasTvmsPatternTableInItsOrder() {
    Target target = loadTarget("tvm-dnnl").value();
    QCOMPARE(target.name, std::string("dnnl"));
    QCOMPARE(target.codegen, std::string("dnnl"));
    std::vector<std::string> expected = {"dnnl.conv2d_bias_sum_relu", "dnnl.conv2d_bias_sum"};
    for (const char* bias : {"_bias", ""})
      for (const char* post : {"_relu", "_tanh", "_sigmoid", "_clip", "_gelu", "_swish", ""}) {
        if (!*bias && !*post) continue;
        for (const char* op : {"dnnl.conv2d", "dnnl.deconv2d", "dnnl.dense"}) expected.push_back(std::string(op) + bias + post);
      }
    std::vector<std::string> names;
    for (const PatternEntry& row : target.patterns) names.push_back(row.name);
    QCOMPARE(names, expected);
    // Only the sum patterns carry a check (make_predicate(add_checker)).
    for (const PatternEntry& row : target.patterns) QCOMPARE(row.check.has_value(), row.name.find("_sum") != std::string::npos);

    QCOMPARE(target.opRules.size(), std::size_t{1});
    QCOMPARE(target.opRules[0].ops,
             (std::vector<std::string>{"nn.batch_norm", "nn.conv2d", "nn.conv2d_transpose", "nn.dense", "nn.max_pool2d",
                                       "nn.avg_pool2d", "abs", "clip", "exp", "log", "sqrt", "round", "nn.relu", "nn.leaky_relu",
                                       "tanh", "sigmoid", "nn.softmax", "add", "multiply", "nn.layer_norm", "nn.batch_matmul"}));
    QCOMPARE(target.pruneKeepOps,
             (std::vector<std::string>{"nn.conv2d", "nn.conv2d_transpose", "nn.dense", "nn.layer_norm", "nn.batch_matmul"}));
  }
};

QTEST_GUILESS_MAIN(TestBuiltinTargets)
#include "test_builtin_targets.moc"
