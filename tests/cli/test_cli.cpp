#include <QRegularExpression>
#include <QSet>
#include <QTemporaryDir>
#include <QtTest>

#include "cli_runner.h"
#include "test_files.h"
#include "zip_reader.h"

using byoc::testing::runCli;

/// The `byoc` command line: outputs, exit codes and one-line errors.
class TestCli : public QObject {
  Q_OBJECT

  QTemporaryDir dir_;

  QString writeTemp(const QString& name, const QByteArray& content) {
    QFile file(dir_.filePath(name));
    if (!file.open(QIODevice::WriteOnly)) qFatal("cannot write %s", qPrintable(file.fileName()));
    file.write(content);
    return file.fileName();
  }

 private slots:
  void helpListsTheCommands() {
    auto run = runCli({QStringLiteral("--help")});
    QCOMPARE(run.exitCode, 0);
    QVERIFY(run.out.contains(QStringLiteral("  print       print a model as Relay text")));
    QVERIFY(run.out.contains(QStringLiteral("  info        describe a model")));
    QVERIFY(run.out.contains(QStringLiteral("  export-tvm  write a target as a TVM Python module")));
  }

  // A pattern its codegen cannot build is said when the target is loaded: partitioning goes on
  // (it does not need the codegen), naming the file and the row.
  void aPatternTheCodegenCannotBuildIsAWarning() {
    QTemporaryDir dir;
    const QString file = dir.filePath(QStringLiteral("myaccel.json"));
    QFile out(file);
    QVERIFY(out.open(QIODevice::WriteOnly));
    out.write(R"js({"format": "byoc-studio-target", "version": 1, "name": "myaccel", "codegen": "dnnl",
      "patterns": [{"name": "myaccel.pattern_1", "pattern": "nn.relu(nn.conv2d(*, *))"}]})js");
    out.close();
    const auto run = runCli({QStringLiteral("partition"), QStringLiteral("--demo"), QStringLiteral("--target"), file});
    QCOMPARE(run.exitCode, 0);
    QVERIFY2(run.err.startsWith(QStringLiteral("warning: ") + file +
                                QStringLiteral(": pattern 1 ('myaccel.pattern_1'): the dnnl codegen builds no composite called")),
             qPrintable(run.err));
  }

  void versionIsPrinted() {
    auto run = runCli({QStringLiteral("--version")});
    QCOMPARE(run.exitCode, 0);
    QVERIFY(run.out.startsWith(QStringLiteral("byoc ")));
  }

  void printDemoWithTypesMatchesTheGolden() {
    auto run = runCli({QStringLiteral("print"), QStringLiteral("--demo"), QStringLiteral("--types")});
    QCOMPARE(run.exitCode, 0);
    QCOMPARE(run.out.toStdString(), byoc::testing::readTestData(QStringLiteral("text/demo.typed.expected")));
  }

  void printFileMatchesTheGolden() {
    auto run = runCli({QStringLiteral("print"), QString::fromStdString(byoc::testing::testDataPath(QStringLiteral("text/demo.relay")))});
    QCOMPARE(run.exitCode, 0);
    QCOMPARE(run.out.toStdString(), byoc::testing::readTestData(QStringLiteral("text/demo.expected")));
  }

  void infoCountsNodesAndOps() {
    auto run = runCli({QStringLiteral("info"), QStringLiteral("--demo")});
    QCOMPARE(run.exitCode, 0);
    QVERIFY(run.out.startsWith(QStringLiteral("functions: 1\n  @main(%data: Tensor[(1, 32, 56, 56), float32]")));
    QVERIFY(run.out.contains(QStringLiteral("ops:\n  nn.bias_add: 2\n  nn.conv2d: 2\n  nn.relu: 2\n  add: 1\n  less: 1\n  reshape: 1\n")));
    QVERIFY(run.out.contains(QStringLiteral("constants: 3 (12 bytes)")));
  }

  void syntaxErrorIsOneLineWithLocation() {
    QString path = writeTemp(QStringLiteral("broken.relay"), "def @main(%x: Tensor[(1), float32]) {\n  add(%x, )\n}\n");
    auto run = runCli({QStringLiteral("print"), path});
    QCOMPARE(run.exitCode, 1);
    QCOMPARE(run.err, QStringLiteral("error: %1:2:11: found ')', expected an expression\n").arg(path));
    QVERIFY(run.out.isEmpty());
  }

  void typeErrorNamesTheNode() {
    QString path = writeTemp(QStringLiteral("mismatch.relay"),
                             "def @main(%x: Tensor[(1, 3), float32], %y: Tensor[(1, 4), float32]) {\n  add(%x, %y)\n}\n");
    auto run = runCli({QStringLiteral("info"), path});
    QCOMPARE(run.exitCode, 1);
    QVERIFY2(run.err.startsWith(QStringLiteral("error: %1:2:3: ").arg(path)), qPrintable(run.err));
    QCOMPARE(run.err.count(QLatin1Char('\n')), 1);
  }

  void missingFileIsAnError() {
    QString path = dir_.filePath(QStringLiteral("absent.relay"));
    auto run = runCli({QStringLiteral("print"), path});
    QCOMPARE(run.exitCode, 1);
    QCOMPARE(run.err, QStringLiteral("error: %1: cannot open: No such file or directory\n").arg(path));
  }

  void partitionPrintsThePartitionedDemo() {
    auto run = runCli({QStringLiteral("partition"), QStringLiteral("--demo"), QStringLiteral("--target"), QStringLiteral("byoc-target")});
    QCOMPARE(run.exitCode, 0);
    QCOMPARE(run.out.toStdString(), byoc::testing::readTestData(QStringLiteral("partition/demo.partitioned.expected")));
  }

  void partitionDumpsEveryStepAndWritesJson() {
    QString dump = dir_.filePath(QStringLiteral("steps"));
    QString out = dir_.filePath(QStringLiteral("partitioned.json"));
    auto run = runCli({QStringLiteral("partition"), QStringLiteral("--demo"), QStringLiteral("--target"), QStringLiteral("byoc-target"),
                       QStringLiteral("--dump-after-each"), dump, QStringLiteral("-o"), out});
    QCOMPARE(run.exitCode, 0);
    QVERIFY(run.out.isEmpty());
    QCOMPARE(QDir(dump).entryList(QDir::Files, QDir::Name),
             (QStringList{QStringLiteral("01-MergeComposite.relay"), QStringLiteral("02-AnnotateTarget.relay"),
                          QStringLiteral("03-MergeCompilerRegions.relay"), QStringLiteral("04-PartitionGraph.relay")}));
    auto reprinted = runCli({QStringLiteral("print"), out});
    QCOMPARE(reprinted.exitCode, 0);
    QCOMPARE(reprinted.out.toStdString(), byoc::testing::readTestData(QStringLiteral("partition/demo.partitioned.expected")));
  }

  void timePassesPrintsARowPerPassToStderr() {
    auto run = runCli({QStringLiteral("partition"), QStringLiteral("--demo"), QStringLiteral("--target"), QStringLiteral("byoc-target"),
                       QStringLiteral("--time-passes")});
    QCOMPARE(run.exitCode, 0);
    QCOMPARE(run.out.toStdString(), byoc::testing::readTestData(QStringLiteral("partition/demo.partitioned.expected")));
    const QStringList lines = run.err.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QVERIFY2(lines.size() > 5, qPrintable(run.err));
    QVERIFY2(QRegularExpression(QStringLiteral("^pass +time \\(ms\\)  share$")).match(lines.first()).hasMatch(), qPrintable(lines.first()));
    const QRegularExpression row(QStringLiteral("^( *)(\\w+) +\\d+\\.\\d{3} +\\d+\\.\\d%$"));
    QStringList steps;
    for (const QString& line : lines.mid(1, lines.size() - 2)) {
      QRegularExpressionMatch match = row.match(line);
      QVERIFY2(match.hasMatch(), qPrintable(line));
      if (match.captured(1).isEmpty()) steps << match.captured(2);  // nested passes are indented
    }
    QCOMPARE(steps, (QStringList{QStringLiteral("MergeComposite"), QStringLiteral("AnnotateTarget"), QStringLiteral("MergeCompilerRegions"),
                                 QStringLiteral("PartitionGraph")}));
    QVERIFY2(QRegularExpression(QStringLiteral("^total +\\d+\\.\\d{3}  100\\.0%$")).match(lines.last()).hasMatch(), qPrintable(lines.last()));
  }

  void printIrAfterDumpsTheNamedPassToStderr_data() {
    QTest::addColumn<QStringList>("flag");
    QTest::newRow("=") << QStringList{QStringLiteral("--print-ir-after=AnnotateTarget")};
    QTest::newRow("space") << QStringList{QStringLiteral("--print-ir-after"), QStringLiteral("AnnotateTarget")};
  }
  void printIrAfterDumpsTheNamedPassToStderr() {
    QFETCH(QStringList, flag);
    auto run = runCli(QStringList{QStringLiteral("partition"), QStringLiteral("--demo"), QStringLiteral("--target"), QStringLiteral("byoc-target")} + flag);
    QCOMPARE(run.exitCode, 0);
    QCOMPARE(run.out.toStdString(), byoc::testing::readTestData(QStringLiteral("partition/demo.partitioned.expected")));
    QVERIFY2(run.err.startsWith(QStringLiteral("// -----// IR Dump After AnnotateTarget //----- //\n#[version = \"0.0.5\"]\ndef @main(")),
             qPrintable(run.err));
    QCOMPARE(run.err.count(QStringLiteral("IR Dump After")), 1);
    QVERIFY(run.err.contains(QStringLiteral("annotation.compiler_begin(")));
  }

  void printIrAfterAllDumpsEveryPassInOrder() {
    auto run = runCli({QStringLiteral("opt"), QStringLiteral("--demo"), QStringLiteral("--passes"), QStringLiteral("FoldConstant,FuseOps"),
                       QStringLiteral("--print-ir-after-all")});
    QCOMPARE(run.exitCode, 0);
    QStringList headers;
    for (const QString& line : run.err.split(QLatin1Char('\n')))
      if (line.startsWith(QLatin1String("// -----// IR Dump After "))) headers << line;
    // FuseOps requires InferType before it, and types its result with a nested InferType, which
    // finishes before FuseOps does.
    QCOMPARE(headers, (QStringList{QStringLiteral("// -----// IR Dump After FoldConstant //----- //"),
                                   QStringLiteral("// -----// IR Dump After InferType //----- //"),
                                   QStringLiteral("// -----// IR Dump After InferType //----- //"),
                                   QStringLiteral("// -----// IR Dump After FuseOps //----- //")}));
  }

  void verifyEachPassesAWellFormedRunSilently_data() {
    QTest::addColumn<QString>("pipeline");
    QTest::newRow("relay") << QStringLiteral("relay");
    QTest::newRow("relax") << QStringLiteral("relax");
  }
  void verifyEachPassesAWellFormedRunSilently() {
    QFETCH(QString, pipeline);
    auto run = runCli({QStringLiteral("partition"), QStringLiteral("--demo"), QStringLiteral("--target"), QStringLiteral("dnnl"),
                       QStringLiteral("--pipeline"), pipeline, QStringLiteral("--verify-each")});
    QCOMPARE(run.exitCode, 0);
    QVERIFY2(run.err.isEmpty(), qPrintable(run.err));
    auto unverified = runCli({QStringLiteral("partition"), QStringLiteral("--demo"), QStringLiteral("--target"), QStringLiteral("dnnl"),
                              QStringLiteral("--pipeline"), pipeline});
    QCOMPARE(run.out, unverified.out);
  }

  void runAndExportTakeThePassFlags() {
    auto run = runCli({QStringLiteral("run"), QStringLiteral("--demo"), QStringLiteral("--target"), QStringLiteral("byoc-target"),
                       QStringLiteral("--random-inputs"), QStringLiteral("1"), QStringLiteral("--time-passes"), QStringLiteral("--verify-each")});
    QCOMPARE(run.exitCode, 0);
    QVERIFY2(run.err.startsWith(QStringLiteral("pass ")) && run.err.contains(QStringLiteral("\nPartitionGraph ")), qPrintable(run.err));
    QVERIFY(run.out.contains(QStringLiteral("outputs:")));
    const QString out = dir_.filePath(QStringLiteral("export-with-dump"));
    auto exported = runCli({QStringLiteral("export"), QStringLiteral("--demo"), QStringLiteral("--target"), QStringLiteral("byoc-target"),
                            QStringLiteral("-o"), out, QStringLiteral("--print-ir-after"), QStringLiteral("PartitionGraph")});
    QCOMPARE(exported.exitCode, 0);
    QVERIFY2(exported.err.startsWith(QStringLiteral("// -----// IR Dump After PartitionGraph //----- //\n")), qPrintable(exported.err));
    QVERIFY(exported.err.contains(QStringLiteral("def @tvmgen_default_byoc_target_main_0(")));
  }

  void commandHelpListsThePassFlags() {
    auto run = runCli({QStringLiteral("opt"), QStringLiteral("--help")});
    QCOMPARE(run.exitCode, 0);
    QVERIFY2(run.out.contains(QStringLiteral("[--time-passes] [--print-ir-after-all] [--print-ir-after PASS ...] [--verify-each]")),
             qPrintable(run.out));
    QVERIFY(run.out.contains(QStringLiteral("\n  --print-ir-after PASS   print the module to stderr after each run of PASS")));
    QVERIFY(run.out.contains(QStringLiteral("--option=VALUE")));
  }

  void partitionErrorsNameWhatIsWrong_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("error");
    QTest::newRow("unknown target") << QStringList{QStringLiteral("--target"), QStringLiteral("tpu9")}
                                    << "error: unknown target 'tpu9'; built-in targets are byoc-target, ccompiler, dnnl, tvm-dnnl, or give a target file (.json)\n";
    QTest::newRow("no target") << QStringList{} << "error: no target given\n";
    QTest::newRow("pipeline") << QStringList{QStringLiteral("--target"), QStringLiteral("dnnl"), QStringLiteral("--pipeline"), QStringLiteral("tf")}
                              << "error: unknown pipeline 'tf'; expected relay or relax\n";
  }
  void partitionErrorsNameWhatIsWrong() {
    QFETCH(QStringList, args);
    QFETCH(QString, error);
    auto run = runCli(QStringList{QStringLiteral("partition"), QStringLiteral("--demo")} + args);
    QCOMPARE(run.exitCode, 1);
    QCOMPARE(run.err, error);
  }

  void partitionRejectsABadTargetFile() {
    QString path = writeTemp(QStringLiteral("bad.json"), R"({"format": "byoc-studio-target", "version": 1, "name": "t", "op_rules": ["nn.relu whenn True"]})");
    auto run = runCli({QStringLiteral("partition"), QStringLiteral("--demo"), QStringLiteral("--target"), path});
    QCOMPARE(run.exitCode, 1);
    QVERIFY2(run.err.startsWith(QStringLiteral("error: %1").arg(path)), qPrintable(run.err));
    QVERIFY2(run.err.contains(QStringLiteral("/op_rules/0")), qPrintable(run.err));
  }

  void exportTvmHelpShowsTheRequiredTarget() {
    auto run = runCli({QStringLiteral("export-tvm"), QStringLiteral("--help")});
    QCOMPARE(run.exitCode, 0);
    QVERIFY2(run.out.contains(QStringLiteral("usage: byoc export-tvm --target T [-o OUT.py] [--plugin PATH ...]\n")), qPrintable(run.out));
  }

  void exportTvmPrintsTheTargetAsPython() {
    auto run = runCli({QStringLiteral("export-tvm"), QStringLiteral("--target"), QStringLiteral("byoc-target")});
    QCOMPARE(run.exitCode, 0);
    QCOMPARE(run.out.toStdString(), byoc::testing::readTestData(QStringLiteral("export/tvm/byoc-target.py")));
    QVERIFY(run.err.isEmpty());
  }

  void exportTvmWritesTheFile() {
    QString out = dir_.filePath(QStringLiteral("dnnl.py"));
    auto run = runCli({QStringLiteral("export-tvm"), QStringLiteral("--target"), QStringLiteral("dnnl"), QStringLiteral("-o"), out});
    QCOMPARE(run.exitCode, 0);
    QVERIFY(run.out.isEmpty());
    QFile file(out);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QCOMPARE(file.readAll().toStdString(), byoc::testing::readTestData(QStringLiteral("export/tvm/dnnl.py")));
  }

  void exportTvmNamesWhatHasNoTvmForm() {
    QString path = writeTemp(QStringLiteral("sized.json"), R"J({"format": "byoc-studio-target", "version": 1, "name": "t",
      "patterns": [{"name": "t.relu", "pattern": "nn.relu(*)", "check": "size(arg0) > 1"}]})J");
    QString out = dir_.filePath(QStringLiteral("sized.py"));
    auto run = runCli({QStringLiteral("export-tvm"), QStringLiteral("--target"), path, QStringLiteral("-o"), out});
    QCOMPARE(run.exitCode, 1);
    QCOMPARE(run.err, QStringLiteral("error: %1: at /patterns/0/check (t.relu): 1:1: unknown function 'size'; expected op, dtype, shape, "
                                     "rank, numel, attr, is_constant, num_args, arg_dtypes or static_shape\n").arg(path));
    QVERIFY(!QFile::exists(out));
  }

  void exportTvmNamesAnUnknownTarget() {
    auto run = runCli({QStringLiteral("export-tvm"), QStringLiteral("--target"), QStringLiteral("tpu9")});
    QCOMPARE(run.exitCode, 1);
    QCOMPARE(run.err, QStringLiteral("error: unknown target 'tpu9'; built-in targets are byoc-target, ccompiler, dnnl, tvm-dnnl, or give a target file (.json)\n"));
    QVERIFY(run.out.isEmpty());
  }

  void partitionWritesTheParamsTheTextNames() {
    QString model = QString::fromStdString(byoc::testing::testDataPath(QStringLiteral("export/params.relay")));
    QString params = dir_.filePath(QStringLiteral("params.npz"));
    auto run = runCli({QStringLiteral("partition"), model, QStringLiteral("--target"), QStringLiteral("dnnl"), QStringLiteral("--params"), params});
    QCOMPARE(run.exitCode, 0);
    QSet<QString> referenced;
    QRegularExpression reference(QStringLiteral(R"(meta\[relay\.Constant\]\[\d+\])"));
    const QString program = run.out.left(run.out.indexOf(QStringLiteral("#[metadata]")));
    for (const QRegularExpressionMatch& match : reference.globalMatch(program)) referenced.insert(match.captured() + QStringLiteral(".npy"));
    QVERIFY(!referenced.isEmpty());
    QFile file(params);
    QVERIFY(file.open(QIODevice::ReadOnly));
    std::string problem;
    auto entries = byoc::testing::readStoredZip(file.readAll().toStdString(), problem);
    QVERIFY2(entries.has_value(), problem.c_str());
    QSet<QString> members;
    for (const auto& entry : *entries) {
      members.insert(QString::fromStdString(entry.name));
      QVERIFY(entry.data.rfind("\x93NUMPY", 0) == 0);
    }
    QCOMPARE(members, referenced);
  }

  void partitionParamsNeedRelayText() {
    QString out = dir_.filePath(QStringLiteral("m.json"));
    QString params = dir_.filePath(QStringLiteral("m.npz"));
    auto run = runCli({QStringLiteral("partition"), QStringLiteral("--demo"), QStringLiteral("--target"), QStringLiteral("dnnl"), QStringLiteral("-o"), out,
                       QStringLiteral("--params"), params});
    QCOMPARE(run.exitCode, 1);
    QCOMPARE(run.err, QStringLiteral("error: %1: --params names the constants as the Relay text does; write the module as Relay text, not JSON\n").arg(out));
    QVERIFY(!QFile::exists(params));
  }

  void passesListsTheRegistry() {
    auto run = runCli({QStringLiteral("passes")});
    QCOMPARE(run.exitCode, 0);
    QVERIFY(run.out.contains(QRegularExpression(QStringLiteral("\nMergeCompilerRegions +merges adjacent annotated regions"))));
    QVERIFY(run.out.contains(QStringLiteral("\nFuseOps ")));
  }

  void optRunsAPipelineAndNamesABadOne() {
    auto run = runCli({QStringLiteral("opt"), QStringLiteral("--demo"), QStringLiteral("--passes"),
                       QStringLiteral("MergeComposite(targets=\"byoc-target\"),AnnotateTarget(targets=\"byoc-target\"),MergeCompilerRegions,PartitionGraph")});
    QCOMPARE(run.exitCode, 0);
    QCOMPARE(run.out.toStdString(), byoc::testing::readTestData(QStringLiteral("partition/demo.partitioned.expected")));
    auto bad = runCli({QStringLiteral("opt"), QStringLiteral("--demo"), QStringLiteral("--passes"), QStringLiteral("FoldConstant,Frob")});
    QCOMPARE(bad.exitCode, 1);
    QCOMPARE(bad.err, QStringLiteral("error: <pipeline>:1:14: unknown pass 'Frob'\n"));
  }

  void matchListsEachMatchWithItsNodes() {
    auto run = runCli({QStringLiteral("match"), QStringLiteral("--demo"), QStringLiteral("--pattern"),
                       QStringLiteral("nn.relu(nn.bias_add(nn.conv2d(*, *), *))")});
    QCOMPARE(run.exitCode, 0);
    QVERIFY(run.out.startsWith(QStringLiteral("match 1 in @main: a call of nn.relu (demo.relay:9:12)\n")));
    QVERIFY(run.out.contains(QStringLiteral("  a call of nn.conv2d (demo.relay:12:12)\n")));
    QVERIFY(run.out.endsWith(QStringLiteral("\n2 matches\n")));
    auto bad = runCli({QStringLiteral("match"), QStringLiteral("--demo"), QStringLiteral("--pattern"), QStringLiteral("nn.relu((")});
    QCOMPARE(bad.exitCode, 1);
    QCOMPARE(bad.err, QStringLiteral("error: --pattern:1:10: found the end of the input, expected a pattern\n"));
  }

  void runPartitionsForDnnlAndAgreesWithTheReference() {
    QString model = QString::fromStdString(byoc::testing::testDataPath(QStringLiteral("partition/dnnl_convnet.relay")));
    auto run = runCli({QStringLiteral("run"), model, QStringLiteral("--target"), QStringLiteral("dnnl"), QStringLiteral("--random-inputs"),
                       QStringLiteral("7"), QStringLiteral("--compare-reference")});
    QCOMPARE(run.exitCode, 0);
    QVERIFY2(run.out.contains(QStringLiteral("  @tvmgen_default_dnnl_main_0  Compiler=dnnl  codegen=dnnl\n")), qPrintable(run.out));
    QVERIFY2(run.out.contains(QStringLiteral("compare with reference (reference kernels only):\n  0  max abs error ")), qPrintable(run.out));
    QVERIFY2(run.out.contains(QStringLiteral("  ok\n")), qPrintable(run.out));
    QVERIFY2(run.out.endsWith(QStringLiteral("each offloaded call on the inputs the run gave it (int8 and uint8 within two "
                                             "steps):\n  8 of 8 agree\n")),
             qPrintable(run.out));
  }

  // A quantized residual block: each int8 convolution, the last with its residual sum, is checked
  // on the inputs the run gave it, and those decide the verdict.
  void runChecksEachQuantizedCallOnItsInputs() {
    QString model = QString::fromStdString(byoc::testing::testDataPath(QStringLiteral("runtime/qdq_residual.onnx")));
    auto run = runCli({QStringLiteral("run"), model, QStringLiteral("--target"), QStringLiteral("dnnl"), QStringLiteral("--random-inputs"),
                       QStringLiteral("3"), QStringLiteral("--compare-reference")});
    QCOMPARE(run.exitCode, 0);
    QVERIFY2(run.out.contains(QStringLiteral("(int8 and uint8 within two steps):\n  5 of 5 agree\nquantized: each call decides")),
             qPrintable(run.out));
  }

  // The parameters of a region are named after its target (`<target>_<region>_i<k>`, as TVM names
  // them); a target name with `+` or `-` must still give text that reads back.
  void aTargetNameWithPunctuationRoundTripsThroughText() {
    const QString target = writeTemp(QStringLiteral("plus.json"),
        R"json({"format": "byoc-studio-target", "version": 1, "name": "my+acc-2", "codegen": "reference",
            "op_rules": ["nn.conv2d, nn.bias_add, nn.relu"]})json");
    const QString out = dir_.filePath(QStringLiteral("plus.relay"));
    auto partition = runCli({QStringLiteral("partition"), QStringLiteral("--demo"), QStringLiteral("--target"), target, QStringLiteral("-o"), out});
    QCOMPARE(partition.exitCode, 0);
    auto print = runCli({QStringLiteral("print"), out});
    QVERIFY2(print.exitCode == 0, qPrintable(print.err));
    QVERIFY2(print.out.contains(QStringLiteral("(%my_acc_2_0_i0: Tensor[(1, 32, 56, 56), float32]")), qPrintable(print.out));
    QVERIFY(print.out.contains(QStringLiteral("Compiler=\"my+acc-2\"")));
  }

  // The functions OutlineRegions and the Relax flow name after a target keep its name:
  // `@my+acc-2_main_0`, `@fused_relax_nn_conv2d…_my+acc-2`, and read back as they print.
  void globalNamesWithATargetsPunctuationReadBack() {
    const QString target = writeTemp(QStringLiteral("plus_pattern.json"),
        R"json({"format": "byoc-studio-target", "version": 1, "name": "my+acc-2", "codegen": "reference",
            "op_rules": ["nn.conv2d, nn.bias_add, nn.relu"], "patterns": [{"name": "my+acc-2.conv", "pattern": "nn.conv2d(*, *)"}]})json");
    const QString model = QString::fromStdString(byoc::testing::testDataPath(QStringLiteral("partition/dnnl_convnet.relay")));
    const QString outlined = dir_.filePath(QStringLiteral("outlined.relay"));
    const QString fused = dir_.filePath(QStringLiteral("fused.relay"));
    auto outline = runCli({QStringLiteral("opt"), model, QStringLiteral("--passes"),
                           QStringLiteral("AnnotateTarget(targets=\"%1\"),MergeCompilerRegions,FlattenNestedTuples,"
                                          "RemoveDefaultAnnotations,OutlineRegions").arg(target),
                           QStringLiteral("-o"), outlined});
    QVERIFY2(outline.exitCode == 0, qPrintable(outline.err));
    auto relax = runCli({QStringLiteral("partition"), model, QStringLiteral("--target"), target, QStringLiteral("--pipeline"),
                         QStringLiteral("relax"), QStringLiteral("-o"), fused});
    QVERIFY2(relax.exitCode == 0, qPrintable(relax.err));
    for (const auto& [file, name] : {std::pair{outlined, QStringLiteral("@my+acc-2_main_0(")},
                                     std::pair{fused, QStringLiteral("_my+acc-2(")}}) {
      auto print = runCli({QStringLiteral("print"), file});
      QVERIFY2(print.exitCode == 0, qPrintable(print.err));
      QVERIFY2(print.out.contains(name), qPrintable(print.out));
    }
  }

  // Options read as `byoc passes --reference` writes them, and as TVM users write them; a bad
  // target file an option names is reported with its own name.
  void pipelineOptionsReadAsTheReferenceWritesThem() {
    auto reference = runCli({QStringLiteral("passes"), QStringLiteral("--reference")});
    QVERIFY(reference.out.contains(QStringLiteral("- option `include_non_call_ops` (default `true`)")));
    for (const char* value : {"true", "False"}) {
      auto run = runCli({QStringLiteral("opt"), QStringLiteral("--demo"), QStringLiteral("--passes"),
                         QStringLiteral("AnnotateTarget(targets=byoc-target, include_non_call_ops=%1)").arg(value)});
      QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    }
    const QString target = writeTemp(QStringLiteral("bad_rule.json"),
                                     R"({"format": "byoc-studio-target", "version": 1, "name": "t", "op_rules": ["nn.relu when"]})");
    auto bad = runCli({QStringLiteral("opt"), QStringLiteral("--demo"), QStringLiteral("--passes"),
                       QStringLiteral("AnnotateTarget(targets=\"%1\")").arg(target)});
    QCOMPARE(bad.exitCode, 1);
    QCOMPARE(bad.err, QStringLiteral("error: %1: at /op_rules/0 (nn.relu): 1:13: found the end of the condition, expected a value, a name or '('\n")
                          .arg(target));
    // Its pipelines are checked too, as --target checks them.
    const QString badOptimize = writeTemp(QStringLiteral("bad_optimize.json"),
        R"({"format": "byoc-studio-target", "version": 1, "name": "t", "op_rules": ["nn.relu"], "optimize": "FoldConstant,SimplifyExp"})");
    for (const QStringList& args : {QStringList{QStringLiteral("opt"), QStringLiteral("--demo"), QStringLiteral("--passes"),
                                                QStringLiteral("AnnotateTarget(targets=\"%1\")").arg(badOptimize)},
                                    QStringList{QStringLiteral("partition"), QStringLiteral("--demo"), QStringLiteral("--target"), badOptimize}}) {
      auto run = runCli(args);
      QCOMPARE(run.exitCode, 1);
      QCOMPARE(run.err, QStringLiteral("error: %1: at /optimize: 1:14: unknown pass 'SimplifyExp'\n").arg(badOptimize));
    }
  }

  void rewriteReplacesEveryMatchToAFixedPoint() {
    const QString model = writeTemp(QStringLiteral("chain3.relay"),
                                    "def @main(%x: Tensor[(1, 8), float32]) {\n  %0 = nn.relu(nn.relu(nn.relu(%x)));\n  multiply(%0, 1f)\n}\n");
    auto run = runCli({QStringLiteral("rewrite"), model, QStringLiteral("--pattern"), QStringLiteral("x = *; nn.relu(nn.relu(x))"),
                       QStringLiteral("--replace"), QStringLiteral("nn.relu(x)")});
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    QCOMPARE(run.out, QStringLiteral("#[version = \"0.0.5\"]\ndef @main(%x: Tensor[(1, 8), float32]) -> Tensor[(1, 8), float32] {\n"
                                     "  %0 = nn.relu(%x);\n  multiply(%0, 1f)\n}\n"));

    auto growing = runCli({QStringLiteral("rewrite"), model, QStringLiteral("--pattern"), QStringLiteral("x = *; nn.relu(x)"),
                           QStringLiteral("--replace"), QStringLiteral("nn.relu(nn.relu(x))")});
    QCOMPARE(growing.exitCode, 1);
    QVERIFY2(growing.err.startsWith(QStringLiteral("error: PatternRewrite: rewrite: the expression grew to ")), qPrintable(growing.err));

    auto unknown = runCli({QStringLiteral("rewrite"), model, QStringLiteral("--pattern"), QStringLiteral("x = *; nn.relu(x)"),
                           QStringLiteral("--replace"), QStringLiteral("tanh(y)")});
    QCOMPARE(unknown.exitCode, 1);
    QCOMPARE(unknown.err, QStringLiteral("error: --replace:1:6: found 'y', expected a registered op or a name defined before\n"));

    auto ill = runCli({QStringLiteral("rewrite"), model, QStringLiteral("--pattern"), QStringLiteral("x = *; nn.relu(x)"),
                       QStringLiteral("--replace"), QStringLiteral("nn.conv2d(x, x)")});
    QCOMPARE(ill.exitCode, 1);
    QVERIFY2(ill.err.startsWith(QStringLiteral("error: PatternRewrite: ")) && ill.err.contains(QStringLiteral("nn.conv2d")), qPrintable(ill.err));
  }

  // A target's rewrite rows run before its pattern table, each a step of its own.
  void aTargetsRewriteRowsRunBeforeItsPatterns() {
    const QString model = writeTemp(QStringLiteral("rows.relay"),
                                    "def @main(%x: Tensor[(1, 8), float32]) {\n  sigmoid(nn.relu(tanh(nn.relu(%x))))\n}\n");
    const QString target = writeTemp(QStringLiteral("rows.json"),
        "{\"format\": \"byoc-studio-target\", \"version\": 1, \"name\": \"acc\", \"codegen\": \"reference\", \"op_rules\": [\"tanh\"],"
        " \"rewrites\": [{\"pattern\": \"x = *; nn.relu(x)\", \"replace\": \"tanh(x)\"}]}");
    const QString steps = dir_.filePath(QStringLiteral("rows-steps"));
    auto run = runCli({QStringLiteral("partition"), model, QStringLiteral("--target"), target, QStringLiteral("--dump-after-each"), steps});
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    QVERIFY(QFile::exists(steps + QStringLiteral("/01-PatternRewrite.relay")));
    QVERIFY(QFile::exists(steps + QStringLiteral("/02-MergeComposite.relay")));
    QVERIFY2(!run.out.contains(QStringLiteral("nn.relu")), qPrintable(run.out));
    QCOMPARE(run.out.count(QStringLiteral("Compiler=\"acc\"")), 1);  // the three tanh in one region
    QVERIFY(run.out.contains(QStringLiteral("sigmoid(")));

    // Rules that never settle stop after TVM's 100 callback passes, from the command line and from
    // a target's row, which the error names.
    const QString endless = writeTemp(QStringLiteral("endless.json"),
        "{\"format\": \"byoc-studio-target\", \"version\": 1, \"name\": \"acc\", \"op_rules\": [\"tanh\"],"
        " \"rewrites\": [{\"pattern\": \"x = *; nn.relu(x)\", \"replace\": \"tanh(x)\"},"
        " {\"pattern\": \"a = *; b = *; add(a, b)\", \"replace\": \"add(b, a)\"}]}");
    const QString sum = writeTemp(QStringLiteral("sum.relay"),
                                  "def @main(%x: Tensor[(1, 8), float32], %y: Tensor[(1, 8), float32]) {\n  add(%x, %y)\n}\n");
    const QString limit = QStringLiteral("rewrite: no fixed point after 100 callback passes (possible conflicting rewrites)\n");
    auto row = runCli({QStringLiteral("partition"), sum, QStringLiteral("--target"), endless});
    QCOMPARE(row.exitCode, 1);
    QCOMPARE(row.err, QStringLiteral("error: PatternRewrite: %1: at /rewrites/1: ").arg(endless) + limit);
    auto command = runCli({QStringLiteral("rewrite"), sum, QStringLiteral("--pattern"), QStringLiteral("a = *; b = *; add(a, b)"),
                           QStringLiteral("--replace"), QStringLiteral("add(b, a)")});
    QCOMPARE(command.exitCode, 1);
    QCOMPARE(command.err, QStringLiteral("error: PatternRewrite: ") + limit);
  }

  // TVM's pattern.partition(): each match outlined into a function called in place, marked with
  // PartitionedFromPattern (the ops of the match in post-order, each followed by '_'), no Composite.
  void matchPartitionOutlinesEveryMatch() {
    const QString model = writeTemp(QStringLiteral("convrelu.relay"),
        "def @main(%x: Tensor[(1, 3, 8, 8), float32], %w: Tensor[(4, 3, 3, 3), float32]) {\n"
        "  nn.relu(nn.conv2d(%x, %w))\n}\n");
    auto run = runCli({QStringLiteral("match"), model, QStringLiteral("--pattern"), QStringLiteral("nn.relu(nn.conv2d(*, *))"),
                       QStringLiteral("--partition")});
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    QVERIFY2(run.out.contains(QStringLiteral("PartitionedFromPattern=\"nn.conv2d_nn.relu_\"")), qPrintable(run.out));
    QVERIFY(!run.out.contains(QStringLiteral("Composite")));
    QVERIFY2(run.out.endsWith(QStringLiteral("  };\n  %1(%x, %w)\n}\n")), qPrintable(run.out));
  }

  // relu → tanh → relu → sigmoid. Side A supports relu and tanh and fuses relu → tanh into a
  // composite: one region of three calls. Side B supports relu only: two one-call regions, tanh on
  // the host, no composite. Both targets are called `acc`, so only tanh is placed differently.
  void compareNamesWhatDiffers() {
    const QString model = writeTemp(QStringLiteral("chain.relay"),
                                    "def @main(%x: Tensor[(1, 8), float32]) {\n"
                                    "  %0 = nn.relu(%x);\n  %1 = tanh(%0);\n  %2 = nn.relu(%1);\n  sigmoid(%2)\n}\n");
    const QString targetA = writeTemp(QStringLiteral("a.json"),
        R"json({"format": "byoc-studio-target", "version": 1, "name": "acc", "codegen": "reference", "op_rules": ["nn.relu, tanh"],
            "patterns": [{"name": "acc.relu_tanh", "pattern": "tanh(nn.relu(*))"}]})json");
    const QString targetB = writeTemp(QStringLiteral("b.json"),
        R"json({"format": "byoc-studio-target", "version": 1, "name": "acc", "codegen": "reference", "op_rules": ["nn.relu"]})json");
    auto run = runCli({QStringLiteral("compare"), model, QStringLiteral("--target"), targetA, QStringLiteral("--against"), targetB});
    QCOMPARE(run.exitCode, 0);
    const QStringList lines = run.out.split(QLatin1Char('\n'));
    QVERIFY2(lines.contains(QStringLiteral("A: %1 (relay flow): 1 region, 1 composite").arg(targetA)), qPrintable(run.out));
    QVERIFY2(lines.contains(QStringLiteral("B: %1 (relay flow): 2 regions, 0 composites").arg(targetB)), qPrintable(run.out));
    QVERIFY2(lines.contains(QStringLiteral("  tanh 1     acc host tanh at %1:3:8").arg(model)), qPrintable(run.out));
    QVERIFY2(lines.contains(QStringLiteral("  split in B tvmgen_default_acc_main_0 3     tvmgen_default_acc_main_0, tvmgen_default_acc_main_1 2")),
             qPrintable(run.out));
    QVERIFY2(lines.contains(QStringLiteral("  acc.relu_tanh - 1     nn.relu at %1:2:8 and 1 more call").arg(model)), qPrintable(run.out));
    QVERIFY2(run.out.endsWith(QStringLiteral("summary: 1 of 4 op calls placed differently (1 offloaded only in A, 0 only in B), "
                                             "1 region group and 1 composite group differ\n")),
             qPrintable(run.out));

    auto same = runCli({QStringLiteral("compare"), model, QStringLiteral("--target"), targetB, QStringLiteral("--against"), targetB});
    QCOMPARE(same.exitCode, 0);
    QVERIFY2(same.out.endsWith(QStringLiteral("summary: no differences; 0 of 4 op calls placed differently (0 offloaded only in A, 0 only in B), "
                                              "0 region groups and 0 composite groups differ\n")),
             qPrintable(same.out));

    auto missing = runCli({QStringLiteral("compare"), model, QStringLiteral("--target"), targetA, QStringLiteral("--against"),
                           dir_.filePath(QStringLiteral("none.json"))});
    QCOMPARE(missing.exitCode, 1);
    QVERIFY2(missing.err.startsWith(QStringLiteral("error: ")) && missing.err.contains(QStringLiteral("none.json")), qPrintable(missing.err));
  }

  void usageErrorsExitWithTwo_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("error");
    QTest::newRow("no command") << QStringList{} << "error: missing command\n";
    QTest::newRow("unknown command") << QStringList{QStringLiteral("frobnicate")} << "error: unknown command 'frobnicate'\n";
    QTest::newRow("unknown option") << QStringList{QStringLiteral("print"), QStringLiteral("--demo"), QStringLiteral("--colour")}
                                    << "error: unknown option '--colour' for 'print'\n";
    QTest::newRow("no file") << QStringList{QStringLiteral("info")} << "error: missing FILE (or --demo)\n";
    QTest::newRow("value missing") << QStringList{QStringLiteral("partition"), QStringLiteral("--demo"), QStringLiteral("--target")}
                                   << "error: option '--target' needs a value (T)\n";
    QTest::newRow("twice") << QStringList{QStringLiteral("partition"), QStringLiteral("--demo"), QStringLiteral("-o"), QStringLiteral("a"), QStringLiteral("-o"), QStringLiteral("b")}
                           << "error: option '-o' is given twice\n";
    QTest::newRow("opt without passes") << QStringList{QStringLiteral("opt"), QStringLiteral("--demo")} << "error: missing --passes\n";
    QTest::newRow("both") << QStringList{QStringLiteral("info"), QStringLiteral("x.relay"), QStringLiteral("--demo")}
                          << "error: give either FILE or --demo, not both\n";
    QTest::newRow("export-tvm without a target") << QStringList{QStringLiteral("export-tvm")} << "error: missing --target\n";
    QTest::newRow("export-tvm with a model") << QStringList{QStringLiteral("export-tvm"), QStringLiteral("m.relay"), QStringLiteral("--target"), QStringLiteral("dnnl")}
                                             << "error: unexpected argument 'm.relay'\n";
    QTest::newRow("export-tvm with two targets")
        << QStringList{QStringLiteral("export-tvm"), QStringLiteral("--target"), QStringLiteral("dnnl"), QStringLiteral("--target"), QStringLiteral("byoc-target")}
        << "error: option '--target' is given twice\n";
    QTest::newRow("compare without a side B") << QStringList{QStringLiteral("compare"), QStringLiteral("--demo"), QStringLiteral("--target"), QStringLiteral("dnnl")}
                                              << "error: missing --against\n";
  }
  void usageErrorsExitWithTwo() {
    QFETCH(QStringList, args);
    QFETCH(QString, error);
    auto run = runCli(args);
    QCOMPARE(run.exitCode, 2);
    QVERIFY2(run.err.startsWith(error), qPrintable(run.err));
  }
};

QTEST_GUILESS_MAIN(TestCli)
#include "test_cli.moc"
