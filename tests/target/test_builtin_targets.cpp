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

  // The rows of `pattern_table()` in python/tvm/relay/op/contrib/dnnl.py (v0.14), in its order,
  // without the two qnn rows: dense_bias_sum, the two conv2d sum patterns, then for bias in (True,
  // False), for each post-op in (relu, tanh, sigmoid, clip, gelu, swish, mish, none), conv1d,
  // conv2d, conv3d, deconv2d, deconv3d and dense.
  void tvmDnnlHasTvmsPatternTableInItsOrder() {
    Target target = loadTarget("tvm-dnnl").value();
    QCOMPARE(target.name, std::string("dnnl"));
    QCOMPARE(target.codegen, std::string("dnnl"));
    std::vector<std::string> expected = {"dnnl.dense_bias_sum", "dnnl.conv2d_bias_sum_relu", "dnnl.conv2d_bias_sum"};
    for (const char* bias : {"_bias", ""})
      for (const char* post : {"_relu", "_tanh", "_sigmoid", "_clip", "_gelu", "_swish", "_mish", ""}) {
        if (!*bias && !*post) continue;
        for (const char* op : {"dnnl.conv1d", "dnnl.conv2d", "dnnl.conv3d", "dnnl.deconv2d", "dnnl.deconv3d", "dnnl.dense"})
          expected.push_back(std::string(op) + bias + post);
      }
    std::vector<std::string> names;
    for (const PatternEntry& row : target.patterns) names.push_back(row.name);
    QCOMPARE(names, expected);
  }

  // make_sum_pattren_predicate checks the conv2d sum rows; make_bias_add_pattren_predicate checks
  // every conv row, but only reaches a decision when the root, or the argument of a relu root, is
  // the bias add: so only the conv rows ending in the bias add or its relu carry a check, and it
  // asks for an nn.conv2d whatever the row's op.
  void tvmDnnlChecksTheBiasAddAsTvmDoes() {
    Target target = loadTarget("tvm-dnnl").value();
    for (const PatternEntry& row : target.patterns) {
      const bool conv = row.name.find("conv") != std::string::npos;
      const bool biasAdd = row.name.ends_with("_bias") || row.name.ends_with("_bias_relu");
      const bool sum = row.name.find("conv2d_bias_sum") != std::string::npos;
      QVERIFY2(row.check.has_value() == (sum || (conv && biasAdd)), row.name.c_str());
      if (conv && biasAdd && !sum) QVERIFY2(row.check->text().find("op(") == 0 && row.check->text().find("== \"nn.conv2d\"") != std::string::npos, row.name.c_str());
    }
  }

  // The 27 ops of `_register_external_op_helper`, the pools refusing ceil_mode; the prune list of
  // prune_dnnl_subgraphs; the preparation of partition_for_dnnl that this tool has.
  void tvmDnnlHasTvmsOpsPruneListAndPreparation() {
    Target target = loadTarget("tvm-dnnl").value();
    QCOMPARE(target.opRules.size(), std::size_t{2});
    QCOMPARE(target.opRules[0].ops, (std::vector<std::string>{"nn.max_pool2d", "nn.avg_pool2d", "nn.max_pool3d", "nn.avg_pool3d"}));
    QCOMPARE(target.opRules[1].ops,
             (std::vector<std::string>{"nn.batch_norm", "nn.conv1d", "nn.conv2d", "nn.conv3d", "nn.conv2d_transpose",
                                       "nn.conv3d_transpose", "nn.dense", "nn.global_avg_pool2d", "abs", "clip", "exp", "log",
                                       "sqrt", "round", "nn.relu", "nn.leaky_relu", "tanh", "sigmoid", "nn.softmax", "add",
                                       "multiply", "nn.layer_norm", "nn.batch_matmul"}));
    QCOMPARE(target.pruneKeepOps,
             (std::vector<std::string>{"nn.conv1d", "nn.conv2d", "nn.conv3d", "nn.conv2d_transpose", "nn.conv3d_transpose",
                                       "nn.dense", "nn.layer_norm", "nn.batch_matmul", "nn.global_avg_pool2d"}));
    QCOMPARE(target.preparePipeline,
             std::string("CanonicalizeOps,SimplifyInference,FoldConstant,FoldScaleAxis,SimplifyExpr,FoldConstant,"
                         "RewriteLayerNorm,RewriteDenseBiasGeluReshapeLast"));
  }
};

QTEST_GUILESS_MAIN(TestBuiltinTargets)
#include "test_builtin_targets.moc"
